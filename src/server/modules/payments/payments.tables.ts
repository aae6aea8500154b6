/**
 * Payment attempts and provider notifications. An attempt row is written before any provider
 * call, so a crash or time-out in the middle always leaves something the reconciler can find.
 */
import { sql } from 'drizzle-orm'
import {
  bigint,
  check,
  index,
  integer,
  jsonb,
  pgSequence,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core'
import { sites } from '../sites/sites.tables.ts'
import {
  ATTEMPT_STATES,
  type AttemptResolution,
  type AttemptState,
  type MethodId,
  type NextAction,
  type ProviderMethod,
  type ProviderRefs,
  REFUND_HOWS,
  REFUND_STATUSES,
  type RefundHow,
  type RefundRefs,
  type RefundStatus,
} from './payments.types.ts'

export type { AttemptResolution }

export interface AttemptHistoryEntry {
  at: string
  from: AttemptState
  to: AttemptState
  /** What caused it: the operation or 'reconcile' / 'notification:<id>'. */
  cause: string
  code?: string
}

export const paymentAttempts = pgTable(
  'payment_attempts',
  {
    /** Random UUID; the idempotency keys derive from it. */
    id: text('id').primaryKey(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    /** The checkout's order (or pre-order) this attempt pays for, as text: the payments module does not own orders. */
    orderRef: text('order_ref').notNull(),
    /** 1, 2, 3… per order: a new card after a decline is a new attempt with the next number. */
    attemptNo: integer('attempt_no').notNull(),
    method: text('method', { enum: ['sagepay', 'paya', 'paypal', 'amazon'] })
      .$type<ProviderMethod>()
      .notNull(),
    state: text('state', { enum: ATTEMPT_STATES }).$type<AttemptState>().notNull().default('created'),
    /** What the shop asked the provider to take (the basket's re-priced total when the attempt began). */
    amountMinor: integer('amount_minor').notNull(),
    currency: text('currency', { enum: ['GBP', 'USD'] }).notNull(),
    /**
     * What the provider's own answer says it took, reserved or will settle (null until a provider
     * answer said so). Only this is compared with the re-priced basket when the order is placed,
     * and only this is recorded as the order's amount.
     */
    confirmedAmountMinor: integer('confirmed_amount_minor'),
    confirmedCurrency: text('confirmed_currency'),
    /** Opaque 128-bit reference for cross-site returns (3-D Secure threeDSSessionData). */
    reference: text('reference').notNull(),
    providerRefs: jsonb('provider_refs').$type<ProviderRefs>().notNull().default({}),
    nextAction: jsonb('next_action').$type<NextAction | null>(),
    /** Last decline or failure code and the provider's message (never shown raw to a shopper). */
    lastCode: text('last_code'),
    lastMessage: text('last_message'),
    history: jsonb('history').$type<AttemptHistoryEntry[]>().notNull().default([]),
    /** The provider operation last started ('pay', 'capture', 'complete'…): what the reconciler may repeat. */
    lastOperation: text('last_operation'),
    /** The request of that operation when repeating needs it (Opayo: tokens only, never card data). */
    pendingRequest: jsonb('pending_request').$type<Record<string, unknown> | null>(),
    /**
     * The checked order form (and who submitted it) kept with the attempt before the provider may
     * take the money, so the reconciler can place the order if the browser never comes back.
     * Cleared once the attempt's order exists or its money was given back.
     */
    checkout: jsonb('checkout').$type<CheckoutSnapshot | null>(),
    /**
     * What became of a successful attempt's order: `order_placed` (by the browser or by the
     * reconciler), `voiding` (the order cannot be placed; the money is being given back: no order
     * may use it), `voided` (given back), or `needs_attention` (cannot be placed and the provider
     * cannot give it back here: a person refunds it). Null while the attempt has no order yet.
     */
    resolution: text('resolution', {
      enum: ['order_placed', 'voiding', 'voided', 'needs_attention'],
    }).$type<AttemptResolution>(),
    resolutionNote: text('resolution_note'),
    /** Reconciler bookkeeping for unknown / pending attempts, and the grace period of paid ones. */
    reconcileAfter: timestamp('reconcile_after', { withTimezone: true }),
    reconcileCount: integer('reconcile_count').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true })
      .notNull()
      .default(sql`now()`),
  },
  (t) => [
    uniqueIndex('payment_attempts_order_no').on(t.orderRef, t.attemptNo),
    uniqueIndex('payment_attempts_reference').on(t.reference),
    /** At most one successful attempt per order, whatever races: the database refuses a second. */
    uniqueIndex('payment_attempts_one_success')
      .on(t.orderRef)
      .where(sql`${t.state} in ('authorised', 'captured')`),
    index('payment_attempts_reconcile')
      .on(t.reconcileAfter)
      .where(sql`${t.reconcileAfter} is not null`),
    /**
     * The few attempts a person may need to look at (the back office's payments to check, ADR
     * 0276): unknown, or paid with no order yet, being given back, or held for a person. The
     * common paid-and-ordered attempt is not in it.
     */
    index('payment_attempts_attention')
      .on(t.createdAt, t.id)
      .where(
        sql`${t.state} = 'unknown' or (${t.state} in ('authorised', 'captured') and (${t.resolution} is null or ${t.resolution} in ('voiding', 'needs_attention')))`,
      ),
  ],
)

