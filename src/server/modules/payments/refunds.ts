/**
 * The refund ledger (issue 33, ADR 0210): money given back after an order was placed, through
 * the order's provider (a refund, or a void while the provider still allows one) or, for a
 * purchase order, as a credit note. It implements the orders side's `OrderMoney` seam.
 *
 *   reserve (one short transaction: the order's advisory lock and its captured attempt's row
 *   lock FOR UPDATE; the cap captured − (succeeded + pending + unknown) checked; the row inserted
 *   `pending` with a lease) → the provider's call (outside any transaction, bounded by the
 *   adapter's time-out, shorter than the lease) → the answer recorded under the refund row's lock.
 *
 * Because the pending row is committed before the provider is called, a second refund at once
 * waits for the lock and then counts the first one: two refunds never exceed the captured amount.
 * The caller's idempotency key is unique in the table: the same key answers the first row, and
 * the provider is never called twice for it. A lost answer (time-out, dropped connection, 5xx)
 * leaves the row `unknown`; the `refund-reconcile` job asks the provider (with the same derived
 * key) once the lease has run out, and a provider notification (Amazon IPN, PayPal webhook)
 * settles a pending one sooner. A refund that settles after its call told the orders side, via
 * `payments.onRefundSettled`, in the same transaction as the status change.
 *
 * Many instances: the reconciler claims rows FOR UPDATE SKIP LOCKED with a lease, so no two
 * instances ask about one refund at once; nothing is cached in process.
 */
import { randomUUID } from 'node:crypto'
import { and, asc, eq, inArray, isNotNull, lte, sql } from 'drizzle-orm'
import type { Db, Executor, Tx } from '../../db/client.ts'
import { DomainError } from '../../lib/domain-error.ts'
import type { PaymentService } from './payments.service.ts'
import { attemptContext } from './payments.service.ts'
import {
  paymentAttempts,
  paymentRefunds,
  creditNoteNumberSeq,
  type PaymentAttemptRow,
  type PaymentRefundRow,
} from './payments.tables.ts'
import type { Currency, MethodId } from './payments.types.ts'
import {
  amountProblem,
  keyProblem,
  nothingGivenBack,
  refundableMinor,
  refundReconcileDelaySeconds,
} from './refunds.cap.ts'
import type {
  Actor,
  OrderMoney,
  RefundAnswer,
  RefundContext,
  RefundOutcome,
  RefundStatusAnswer,
} from './refunds.types.ts'

/** What the ledger needs of an order: its payment (the payments module does not own orders). */
export interface OrderPayment {
  orderId: string
  paymentMethod: MethodId | string
  currency: string
  totalIncVat: number
  /** The attempt the order claimed; null for a purchase order. */
  paymentAttemptId: string | null
}

export type OrderPaymentLookup = (executor: Executor, orderId: string) => Promise<OrderPayment | null>

/** The default lookup: the order's row by its id (the one read of `orders` this module makes). */
export const ordersTableLookup: OrderPaymentLookup = async (executor, orderId) => {
  if (!/^\d{1,15}$/.test(orderId)) return null
  const result = await executor.execute(
    sql`select id, payment_method, currency, total_inc_vat, payment_attempt_id from orders where id = ${Number(orderId)}`,
  )
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as {
    id: number
    payment_method: string
    currency: string
    total_inc_vat: number
    payment_attempt_id: string | null
  }[]
  const r = rows[0]
  return r
    ? {
        orderId: String(r.id),
        paymentMethod: r.payment_method,
        currency: r.currency,
        totalIncVat: Number(r.total_inc_vat),
        paymentAttemptId: r.payment_attempt_id,
      }
    : null
}

export interface RefundLedgerDeps {
  db: Db
  /** The payments service: its provider adapters, and the `onRefundSettled` hook it carries. */
  payments: Pick<PaymentService, 'adapters' | 'onRefundSettled'>
  findOrder?: OrderPaymentLookup
  now?: () => number
  /**
   * How long a refund's provider call may run before the reconciler may ask about it: longer
   * than the adapters' time-out (20 s by default), so the reconciler never races a live call.
   */
  callLeaseMs?: number
}

