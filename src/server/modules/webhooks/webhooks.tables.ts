/**
 * Outbound webhooks (ADR 0230): the endpoints a shop owner registers, the outbox of messages
 * (written in the transaction of the change they announce) and one delivery per message and
 * endpoint, sent by the job queue in the order of the messages.
 */
import { sql } from 'drizzle-orm'
import {
  bigserial,
  bigint,
  boolean,
  index,
  integer,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core'
import { sites } from '../sites/sites.tables.ts'

export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    /** `ep_` + random: not guessable, never a count of another site's endpoints */
    id: text('id').primaryKey(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id),
    url: text('url').notNull(),
    description: text('description').notNull().default(''),
    /** `whsec_` + base64 of 32 random bytes (Standard Webhooks); shown once, at creation or rotation */
    secret: text('secret').notNull(),
    /** After a rotation, the old secret also signs until `previous_secret_until` (both signatures sent) */
    previousSecret: text('previous_secret'),
    previousSecretUntil: timestamp('previous_secret_until', { withTimezone: true }),
    /** The event types this endpoint receives (`order.placed`, …) */
    eventTypes: text('event_types').array().notNull(),
    enabled: boolean('enabled').notNull().default(true),
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    disabledReason: text('disabled_reason'),
    /** The first failed attempt since the last success (null while the endpoint answers) */
    failingSince: timestamp('failing_since', { withTimezone: true }),
    /** Failed attempts since the last success; picks the back-off and the moment to disable */
    consecutiveFailures: integer('consecutive_failures').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('webhook_endpoints_site').on(t.siteId)],
)

export type WebhookEndpointRow = typeof webhookEndpoints.$inferSelect

/** The outbox: one row per event, written in the transaction of the change it announces. */
export const webhookMessages = pgTable(
  'webhook_messages',
  {
    /** `msg_` + random: the `webhook-id` header, the receiver's idempotency key */
    id: text('id').primaryKey(),
    /** Creation order: deliveries to one endpoint go out in this order */
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id),
    type: text('type').notNull(),
    /** The body sent, `{type, timestamp, data}`, serialised once so every attempt sends the same bytes */
    body: text('body').notNull(),
    orderId: integer('order_id'),
    orderNumber: integer('order_number'),
    orderVersion: integer('order_version'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('webhook_messages_seq').on(t.seq), index('webhook_messages_order').on(t.orderId)],
)

export type WebhookMessageRow = typeof webhookMessages.$inferSelect

export const DELIVERY_STATUSES = ['pending', 'failed', 'delivered', 'abandoned'] as const
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number]

export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: serial('id').primaryKey(),
    messageId: text('message_id')
      .notNull()
      .references(() => webhookMessages.id, { onDelete: 'cascade' }),
    endpointId: text('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    /** The message's `seq`, copied so an endpoint's next delivery is one index read */
    messageSeq: bigint('message_seq', { mode: 'number' }).notNull(),
    /** delivery.state.ts: pending → delivered, or failed (retried) → delivered; abandoned by a person */
    status: text('status', { enum: DELIVERY_STATUSES }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * A claim: a fresh token per attempt and the end of its lease. While the lease lasts no other
     * worker, on any instance, sends this endpoint's deliveries; only the token's owner records
     * the outcome.
     */
    claimToken: text('claim_token'),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
    lastStatusCode: integer('last_status_code'),
    lastError: text('last_error'),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('webhook_deliveries_message_endpoint').on(t.messageId, t.endpointId),
    index('webhook_deliveries_undelivered')
      .on(t.endpointId, t.messageSeq)
      .where(sql`${t.status} in ('pending', 'failed')`),
    index('webhook_deliveries_endpoint').on(t.endpointId, t.id),
  ],
)

export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect
