/**
 * Back-office API access: tokens (stored only as SHA-256 hashes of 256 random bits, one site each,
 * revocable) and a log of every call made with one.
 */
import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
import { sites } from '../sites/sites.tables.ts'

export const adminTokens = pgTable(
  'admin_tokens',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    /** Who or what holds it ('ERP sync'). */
    name: text('name').notNull(),
    /** Hex SHA-256 of the token; the token itself is shown once, at creation. */
    tokenHash: text('token_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('admin_tokens_hash').on(t.tokenHash)],
)

export const adminCalls = pgTable(
  'admin_calls',
  {
    id: serial('id').primaryKey(),
    /** Null when no valid token was presented. */
    tokenId: integer('token_id').references(() => adminTokens.id, { onDelete: 'set null' }),
    siteId: integer('site_id'),
    method: text('method').notNull(),
    path: text('path').notNull(),
    status: integer('status').notNull(),
    ip: text('ip').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('admin_calls_token_at').on(t.tokenId, t.at)],
)
