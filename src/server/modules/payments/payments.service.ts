/**
 * The payment orchestrator: owns the attempt rows and their state machine, the reconciler and
 * the notification intake. Adapters stay stateless; every provider call goes through here:
 *
 *   createAttempt (row written, state created)
 *   → begin(op) (the operation and its request are recorded BEFORE the call)
 *   → the adapter's call → record(outcome) (state moves only as attempt.state.ts allows)
 *
 * A time-out or 5xx leaves the attempt `unknown` with a reconcile time; reconcile() asks the
 * provider, which alone may resolve it (and repeats the lost operation with its same
 * idempotency key only when the provider shows it never happened).
 *
 * Concurrency: attempts of one order are created under a transaction-scoped advisory lock on the
 * order reference; state changes lock the attempt row (SELECT … FOR UPDATE). A partial unique
 * index makes a second successful attempt for one order impossible in the database.
 */
import { randomBytes, randomUUID } from 'node:crypto'
import { and, asc, eq, inArray, isNotNull, isNull, lte, or, sql } from 'drizzle-orm'
import type { Db, Tx } from '../../db/client.ts'
import {
  mayStartNewAttempt,
  resolveAttempt,
  transition,
  type ResolutionStep,
  UNSETTLED_STATES,
  FINAL_STATES,
  SUCCESS_STATES,
} from './attempt.state.ts'
import type { PaymentsConfig } from '../../config/payments.ts'
import { lockAttempt, STEP_TO, takeStep, writeResolution } from './attempt.resolution.ts'
import { PaymentError } from './payment-error.ts'
import {
  paymentAttempts,
  paymentNotifications,
  type AttemptResolution,
  type CheckoutSnapshot,
  type PaymentAttemptRow,
} from './payments.tables.ts'
import type { Currency, Outcome, ProviderMethod, ProviderRefs, RawNotification } from './payments.types.ts'
import type { AttemptContext, ProviderAdapter } from './providers/types.ts'
import type { RefundSettled } from './refunds.types.ts'

export type PaymentAttempt = PaymentAttemptRow
export { PaymentError } from './payment-error.ts'
export { claimAttemptForOrder } from './attempt.resolution.ts'

/**
 * The provider adapters, one per provider method (null: not configured). The concrete clients
 * live in their method's folder (modules/payment-methods/<method>/); the service needs only what
 * every adapter answers (reconcile, void, notifications).
 */
export type AdapterSet = { readonly [M in ProviderMethod]: ProviderAdapter | null }

/** Seconds until the next reconcile of an unknown attempt: 5 s, 30 s, 2 min, 10 min, then hourly. */
export function reconcileDelaySeconds(count: number): number {
  return [5, 30, 120, 600][count] ?? 3600
}

/** How long a `created` attempt (its provider call possibly in flight) blocks a new one. */
export const CREATED_IN_FLIGHT_MS = 60_000

/**
 * How long a paid attempt (authorised or captured) waits for its browser to place the order
 * before the reconciler places it from the order form kept with the attempt (or gives the money
 * back when it cannot be placed any more).
 */
export const UNCLAIMED_PAYMENT_GRACE_MS = 10 * 60_000

/** The checkout's answer to a paid attempt without an order (set by the checkout at start-up). */
export type UnclaimedPaymentResolver = (attempt: PaymentAttempt) => Promise<void>

/**
 * Told inside the transaction that records a provider's answer, when an attempt that an order
 * claimed moves on (a pending payment settles or fails): the orders side moves its order in the
 * same transaction. It may mark the attempt `voiding` (a settlement that does not match the order).
 */
export type ClaimedAttemptSettled = (tx: Tx, attempt: PaymentAttempt) => Promise<void>

export type NotificationResult = 'invalid' | 'duplicate' | 'no-attempt' | 'reconciled'

export function attemptContext(row: PaymentAttempt): AttemptContext {
  return {
    id: row.id,
    orderRef: row.orderRef,
    attemptNo: row.attemptNo,
    amountMinor: row.amountMinor,
    currency: row.currency,
    reference: row.reference,
    refs: row.providerRefs,
    lastOperation: row.lastOperation,
    pendingRequest: row.pendingRequest ?? null,
  }
}

