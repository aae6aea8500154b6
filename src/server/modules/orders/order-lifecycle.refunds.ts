/**
 * Refunds and the give-back of a cancel (ADR 0200). The money moves through `OrderMoney` (the
 * payments module's refund ledger), which calls the provider: that call is never made inside the
 * order's transaction (a provider may take seconds, and the ledger writes on its own connection;
 * the embedded database has one). So a refund is three steps, each safe to repeat with the same
 * idempotency key:
 *  1. under the order's row lock, the amount is checked against what is still refundable and a
 *     `refund_requested` timeline row reserves it (two refunds at once: the second sees the first's
 *     reservation, so together they never exceed what was paid);
 *  2. `OrderMoney` is asked, with the key (a repeat gets the ledger's first answer);
 *  3. under the row lock again, its outcome is recorded: a `refund` timeline row, the refunded
 *     amount and payment status, the customer's e-mail and the webhook event, once per key.
 * A pending outcome is finished by `onRefundSettled` (a `refund_settled` row). A crash between
 * 1 and 3 leaves the amount reserved until the same key is sent again.
 *
 * A refund asked for by lines records them on its `refund_requested` row, so a line also has a
 * cap of its own (refund-lines.ts): never more of it than was ordered, nor more money than the
 * line was charged, less earlier refunds of that line that did not fail.
 */
import { and, asc, eq, inArray } from 'drizzle-orm'
import type { Db, Executor, Tx } from '../../db/client.ts'
import { DomainError } from '../../lib/domain-error.ts'
import type { Site } from '../sites/sites.service.ts'
import { orderEvents, orderItems, orders, type OrderRow, type PaymentStatus } from './orders.tables.ts'
import { refundedMail } from './orders.lifecycle-mail.ts'
import { lineRefundsOf, linesAsked, type RefundedLine } from './order-lifecycle.refund-lines.ts'
import {
  actorOf,
  applyChange,
  checkVersion,
  inTransaction,
  lockOrder,
  requiredText,
} from './order-lifecycle.write.ts'
import {
  invalidInput,
  orderNotFound,
  summaryOf,
  transitionRefused,
  type Actor,
  type OrderLifecycleDeps,
  type OrderLifecycleSummary,
  type QuoteRefundInput,
  type RefundInput,
  type RefundOutcome,
  type RefundQuote,
  type RefundSettled,
} from './order-lifecycle.types.ts'

const REFUND_TYPES = ['refund_requested', 'refund', 'refund_error', 'refund_settled'] as const

interface RefundRequest {
  idempotencyKey: string
  amountMinor: number
  kind: 'refund' | 'give_back'
  /** The lines a refund by lines asked for, with each one's share of the amount */
  lines?: RefundedLine[]
}

/** The order's refunds as its timeline tells them. */
export interface RefundLedger {
  requests: Map<string, RefundRequest>
  /** Outcomes by idempotency key (the `refund` rows) */
  outcomes: Map<string, RefundOutcome>
  /** Settled pending refunds: their final status by refund id */
  settled: Map<string, 'succeeded' | 'failed'>
  /** Amounts asked for whose outcome is not final yet */
  reservedMinor: number
}

/** Whether a request gave (or may yet give) money back: not refused, not settled as failed. */
function requestCounts(ledger: RefundLedger, key: string): boolean {
  const outcome = ledger.outcomes.get(key)
  if (!outcome) return true
  if (outcome.status === 'failed') return false
  return !(outcome.status === 'pending' && ledger.settled.get(outcome.refundId) === 'failed')
}

export async function refundLedger(executor: Executor, orderId: number): Promise<RefundLedger> {
  const rows = await executor
    .select()
    .from(orderEvents)
    .where(and(eq(orderEvents.orderId, orderId), inArray(orderEvents.type, [...REFUND_TYPES])))
    .orderBy(asc(orderEvents.id))
  const requests = new Map<string, RefundRequest>()
  const outcomes = new Map<string, RefundOutcome>()
  const settled = new Map<string, 'succeeded' | 'failed'>()
  for (const r of rows) {
    const d = r.data as Record<string, unknown>
    if (r.type === 'refund_requested') requests.set(String(d.idempotencyKey), d as unknown as RefundRequest)
    else if (r.type === 'refund') outcomes.set(String(d.idempotencyKey), d as unknown as RefundOutcome)
    else if (r.type === 'refund_settled')
      settled.set(String(d.refundId), d.status === 'failed' ? 'failed' : 'succeeded')
  }
  let reservedMinor = 0
  for (const [key, request] of requests) {
    const outcome = outcomes.get(key)
    if (!outcome) reservedMinor += request.amountMinor
    else if (outcome.status === 'pending' && !settled.has(outcome.refundId))
      reservedMinor += outcome.amountMinor
  }
  return { requests, outcomes, settled, reservedMinor }
}

const PAID: readonly PaymentStatus[] = ['paid', 'partially_refunded']

export function refundableOf(order: OrderRow, ledger: RefundLedger): number {
  if (!PAID.includes(order.paymentStatus)) return 0
  return Math.max(0, order.totalIncVat - order.refundedMinor - ledger.reservedMinor)
}

/**
 * The amount a refund asks for: the amount given, or the lines' share of what they were charged
 * (each within its own cap), or all that is refundable.
 */
async function amountAsked(
  executor: Executor,
  order: OrderRow,
  input: QuoteRefundInput,
  refundable: number,
  ledger: RefundLedger,
): Promise<{ amountMinor: number; lines?: RefundedLine[] }> {
  if (input.amountMinor !== undefined && input.lines !== undefined)
    throw invalidInput('amountMinor', 'Give an amount or lines to refund, not both.')
  if (input.amountMinor !== undefined) {
    if (!Number.isSafeInteger(input.amountMinor) || input.amountMinor <= 0)
      throw invalidInput(
        'amountMinor',
        'The amount must be a positive whole number of minor units (pence, cents).',
      )
    return { amountMinor: input.amountMinor }
  }
  if (input.lines === undefined) return { amountMinor: refundable }
  const items = await executor.select().from(orderItems).where(eq(orderItems.orderId, order.id))
  const earlier = lineRefundsOf(
    [...ledger.requests].filter(([key]) => requestCounts(ledger, key)).map(([, r]) => r.lines ?? []),
  )
  const lines = linesAsked(order, items, input.lines, earlier)
  const amountMinor = lines.reduce((sum, l) => sum + l.amountMinor, 0)
  if (amountMinor <= 0)
    throw invalidInput('lines', 'Those lines were charged nothing: there is nothing to refund.')
  return { amountMinor, lines }
}

function refusedUnpaid(order: OrderRow): DomainError | null {
  if (order.status === 'pending_payment' || order.status === 'payment_failed')
    return transitionRefused(
      `Order ${order.orderNumber} has no payment to refund (it is ${order.status.replace('_', ' ')}).`,
    )
  if (!PAID.includes(order.paymentStatus))
    return transitionRefused(
      `Nothing paid remains to refund on order ${order.orderNumber} (its payment is ${order.paymentStatus.replace('_', ' ')}).`,
    )
  return null
}

export async function quoteRefund(db: Db, input: QuoteRefundInput): Promise<RefundQuote> {
  const [order] = await db
    .select()
    .from(orders)
    .where(
      input.siteId === undefined
        ? eq(orders.orderNumber, input.orderNumber)
        : and(eq(orders.orderNumber, input.orderNumber), eq(orders.siteId, input.siteId)),
    )
  if (!order) throw orderNotFound(input.orderNumber)
  const ledger = await refundLedger(db, order.id)
  const refundable = refundableOf(order, ledger)
  const refusal = refusedUnpaid(order)
  if (refusal && (input.amountMinor !== undefined || input.lines !== undefined)) throw refusal
  const amountMinor = refusal ? 0 : (await amountAsked(db, order, input, refundable, ledger)).amountMinor
  return { refundableMinor: refundable, amountMinor, currency: order.currency }
}