type RefundInput = { orderId: string; idempotencyKey: string; reason: string; actor: Actor }

export class RefundLedger implements OrderMoney {
  private readonly db: Db
  private readonly findOrder: OrderPaymentLookup
  private readonly now: () => number
  private readonly callLeaseMs: number

  constructor(private readonly deps: RefundLedgerDeps) {
    this.db = deps.db
    this.findOrder = deps.findOrder ?? ordersTableLookup
    this.now = deps.now ?? Date.now
    this.callLeaseMs = deps.callLeaseMs ?? 60_000
  }

  async refund(input: RefundInput & { amountMinor: number }): Promise<RefundOutcome> {
    const amount = amountProblem(input.amountMinor)
    if (amount) throw new DomainError('invalid', amount, { amountMinor: [amount] })
    return this.giveBack(input, input.amountMinor)
  }

  async giveBackAll(input: RefundInput): Promise<RefundOutcome> {
    return this.giveBack(input, 'all')
  }

  /** The ledger's rows of an order, oldest first. */
  forOrder(orderId: string): Promise<PaymentRefundRow[]> {
    return this.db
      .select()
      .from(paymentRefunds)
      .where(eq(paymentRefunds.orderId, orderId))
      .orderBy(asc(paymentRefunds.createdAt), asc(paymentRefunds.id))
  }

  async get(refundId: string): Promise<PaymentRefundRow | null> {
    const [row] = await this.db.select().from(paymentRefunds).where(eq(paymentRefunds.id, refundId))
    return row ?? null
  }

  /** What may still be refunded of an order (captured, or the purchase order's total, less the ledger). */
  async refundable(orderId: string): Promise<{ refundableMinor: number; currency: string }> {
    const order = await this.findOrder(this.db, orderId)
    if (!order) throw new DomainError('not_found', 'That order was not found.')
    const base = order.paymentAttemptId
      ? capturedOf(await this.attempt(this.db, order.paymentAttemptId))
      : { minor: creditable(order), currency: order.currency }
    return {
      refundableMinor: refundableMinor(base.minor, await this.forOrder(orderId)),
      currency: base.currency,
    }
  }

  private async giveBack(input: RefundInput, amount: number | 'all'): Promise<RefundOutcome> {
    checkInput(input)
    const earlier = await this.byKey(this.db, input.idempotencyKey)
    if (earlier) return replay(earlier, input.orderId, amount)
    const reserved = await this.db.transaction((tx) => this.reserve(tx, input, amount))
    if ('replayed' in reserved) return replay(reserved.replayed, input.orderId, amount)
    const row = reserved.row
    if (row.status !== 'pending' || !reserved.attempt) return outcomeOf(row)
    const adapter = this.deps.payments.adapters[reserved.attempt.method]
    let answer: RefundAnswer
    try {
      answer = await adapter!.refund!(attemptContext(reserved.attempt), {
        refundId: row.id,
        amountMinor: row.amountMinor,
        currency: row.currency as Currency,
        idempotencyKey: row.idempotencyKey,
        mayVoid: row.how === 'void',
      })
    } catch (err) {
      // Whether the provider acted is unknown: the reconciler asks it once the lease runs out.
      return outcomeOf(await this.lost(row.id, err))
    }
    return outcomeOf(await this.record(row.id, answer, 'call'))
  }

