import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core'

/**
 * Rate-limit counts shared by every instance on one PostgreSQL database when no REDIS_URL is
 * configured (ADR 0176): one row per limited key (route and client address) and fixed window.
 */
export const rateLimitCounts = pgTable(
  'rate_limit_counts',
  {
    key: text('key').primaryKey(),
    /** Requests counted in the window that ends at expires_at */
    count: integer('count').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('rate_limit_counts_expires_at').on(t.expiresAt)],
)