/** What a succeeded give-back does to the order's money columns. */
function moneyAfter(order: OrderRow, outcome: RefundOutcome) {
  if (outcome.status !== 'succeeded') return {}
  if (outcome.how === 'void' || order.paymentStatus === 'unpaid') return { paymentStatus: 'voided' as const }
  const refunded = Math.min(order.totalIncVat, order.refundedMinor + outcome.amountMinor)
  const paymentStatus: PaymentStatus =
    refunded >= order.totalIncVat ? 'refunded' : refunded > 0 ? 'partially_refunded' : order.paymentStatus
  return { refundedMinor: refunded, paymentStatus }
}

/**
 * The webhook event of an outcome: a refusal needs a person; a give-back of nothing (a void of an
 * authorisation that had lapsed: no money was held) only updates the order; else it was refunded.
 */
function refundEventType(outcome: RefundOutcome) {
  if (outcome.status === 'failed') return 'payment.needs_attention' as const
  return outcome.status === 'succeeded' && outcome.amountMinor === 0
    ? ('order.updated' as const)
    : ('order.refunded' as const)
}

/** Step 3: records the ledger's outcome for a key, once (the order is locked by the caller). */
export async function recordOutcome(
  tx: Tx,
  deps: Pick<OrderLifecycleDeps, 'events' | 'mail'>,
  site: Site | null,
  order: OrderRow,
  key: string,
  outcome: RefundOutcome,
  actor: Actor,
): Promise<OrderRow> {
  const ledger = await refundLedger(tx, order.id)
  if (ledger.outcomes.has(key)) return order
  const data = {
    idempotencyKey: key,
    refundId: outcome.refundId,
    status: outcome.status,
    amountMinor: outcome.amountMinor,
    how: outcome.how,
    ...(outcome.message ? { message: outcome.message } : {}),
  }
  return applyChange(tx, deps, site, order, {
    set: moneyAfter(order, outcome),
    timeline: { type: 'refund', actor, data },
    event: { type: refundEventType(outcome), data },
    ...(outcome.status === 'succeeded' && outcome.amountMinor > 0
      ? {
          mail: (site, o, row) => refundedMail(site, o, outcome.amountMinor, row.siteOrigin),
          mailName: `refund:${key}`,
        }
      : {}),
  })
}

/**
 * The money seam threw. A DomainError is its refusal (nothing was given back): recorded as a
 * failed outcome, which frees the reservation. Anything else leaves the outcome unknown: the
 * reservation stays, a person is told, and the same key asks again.
 */
export async function recordThrown(
  tx: Tx,
  deps: Pick<OrderLifecycleDeps, 'events' | 'mail'>,
  site: Site | null,
  order: OrderRow,
  key: string,
  error: unknown,
  actor: Actor,
): Promise<OrderRow> {
  if (error instanceof DomainError)
    return recordOutcome(
      tx,
      deps,
      site,
      order,
      key,
      { refundId: '', status: 'failed', amountMinor: 0, how: 'refund', message: error.message },
      actor,
    )
  return recordError(tx, deps, site, order, key, error, actor)
}

/** The ledger could not be asked (an error, not an answer): the reservation stays, a person is told. */
async function recordError(
  tx: Tx,
  deps: Pick<OrderLifecycleDeps, 'events' | 'mail'>,
  site: Site | null,
  order: OrderRow,
  key: string,
  error: unknown,
  actor: Actor,
): Promise<OrderRow> {
  const message = error instanceof Error ? error.message : String(error)
  return applyChange(tx, deps, site, order, {
    set: {},
    timeline: { type: 'refund_error', actor, data: { idempotencyKey: key, message } },
    event: { type: 'payment.needs_attention', data: { idempotencyKey: key, message } },
  })
}