  /** The locks, the cap and the pending row, in one short transaction. */
  private async reserve(
    tx: Tx,
    input: RefundInput,
    amount: number | 'all',
  ): Promise<{ row: PaymentRefundRow; attempt: PaymentAttemptRow | null } | { replayed: PaymentRefundRow }> {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`refunds:order:${input.orderId}`}))`)
    const order = await this.findOrder(tx, input.orderId)
    if (!order) throw new DomainError('not_found', 'That order was not found.')
    // The same key may have been written while this one waited for the lock.
    const raced = await this.byKey(tx, input.idempotencyKey)
    if (raced) return { replayed: raced }
    const rows = await tx.select().from(paymentRefunds).where(eq(paymentRefunds.orderId, order.orderId))
    const now = new Date(this.now())
    const base = {
      id: randomUUID(),
      orderId: order.orderId,
      idempotencyKey: input.idempotencyKey,
      reason: input.reason.slice(0, 500),
      actorKind: input.actor.kind,
      actorName: input.actor.name.slice(0, 200),
      createdAt: now,
    }
    if (!order.paymentAttemptId) {
      // A purchase order: no provider took money; the refund is a credit note against its total.
      const left = refundableMinor(creditable(order), rows)
      const minor = this.capped(amount, left, order.currency)
      const [row] = await tx
        .insert(paymentRefunds)
        .values({
          ...base,
          attemptId: null,
          method: 'purchase_order',
          amountMinor: minor,
          currency: order.currency,
          status: 'succeeded',
          how: 'credit_note',
          creditNoteNumber: sql`nextval(${creditNoteNumberSeq.seqName})`,
          settledAt: now,
        })
        .returning()
      return { row: row!, attempt: null }
    }
    const attempt = await this.attempt(tx, order.paymentAttemptId, true)
    if (!this.deps.payments.adapters[attempt.method]?.refund)
      throw new DomainError('invalid', `Refunds through ${attempt.method} are not configured here.`)
    const captured = capturedOf(attempt)
    const left = refundableMinor(captured.minor, rows)
    const minor = this.capped(amount, left, captured.currency)
    // Everything, nothing given back before: the provider may void instead (same day, unsettled,
    // not captured). An authorised payment can only be voided.
    const mayVoid = amount === 'all' && nothingGivenBack(rows) && minor === captured.minor
    if (attempt.state === 'authorised' && !mayVoid)
      throw new DomainError(
        'invalid',
        'This payment was authorised but not taken: it can only be cancelled in full.',
      )
    const [row] = await tx
      .insert(paymentRefunds)
      .values({
        ...base,
        attemptId: attempt.id,
        method: attempt.method,
        amountMinor: minor,
        currency: captured.currency,
        status: 'pending',
        how: mayVoid ? 'void' : 'refund',
        // The call's lease: the reconciler leaves the row alone until the call has surely ended.
        reconcileAfter: new Date(now.getTime() + this.callLeaseMs),
      })
      .returning()
    return { row: row!, attempt }
  }

  /** The amount to give back, or the refusal when it exceeds what is left. */
  private capped(amount: number | 'all', left: number, currency: string): number {
    if (amount === 'all' ? left > 0 : amount <= left) return amount === 'all' ? left : amount
    const what = `${(left / 100).toFixed(2)} ${currency}`
    throw new DomainError(
      'refund_exceeds_refundable',
      amount === 'all'
        ? 'Nothing is left to give back on this order.'
        : `That is more than can be refunded: at most ${what} is left (captured, less refunds made or still pending).`,
      {},
      { refundableMinor: left, currency },
    )
  }

  private async attempt(executor: Executor, id: string, lock = false): Promise<PaymentAttemptRow> {
    const q = executor.select().from(paymentAttempts).where(eq(paymentAttempts.id, id))
    const [row] = lock ? await q.for('update') : await q
    if (!row) throw new DomainError('invalid', 'This order has no payment to refund.')
    if (row.state !== 'captured' && row.state !== 'authorised')
      throw new DomainError('invalid', `This order's payment is ${row.state}: there is nothing to refund.`)
    return row
  }

  private async byKey(executor: Executor, key: string): Promise<PaymentRefundRow | null> {
    const [row] = await executor.select().from(paymentRefunds).where(eq(paymentRefunds.idempotencyKey, key))
    return row ?? null
  }

  /** The call threw: the row becomes `unknown` (unless an answer already settled it). */
  private async lost(id: string, err: unknown): Promise<PaymentRefundRow> {
    const now = new Date(this.now())
    const [row] = await this.db
      .update(paymentRefunds)
      .set({
        status: 'unknown',
        message: `answer lost: ${(err as Error).message}`.slice(0, 500),
        reconcileAfter: new Date(now.getTime() + refundReconcileDelaySeconds(0) * 1000),
      })
      .where(and(eq(paymentRefunds.id, id), inArray(paymentRefunds.status, ['pending', 'unknown'])))
      .returning()
    return row ?? (await this.get(id))!
  }

  /**
   * Records a provider's answer under the refund row's lock. Only a pending or unknown row moves;
   * a settled one keeps its status (a late or repeated answer changes nothing). When the answer
   * comes `later` (the reconciler, a notification) and settles the row, the orders side is told
   * in this same transaction.
   */
  private async record(
    id: string,
    answer: RefundStatusAnswer,
    cause: 'call' | 'later',
  ): Promise<PaymentRefundRow> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx.select().from(paymentRefunds).where(eq(paymentRefunds.id, id)).for('update')
      if (!row) throw new Error(`no refund ${id}`)
      if (row.status !== 'pending' && row.status !== 'unknown') return row
      const now = new Date(this.now())
      const final = answer.status === 'succeeded' || answer.status === 'failed'
      const count = cause === 'later' ? row.reconcileCount + 1 : row.reconcileCount
      const askPerson = answer.status === 'unknown' && answer.askPerson === true
      const [updated] = await tx
        .update(paymentRefunds)
        .set({
          status: answer.status,
          ...('how' in answer ? { how: answer.how } : {}),
          ...('amountMinor' in answer && answer.amountMinor !== undefined
            ? { amountMinor: Math.min(row.amountMinor, Math.max(0, answer.amountMinor)) }
            : {}),
          providerRefs: { ...row.providerRefs, ...answer.refs },
          message: answer.message?.slice(0, 500) ?? (final ? null : row.message),
          settledAt: final ? now : null,
          reconcileAfter:
            final || askPerson ? null : new Date(now.getTime() + refundReconcileDelaySeconds(count) * 1000),
          reconcileCount: count,
        })
        .where(eq(paymentRefunds.id, id))
        .returning()
      const hook = this.deps.payments.onRefundSettled
      if (final && cause === 'later' && hook)
        await hook(tx, {
          refundId: id,
          orderId: row.orderId,
          status: answer.status as 'succeeded' | 'failed',
          amountMinor: updated!.amountMinor,
        })
      return updated!
    })
  }

  /** Asks the provider what became of a pending or unknown refund, and records it. */
  async settle(refundId: string): Promise<PaymentRefundRow> {
    const row = await this.get(refundId)
    if (!row) throw new DomainError('not_found', 'That refund was not found.')
    if ((row.status !== 'pending' && row.status !== 'unknown') || !row.attemptId) return row
    const [attempt] = await this.db
      .select()
      .from(paymentAttempts)
      .where(eq(paymentAttempts.id, row.attemptId))
    const adapter = attempt ? this.deps.payments.adapters[attempt.method] : null
    if (!attempt || !adapter?.refundStatus) return row
    const ctx: RefundContext = {
      refundId: row.id,
      amountMinor: row.amountMinor,
      currency: row.currency as Currency,
      idempotencyKey: row.idempotencyKey,
      mayVoid: row.how === 'void',
      how: row.how === 'void' ? 'void' : 'refund',
      refs: row.providerRefs,
    }
    let answer: RefundStatusAnswer
    try {
      answer = await adapter.refundStatus(attemptContext(attempt), ctx)
    } catch (err) {
      answer = { status: 'unknown', refs: {}, message: `not reachable: ${(err as Error).message}` }
    }
    return this.record(row.id, answer, 'later')
  }

  /**
   * The `refund-reconcile` job's pass: every pending or unknown refund whose time has come,
   * claimed FOR UPDATE SKIP LOCKED under a lease, then asked about one by one. A pass that fails
   * for one refund leaves its lease to run out (the next pass tries again).
   */
  async reconcileDue(limit = 10, leaseMs = 120_000): Promise<PaymentRefundRow[]> {
    const now = new Date(this.now())
    const due = this.db
      .select({ id: paymentRefunds.id })
      .from(paymentRefunds)
      .where(
        and(
          isNotNull(paymentRefunds.reconcileAfter),
          lte(paymentRefunds.reconcileAfter, now),
          inArray(paymentRefunds.status, ['pending', 'unknown']),
        ),
      )
      .orderBy(asc(paymentRefunds.reconcileAfter))
      .limit(limit)
      .for('update', { skipLocked: true })
    const claimed = await this.db
      .update(paymentRefunds)
      .set({ reconcileAfter: new Date(now.getTime() + leaseMs) })
      .where(inArray(paymentRefunds.id, due))
      .returning({ id: paymentRefunds.id })
    const out: PaymentRefundRow[] = []
    for (const { id } of claimed) {
      try {
        out.push(await this.settle(id))
      } catch (err) {
        this.onReconcileError?.(id, err)
      }
    }
    return out
  }

  /** Told of a reconcile pass that failed for one refund (the app logs it). */
  onReconcileError: ((refundId: string, err: unknown) => void) | null = null

  /**
   * A verified provider notification naming a refund (Amazon IPN for a REFUND object, a PayPal
   * refund webhook): the ledger's row is asked about again (the body is never trusted for state).
   * False when no ledger row has that refund (it may be an unplaced order's give-back).
   */
  async notified(refs: { amazonRefundId?: string; paypalRefundId?: string }): Promise<boolean> {
    const match = refs.amazonRefundId
      ? { amazonRefundId: refs.amazonRefundId }
      : refs.paypalRefundId
        ? { paypalRefundId: refs.paypalRefundId }
        : null
    if (!match) return false
    const [row] = await this.db
      .select({ id: paymentRefunds.id })
      .from(paymentRefunds)
      .where(sql`${paymentRefunds.providerRefs} @> ${JSON.stringify(match)}::jsonb`)
      .limit(1)
    if (!row) return false
    await this.settle(row.id)
    return true
  }
}