export const paymentNotifications = pgTable(
  'payment_notifications',
  {
    id: serial('id').primaryKey(),
    provider: text('provider', { enum: ['paya', 'paypal', 'amazon'] }).notNull(),
    /** The provider's event id (PayPal event id, SNS MessageId / NotificationId, Paya postback hash). */
    eventId: text('event_id').notNull(),
    kind: text('kind').notNull(),
    attemptId: text('attempt_id'),
    /** What processing did: 'reconciled', 'no-attempt', 'error: …'. */
    result: text('result'),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    processedAt: timestamp('processed_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('payment_notifications_event').on(t.provider, t.eventId)],
)

/** What the checkout keeps to place the order without the browser (opaque to this module). */
export interface CheckoutSnapshot {
  form: Record<string, unknown>
  customerId: number | null
  idempotencyKey: string | null
  baseUrl: string
}

export type PaymentAttemptRow = typeof paymentAttempts.$inferSelect

/** Credit note numbers (a purchase-order refund): from a sequence, gaps are fine. */
export const creditNoteNumberSeq = pgSequence('credit_note_number_seq', { startWith: 900001, increment: 1 })

/**
 * The refund ledger (issue 33, ADR 0210): every amount given back after an order was placed, one
 * row per refund, void or credit note, written `pending` BEFORE the provider is called. The cap
 * (captured − succeeded − pending − unknown) is checked under the payment attempt's row lock, so
 * two refunds at once never exceed what was captured.
 */
export const paymentRefunds = pgTable(
  'payment_refunds',
  {
    /** Random UUID; the provider's idempotency key for this refund derives from it. */
    id: text('id').primaryKey(),
    /** The order's id as text (the payments module does not own orders). */
    orderId: text('order_id').notNull(),
    /** The captured attempt refunded; null for a credit note (purchase order). */
    attemptId: text('attempt_id').references(() => paymentAttempts.id, { onDelete: 'restrict' }),
    method: text('method', { enum: ['sagepay', 'paya', 'paypal', 'amazon', 'purchase_order'] })
      .$type<MethodId>()
      .notNull(),
    /** What was (or is being) given back; 0 for a void of a lapsed authorisation (nothing held) */
    amountMinor: integer('amount_minor').notNull(),
    currency: text('currency').notNull(),
    status: text('status', { enum: REFUND_STATUSES }).$type<RefundStatus>().notNull(),
    how: text('how', { enum: REFUND_HOWS }).$type<RefundHow>().notNull(),
    /** The caller's key: the same key again answers this row, and never calls the provider twice. */
    idempotencyKey: text('idempotency_key').notNull(),
    reason: text('reason').notNull(),
    actorKind: text('actor_kind').notNull(),
    actorName: text('actor_name').notNull(),
    providerRefs: jsonb('provider_refs').$type<RefundRefs>().notNull().default({}),
    creditNoteNumber: bigint('credit_note_number', { mode: 'number' }),
    /** The provider's words on a decline or a pending reason, or why a person must look. */
    message: text('message'),
    /** Reconciler bookkeeping for pending and unknown rows (null: nothing to ask). */
    reconcileAfter: timestamp('reconcile_after', { withTimezone: true }),
    reconcileCount: integer('reconcile_count').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    settledAt: timestamp('settled_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('payment_refunds_idempotency_key').on(t.idempotencyKey),
    uniqueIndex('payment_refunds_credit_note_number').on(t.creditNoteNumber),
    index('payment_refunds_order').on(t.orderId, t.createdAt),
    index('payment_refunds_attempt').on(t.attemptId),
    index('payment_refunds_reconcile')
      .on(t.reconcileAfter)
      .where(sql`${t.reconcileAfter} is not null`),
    /** Refunds the provider has not confirmed (the back office's payments to check, ADR 0276). */
    index('payment_refunds_unsettled')
      .on(t.createdAt, t.id)
      .where(sql`${t.status} in ('pending', 'unknown')`),
    // 0 only for a void of an authorisation that had already lapsed: nothing was held to give back.
    check(
      'payment_refunds_amount',
      sql`${t.amountMinor} > 0 or (${t.amountMinor} = 0 and ${t.how} = 'void')`,
    ),
  ],
)

export type PaymentRefundRow = typeof paymentRefunds.$inferSelect
