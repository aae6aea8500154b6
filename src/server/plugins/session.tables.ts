import { index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core'

/** Server-side sessions when no REDIS_URL is configured. */
export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('sessions_expires_at').on(t.expiresAt)],
)