export class PaymentService<A extends AdapterSet = AdapterSet> {
  /** Places (or gives back) a paid attempt's order after the grace period; null: nobody does. */
  unclaimedResolver: UnclaimedPaymentResolver | null = null
  /** Moves the order of a claimed attempt whose payment settled or failed (set by the checkout). */
  onClaimedSettled: ClaimedAttemptSettled | null = null
  /** Told when a pending or unknown refund of a placed order settles later (set by the orders side). */
  onRefundSettled: RefundSettled | null = null
  /** The refund ledger's notification intake (refunds.ts `notified`; set by the payments plugin). */
  refundNotified: ((refs: ProviderRefs) => Promise<boolean>) | null = null
  /** Told of a reconcile pass that failed for an attempt (the app logs it). */
  onReconcileError: ((attemptId: string, err: unknown) => void) | null = null

  constructor(
    protected readonly db: Db,
    readonly adapters: A,
    readonly mode: PaymentsConfig['mode'],
    private readonly now: () => number = Date.now,
  ) {}

  /** 'Test mode' notice at checkout: true when the providers are the simulators or sandboxes. */
  get testMode(): boolean {
    return this.mode !== 'live'
  }

  adapter(method: ProviderMethod): ProviderAdapter {
    const a = this.adapters[method]
    if (!a) throw new PaymentError('not_configured', `payment method ${method} is not configured`)
    return a
  }

  protected configured<M extends ProviderMethod>(method: M): NonNullable<A[M]> {
    return this.adapter(method) as NonNullable<A[M]>
  }

  async get(id: string): Promise<PaymentAttempt | null> {
    const [row] = await this.db.select().from(paymentAttempts).where(eq(paymentAttempts.id, id)).limit(1)
    return row ?? null
  }

  /** The attempt a cross-site return (3-D Secure) refers to, by its opaque reference. */
  async byReference(reference: string): Promise<PaymentAttempt | null> {
    const [row] = await this.db
      .select()
      .from(paymentAttempts)
      .where(eq(paymentAttempts.reference, reference))
      .limit(1)
    return row ?? null
  }

  async forOrder(orderRef: string): Promise<PaymentAttempt[]> {
    return this.db
      .select()
      .from(paymentAttempts)
      .where(eq(paymentAttempts.orderRef, orderRef))
      .orderBy(asc(paymentAttempts.attemptNo))
  }

