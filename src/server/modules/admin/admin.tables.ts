/**
 * Back-office API access: tokens (stored only as SHA-256 hashes of 256 random bits, one site each,
 * revocable) and a log of every call made with one.
 */
import {
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core'
import { invoices } from '../orders/orders.tables.ts'
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

/**
 * The Idempotency-Key of each back-office write (ADR 0220): one row per token and key, inserted
 * before the write runs (so a second request with the key at once finds it), holding a hash of
 * the request and, once the write has answered, its answer, replayed for a repeat of the same
 * request until `expires_at` (24 hours); then the sweep job deletes it.
 */
export const adminIdempotency = pgTable(
  'admin_idempotency',
  {
    id: serial('id').primaryKey(),
    tokenId: integer('token_id')
      .notNull()
      .references(() => adminTokens.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    /** Hex SHA-256 of method, path and body. */
    requestHash: text('request_hash').notNull(),
    method: text('method').notNull(),
    path: text('path').notNull(),
    /** Null while the write runs. */
    responseStatus: integer('response_status'),
    responseBody: text('response_body'),
    /** The answer's content-type, ETag and Location, replayed with it. */
    responseHeaders: jsonb('response_headers').$type<Record<string, string>>(),
    /** When the running write took the key; a key held past its lease may be taken again. */
    lockedAt: timestamp('locked_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('admin_idempotency_token_key').on(t.tokenId, t.key),
    index('admin_idempotency_expires').on(t.expiresAt),
  ],
)

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
})

/**
 * The PDF an ERP sent with an invoice (PUT /orders/{number}/invoices/{invoiceNumber}); an invoice
 * without one is drawn by the shop from the invoice row, as before.
 */
export const adminInvoiceDocuments = pgTable('admin_invoice_documents', {
  invoiceId: integer('invoice_id')
    .primaryKey()
    .references(() => invoices.id, { onDelete: 'cascade' }),
  pdf: bytea('pdf').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
})