/** The ledger as the orders side's money seam (the app, or its parts, give the dependencies). */
export function createOrderMoney(deps: RefundLedgerDeps): RefundLedger {
  return new RefundLedger(deps)
}

function checkInput(input: RefundInput): void {
  const key = keyProblem(input.idempotencyKey)
  if (key) throw new DomainError('invalid', key, { idempotencyKey: [key] })
  if (typeof input.orderId !== 'string' || !input.orderId)
    throw new DomainError('invalid', 'An order is required.', { orderId: ['An order is required.'] })
  if (typeof input.reason !== 'string' || !input.reason.trim())
    throw new DomainError('invalid', 'A reason is required.', { reason: ['A reason is required.'] })
  if (!input.actor || typeof input.actor.name !== 'string')
    throw new DomainError('invalid', 'Who asked for it is required.', { actor: ['Required.'] })
}

/**
 * What a credit note may cover: a purchase order's total. An order of another method without a
 * payment attempt has no money here to give back (a person refunds it at the provider).
 */
function creditable(order: OrderPayment): number {
  if (order.paymentMethod === 'purchase_order') return order.totalIncVat
  throw new DomainError('invalid', 'This order has no payment to refund here.')
}

/** What the captured (or authorised) attempt holds: the provider's confirmed amount first. */
function capturedOf(attempt: PaymentAttemptRow): { minor: number; currency: string } {
  return {
    minor: attempt.confirmedAmountMinor ?? attempt.amountMinor,
    currency: attempt.confirmedCurrency ?? attempt.currency,
  }
}

/** The same key again: the first refund, unless the key was used for another order or amount. */
function replay(row: PaymentRefundRow, orderId: string, amount: number | 'all'): RefundOutcome {
  if (row.orderId !== orderId || (amount !== 'all' && amount !== row.amountMinor)) {
    const message = 'This idempotency key was already used for another refund.'
    throw new DomainError('invalid', message, { idempotencyKey: [message] })
  }
  return outcomeOf(row)
}

/** A ledger row as the caller's outcome: an unknown one is pending (the reconciler finishes it). */
export function outcomeOf(row: PaymentRefundRow): RefundOutcome {
  const status = row.status === 'unknown' ? 'pending' : row.status
  const message =
    row.status === 'unknown'
      ? 'The provider has not confirmed this refund yet; it is being checked.'
      : (row.message ?? undefined)
  return {
    refundId: row.id,
    status,
    amountMinor: row.amountMinor,
    how: row.how,
    ...(message ? { message } : {}),
  }
}