  /**
   * A new attempt for an order, written before any provider call. Refused while another attempt
   * of the order has succeeded (already_paid) or may still succeed (unsettled: reconcile first).
   */
  async createAttempt(input: {
    siteId: number
    orderRef: string
    method: ProviderMethod
    amountMinor: number
    currency: Currency
    /** The checked order form, to place the order if the browser never comes back */
    checkout?: CheckoutSnapshot | null
  }): Promise<PaymentAttempt> {
    if (!Number.isSafeInteger(input.amountMinor) || input.amountMinor <= 0)
      throw new RangeError('amount must be a positive integer of minor units')
    this.adapter(input.method)
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`payment:${input.orderRef}`}))`)
      const existing = await tx
        .select()
        .from(paymentAttempts)
        .where(eq(paymentAttempts.orderRef, input.orderRef))
        .orderBy(asc(paymentAttempts.attemptNo))
      if (!mayStartNewAttempt(existing.map((a) => a.state))) {
        const blocking =
          existing.find((a) => a.state === 'authorised' || a.state === 'captured') ??
          existing.find((a) => UNSETTLED_STATES.has(a.state) && a.state !== 'requires_action')
        throw new PaymentError(
          blocking && (blocking.state === 'authorised' || blocking.state === 'captured')
            ? 'already_paid'
            : 'unsettled',
          'this order has a payment that succeeded or is still being confirmed',
          blocking,
        )
      }
      // An attempt whose first provider call may be in flight (another tab, a double click)
      // blocks a second one for a minute: two calls could both take the money.
      const inFlight = existing.find(
        (a) => a.state === 'created' && this.now() - a.createdAt.getTime() < CREATED_IN_FLIGHT_MS,
      )
      if (inFlight)
        throw new PaymentError('unsettled', 'another payment of this order is in progress', inFlight)
      const [row] = await tx
        .insert(paymentAttempts)
        .values({
          id: randomUUID(),
          siteId: input.siteId,
          orderRef: input.orderRef,
          attemptNo: (existing.at(-1)?.attemptNo ?? 0) + 1,
          method: input.method,
          amountMinor: input.amountMinor,
          currency: input.currency,
          reference: randomBytes(16).toString('base64url'),
          checkout: input.checkout ?? null,
          history: [],
        })
        .returning()
      return row!
    })
  }

  /** Records the operation (and the request to repeat it) before the provider is called. */
  async begin(
    id: string,
    operation: string,
    pendingRequest: Record<string, unknown> | null = null,
  ): Promise<PaymentAttempt> {
    const [row] = await this.db
      .update(paymentAttempts)
      .set({ lastOperation: operation, pendingRequest, updatedAt: new Date(this.now()) })
      .where(eq(paymentAttempts.id, id))
      .returning()
    if (!row) throw new PaymentError('not_found', 'payment attempt not found')
    return row
  }

  /** Merges provider references learnt outside a state change (PayPal order id, Amazon session id). */
  async addRefs(id: string, refs: ProviderRefs): Promise<PaymentAttempt> {
    const [row] = await this.db
      .update(paymentAttempts)
      .set({
        providerRefs: sql`${paymentAttempts.providerRefs} || ${JSON.stringify(refs)}::jsonb`,
        updatedAt: new Date(this.now()),
      })
      .where(eq(paymentAttempts.id, id))
      .returning()
    if (!row) throw new PaymentError('not_found', 'payment attempt not found')
    return row
  }

  /** Keeps the checked order form with the attempt before a call that may take the money. */
  async keepCheckout(id: string, checkout: CheckoutSnapshot): Promise<void> {
    await this.db
      .update(paymentAttempts)
      .set({ checkout })
      .where(and(eq(paymentAttempts.id, id), isNull(paymentAttempts.resolution)))
  }

  /**
   * Records what became of a paid attempt's order (see `resolution`), as a step of the declared
   * resolution machine (attempt.state.ts) under the row lock: the grace-period reconcile stops
   * (but `voiding` keeps a lease, so a crash in the middle is taken up again). A step the machine
   * refuses changes nothing and throws `invalid_state`.
   */
  async resolve(
    id: string,
    resolution: AttemptResolution,
    note: string,
    executor: Db | Tx = this.db,
  ): Promise<PaymentAttempt> {
    const step = STEP_TO[resolution]
    const run = async (tx: Tx) => {
      const row = await lockAttempt(tx, id)
      const r = resolveAttempt(row, step)
      if (!r.ok) throw new PaymentError('invalid_state', r.reason, row)
      return writeResolution(tx, new Date(this.now()), row, step, r, note)
    }
    return executor === this.db ? this.db.transaction(run) : run(executor as Tx)
  }

  /**
   * Placement refused after the money was (or may be) taken: the attempt is marked `voiding` so
   * no order can claim it any more (the `refuse` step, under the row lock: an order's claim of
   * the same row waits for it, then finds it voiding). False when an order claimed it first, or
   * it holds no money. The caller then gives the money back (`voidUnclaimed`); a pending payment
   * is given back by the reconciler once it settles.
   *
   * `claimed`: the attempt is a placed order's whose payment settled for another amount (the
   * `order_failed` step, inside the settlement's transaction `executor`): given back at once.
   */
  async markVoiding(
    id: string,
    note: string,
    opts: { claimed?: boolean; executor?: Tx } = {},
  ): Promise<boolean> {
    const step: ResolutionStep = opts.claimed ? 'order_failed' : 'refuse'
    const run = async (tx: Tx) => {
      const [row] = await tx.select().from(paymentAttempts).where(eq(paymentAttempts.id, id)).for('update')
      if (!row) return false
      const r = resolveAttempt(row, step)
      if (!r.ok) return false
      await writeResolution(tx, new Date(this.now()), row, step, r, note)
      return true
    }
    return opts.executor ? run(opts.executor) : this.db.transaction(run)
  }

  /**
   * Gives back the money of a paid attempt whose order cannot be placed (the caller has marked it
   * `voiding`, so no order can claim it any more). A provider without a void, or one that refuses
   * it, leaves the attempt `needs_attention` for a person.
   *
   * The row stays locked from the read to the write, the provider's call included (bounded by the
   * adapter's time-out): two give-backs of one attempt at once (the browser's refusal and the
   * reconciler, two instances) are taken one after the other, and the second finds it voided
   * instead of asking the provider again (ADR 0165).
   */
  async voidUnclaimed(id: string, reason: string): Promise<PaymentAttempt> {
    return this.db.transaction(async (tx) => {
      const row = await lockAttempt(tx, id)
      if (row.state === 'voided') return row
      // Still settling with the provider: the reconciler gives it back once it has settled.
      if (row.state === 'pending') return row
      const allowed = resolveAttempt(row, 'given_back')
      if (!allowed.ok) throw new PaymentError('invalid_state', allowed.reason, row)
      const adapter: ProviderAdapter | null = this.adapters[row.method]
      if (!adapter?.void)
        return takeStep(
          tx,
          new Date(this.now()),
          row,
          'ask_person',
          `${reason}; ${row.method} cannot void here`,
        )
      // A time-out, a 5xx or NotYetError (still settling) throws: nothing is written and the
      // reconciler tries again (the provider answers a repeat with the same idempotency key).
      const result = await adapter.void(attemptContext(row))
      if (!result.ok)
        return takeStep(tx, new Date(this.now()), row, 'ask_person', `${reason}; ${result.message}`)
      const refs = result.refs
        ? sql`${paymentAttempts.providerRefs} || ${JSON.stringify(result.refs)}::jsonb`
        : undefined
      if (result.how === 'refund_pending') {
        // Accepted, finished later: still `voiding`; the next pass asks again with the same key
        // (the provider answers the first refund) until it says the money is back.
        return takeStep(tx, new Date(this.now()), row, 'refund_pending', `${reason}; refund pending`, refs)
      }
      return takeStep(tx, new Date(this.now()), row, 'given_back', reason, refs)
    })
  }

  /** Applies a provider's outcome under a row lock; an impossible transition changes nothing. */
  async record(id: string, cause: string, outcome: Outcome): Promise<PaymentAttempt> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx.select().from(paymentAttempts).where(eq(paymentAttempts.id, id)).for('update')
      if (!row) throw new PaymentError('not_found', 'payment attempt not found')
      const t = transition(row.state, outcome)
      // A final attempt told its own state again (a replayed notification, or two reconcile
      // passes that both found it unsettled) stays as it is, unless the answer states an amount
      // where the provider's earlier answer did not.
      const learnsAmount =
        'confirmed' in outcome && outcome.confirmed !== null && row.confirmedAmountMinor === null
      if (t.ok && !t.changed && FINAL_STATES.has(row.state) && !learnsAmount) return row
      const now = new Date(this.now())
      const refs = { ...row.providerRefs, ...outcome.refs }
      if (!t.ok) {
        return (
          await tx
            .update(paymentAttempts)
            .set({
              history: [
                ...row.history,
                {
                  at: now.toISOString(),
                  from: row.state,
                  to: row.state,
                  cause: `${cause} (ignored: ${outcome.status})`,
                },
              ],
            })
            .where(eq(paymentAttempts.id, id))
            .returning()
        )[0]!
      }
      const unknown = t.state === 'unknown'
      const count = unknown ? row.reconcileCount + (cause === 'reconcile' ? 1 : 0) : row.reconcileCount
      const reconcileAfter =
        t.state === 'unknown'
          ? new Date(now.getTime() + reconcileDelaySeconds(cause === 'reconcile' ? count : 0) * 1000)
          : t.state === 'pending'
            ? new Date(now.getTime() + 60_000)
            : SUCCESS_STATES.has(t.state) && row.resolution === 'voiding'
              ? // Settled after its order was refused: give it back now.
                now
              : SUCCESS_STATES.has(t.state) && row.resolution === null
                ? // Paid: if no order claims it within the grace period, the reconciler resolves it.
                  t.changed
                  ? new Date(now.getTime() + UNCLAIMED_PAYMENT_GRACE_MS)
                  : row.reconcileAfter
                : null
      const code = 'code' in outcome ? outcome.code : null
      const [updated] = await tx
        .update(paymentAttempts)
        .set({
          state: t.state,
          providerRefs: refs,
          // The provider's word on the amount: kept from the answer that moved the attempt (a
          // later answer without an amount keeps what an earlier one said).
          ...('confirmed' in outcome && outcome.confirmed
            ? {
                confirmedAmountMinor: outcome.confirmed.amountMinor,
                confirmedCurrency: outcome.confirmed.currency,
              }
            : {}),
          nextAction:
            outcome.status === 'requires_action'
              ? // Paya's "not submitted yet" keeps the signed form URL already handed out.
                outcome.action.type === 'hostedForm' &&
                !outcome.action.url &&
                row.nextAction?.type === 'hostedForm'
                ? row.nextAction
                : outcome.action
              : t.state === 'requires_action'
                ? row.nextAction
                : null,
          // Money may have been taken and the provider cannot be asked: flagged for a person.
          ...(outcome.status === 'unknown' &&
          outcome.askPerson &&
          row.resolution === null &&
          resolveAttempt({ state: t.state, resolution: null }, 'ask_person').ok
            ? {
                resolution: 'needs_attention' as const,
                resolutionNote: `${outcome.code}: check the provider's records and refund or place the order`,
              }
            : {}),
          lastCode: code ?? (t.changed ? null : row.lastCode),
          lastMessage:
            'message' in outcome ? outcome.message.slice(0, 500) : t.changed ? null : row.lastMessage,
          reconcileAfter,
          reconcileCount: count,
          // A settled attempt needs no request kept for repeating.
          ...(FINAL_STATES.has(t.state) || t.state === 'authorised' ? { pendingRequest: null } : {}),
          history:
            t.changed || code
              ? [
                  ...row.history,
                  { at: now.toISOString(), from: row.state, to: t.state, cause, ...(code ? { code } : {}) },
                ]
              : row.history,
          updatedAt: now,
        })
        .where(eq(paymentAttempts.id, id))
        .returning()
      // An order waits for this payment: it moves on in this same transaction.
      if (t.changed && row.resolution === 'order_placed' && this.onClaimedSettled)
        await this.onClaimedSettled(tx, updated!)
      return updated!
    })
  }

  /** begin → call → record, the shape of every provider operation. */
  async perform(
    id: string,
    operation: string,
    call: (ctx: AttemptContext) => Promise<Outcome>,
    pendingRequest: Record<string, unknown> | null = null,
  ): Promise<PaymentAttempt> {
    const current = await this.get(id)
    if (!current) throw new PaymentError('not_found', 'payment attempt not found')
    if (FINAL_STATES.has(current.state) || current.state === 'authorised') {
      throw new PaymentError('invalid_state', `the attempt is ${current.state}`, current)
    }
    const row = await this.begin(id, operation, pendingRequest)
    const outcome = await call(attemptContext(row))
    return this.record(id, operation, outcome)
  }

  /** Asks the provider what became of an attempt (unknown, pending, or after a notification). */
  async reconcile(id: string): Promise<PaymentAttempt> {
    const row = await this.get(id)
    if (!row) throw new PaymentError('not_found', 'payment attempt not found')
    if (FINAL_STATES.has(row.state) || row.state === 'created') return row
    const outcome = await this.adapter(row.method).reconcile(attemptContext(row))
    return this.record(id, 'reconcile', outcome)
  }

  /**
   * The reconciler's pass (the payments-reconcile job): every attempt whose reconcile time has
   * come. The rows are claimed first (FOR UPDATE SKIP LOCKED, then a lease of `leaseMs`), so two
   * instances never ask the provider about the same attempt at once; the answer then sets the
   * next reconcile time (or clears it), and a pass that failed leaves the lease to run out.
   */
  async reconcileDue(limit = 20, leaseMs = 120_000): Promise<PaymentAttempt[]> {
    const now = new Date(this.now())
    const due = this.db
      .select({ id: paymentAttempts.id })
      .from(paymentAttempts)
      .where(and(isNotNull(paymentAttempts.reconcileAfter), lte(paymentAttempts.reconcileAfter, now)))
      .orderBy(asc(paymentAttempts.reconcileAfter))
      .limit(limit)
      .for('update', { skipLocked: true })
    const claimed = await this.db
      .update(paymentAttempts)
      .set({ reconcileAfter: new Date(now.getTime() + leaseMs) })
      .where(inArray(paymentAttempts.id, due))
      .returning({ id: paymentAttempts.id })
    const out: PaymentAttempt[] = []
    for (const { id } of claimed) {
      try {
        const row = await this.get(id)
        if (row && SUCCESS_STATES.has(row.state)) {
          // Paid and its grace period over: the checkout places its order or gives it back.
          if (!this.unclaimedResolver) {
            await this.db
              .update(paymentAttempts)
              .set({ reconcileAfter: null })
              .where(eq(paymentAttempts.id, id))
            continue
          }
          await this.unclaimedResolver(row)
          out.push((await this.get(id))!)
          continue
        }
        out.push(await this.reconcile(id))
      } catch (err) {
        // The provider could not be asked this time: the lease runs out and the next pass retries.
        this.onReconcileError?.(id, err)
      }
    }
    return out
  }

  /**
   * A provider notification: verify, de-duplicate by event id, then ask the provider again
   * (the body is never trusted for state). A replay answers 'duplicate' and changes nothing.
   */
  async handleNotification(
    method: 'paya' | 'paypal' | 'amazon',
    raw: RawNotification,
  ): Promise<NotificationResult> {
    const adapter = this.adapters[method]
    const verified = adapter?.verifyNotification ? await adapter.verifyNotification(raw) : null
    if (!verified?.eventId) return 'invalid'
    const [inserted] = await this.db
      .insert(paymentNotifications)
      .values({
        provider: method,
        eventId: verified.eventId.slice(0, 300),
        kind: verified.kind.slice(0, 100),
      })
      .onConflictDoNothing()
      .returning({ id: paymentNotifications.id })
    if (!inserted) return 'duplicate'
    // A refund of a placed order (the refund ledger's row): asked about again there.
    const refundSettled =
      (verified.refs.amazonRefundId || verified.refs.paypalRefundId) &&
      (await this.refundNotified?.(verified.refs).catch(async (err: unknown) => {
        // Not processed: forgotten, so the provider's next delivery is processed, not a duplicate.
        await this.db.delete(paymentNotifications).where(eq(paymentNotifications.id, inserted.id))
        throw err
      }))
    if (refundSettled) {
      await this.db
        .update(paymentNotifications)
        .set({ result: 'refund reconciled', processedAt: new Date(this.now()) })
        .where(eq(paymentNotifications.id, inserted.id))
      return 'reconciled'
    }
    const conditions = Object.entries(verified.refs)
      .filter(([, v]) => typeof v === 'string' && v)
      .map(([k, v]) => sql`${paymentAttempts.providerRefs} @> ${JSON.stringify({ [k]: v })}::jsonb`)
    const [attempt] = conditions.length
      ? await this.db
          .select()
          .from(paymentAttempts)
          .where(and(eq(paymentAttempts.method, method), or(...conditions)))
          .limit(1)
      : []
    let result: NotificationResult = 'no-attempt'
    let note = 'no-attempt'
    if (attempt?.state === 'created') {
      // Our own call to the provider is still in flight: let the provider deliver again later.
      await this.db.delete(paymentNotifications).where(eq(paymentNotifications.id, inserted.id))
      throw new PaymentError('invalid_state', 'the attempt has a provider call in flight')
    }
    if (attempt) {
      const after = await this.reconcile(attempt.id)
      result = 'reconciled'
      note = `reconciled: ${after.state}`
    }
    await this.db
      .update(paymentNotifications)
      .set({ attemptId: attempt?.id ?? null, result: note, processedAt: new Date(this.now()) })
      .where(eq(paymentNotifications.id, inserted.id))
    return result
  }
}