export async function refundOrder(
  deps: OrderLifecycleDeps,
  db: Db,
  input: RefundInput,
): Promise<OrderLifecycleSummary> {
  const actor = actorOf(input.actor)
  const key = requiredText('idempotencyKey', input.idempotencyKey, 200, 'The idempotency key')
  const reason = requiredText('reason', input.reason, 500, 'The reason')
  const asked = await inTransaction(deps, db, input, async (tx) => {
    const order = await lockOrder(tx, input)
    const ledger = await refundLedger(tx, order.id)
    const request = ledger.requests.get(key)
    // The same key again: its first answer, or (no outcome yet) the same request asked again.
    if (request && ledger.outcomes.has(key)) return { done: summaryOf(order) }
    if (request) return { orderId: order.id, amountMinor: request.amountMinor }
    checkVersion(order, input.expectVersion)
    const refusal = refusedUnpaid(order)
    if (refusal) throw refusal
    const refundable = refundableOf(order, ledger)
    const { amountMinor, lines } = await amountAsked(tx, order, input, refundable, ledger)
    if (amountMinor <= 0) throw transitionRefused(`Nothing remains to refund on order ${order.orderNumber}.`)
    if (amountMinor > refundable)
      throw new DomainError(
        'refund_exceeds_refundable',
        `A refund of ${amountMinor} is more than the ${refundable} that can still be refunded on order ${order.orderNumber}.`,
        { amountMinor: ['More than can still be refunded.'] },
        { refundableMinor: refundable },
      )
    await tx.insert(orderEvents).values({
      orderId: order.id,
      type: 'refund_requested',
      actorKind: actor.kind,
      actorName: actor.name,
      data: { idempotencyKey: key, amountMinor, reason, kind: 'refund', ...(lines ? { lines } : {}) },
    })
    return { orderId: order.id, amountMinor }
  })
  if ('done' in asked) return asked.done!
  let outcome: RefundOutcome
  try {
    outcome = await deps.money.refund({
      orderId: String(asked.orderId),
      amountMinor: asked.amountMinor,
      idempotencyKey: key,
      reason,
      actor,
    })
  } catch (error) {
    await inTransaction(deps, db, input, async (tx, site) =>
      recordThrown(tx, deps, site, await lockOrder(tx, input), key, error, actor),
    )
    throw error
  }
  return inTransaction(deps, db, input, async (tx, site) =>
    summaryOf(await recordOutcome(tx, deps, site, await lockOrder(tx, input), key, outcome, actor)),
  )
}

/** A pending refund settled (the payments module, in its own transaction): recorded once. */
export function refundSettlement(deps: Pick<OrderLifecycleDeps, 'events' | 'mail'>): RefundSettled {
  return async (tx, settled) => {
    const orderId = Number(settled.orderId)
    if (!Number.isSafeInteger(orderId)) return
    const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update')
    if (!order) return
    const ledger = await refundLedger(tx, order.id)
    if (ledger.settled.has(settled.refundId)) return
    const pending = [...ledger.outcomes.values()].find(
      (o) => o.refundId === settled.refundId && o.status === 'pending',
    )
    if (!pending) return
    // Loaded inside the caller's transaction: the registry is warm in a running app (ADR 0200).
    const site = await deps.mail.site(order.siteId)
    const outcome: RefundOutcome = { ...pending, status: settled.status, amountMinor: settled.amountMinor }
    const data = {
      refundId: settled.refundId,
      status: settled.status,
      amountMinor: settled.amountMinor,
      how: pending.how,
    }
    await applyChange(tx, deps, site, order, {
      set: moneyAfter(order, outcome),
      timeline: { type: 'refund_settled', actor: { kind: 'provider', name: 'refund settlement' }, data },
      event: { type: settled.status === 'failed' ? 'payment.needs_attention' : 'order.refunded', data },
      ...(settled.status === 'succeeded' && settled.amountMinor > 0
        ? {
            mail: (site, o, row) => refundedMail(site, o, settled.amountMinor, row.siteOrigin),
            mailName: `refund:${settled.refundId}`,
          }
        : {}),
    })
  }
}
