/**
 * The resolution steps of a paid attempt (attempt.state.ts `RESOLUTION_STEPS`) as database
 * writes: each on a row the caller's transaction holds with SELECT … FOR UPDATE (`lockAttempt`),
 * and only as `resolveAttempt` allows. PaymentService (resolve, markVoiding, voidUnclaimed) and
 * the order's placement (`claimAttemptForOrder`) take them; nothing else writes a resolution.
 */
import { and, eq, type SQL } from 'drizzle-orm'
import type { Tx } from '../../db/client.ts'
import { resolveAttempt, type ResolutionResult, type ResolutionStep } from './attempt.state.ts'
import { PaymentError } from './payment-error.ts'
import { paymentAttempts, type PaymentAttemptRow as PaymentAttempt } from './payments.tables.ts'
import type { AttemptResolution } from './payments.types.ts'

/**
 * Inside the order's transaction: the paid attempt becomes this order's, or the order is refused.
 * The `claim` step of the resolution machine under the row lock: null when the attempt is not (or
 * no longer) usable: not paid, paid for another basket, or its money is being (or was) given back. The claimed row is returned with
 * the provider's confirmed amount, which placement compares with the re-priced basket.
 */
export async function claimAttemptForOrder(
  tx: Tx,
  attemptId: string,
  orderRef: string,
  orderNumber: number,
): Promise<PaymentAttempt | null> {
  const [row] = await tx
    .select()
    .from(paymentAttempts)
    .where(and(eq(paymentAttempts.id, attemptId), eq(paymentAttempts.orderRef, orderRef)))
    .for('update')
  if (!row || !resolveAttempt(row, 'claim').ok) return null
  const [claimed] = await tx
    .update(paymentAttempts)
    .set({
      resolution: 'order_placed',
      resolutionNote: `order ${orderNumber}`,
      checkout: null,
      // A pending payment is still reconciled with its provider; a paid one needs nothing more.
      reconcileAfter: row.state === 'pending' ? row.reconcileAfter : null,
    })
    .where(eq(paymentAttempts.id, attemptId))
    .returning()
  return claimed ?? null
}

/** The attempt, locked until the end of the transaction (SELECT … FOR UPDATE). */
export async function lockAttempt(tx: Tx, id: string): Promise<PaymentAttempt> {
  const [row] = await tx.select().from(paymentAttempts).where(eq(paymentAttempts.id, id)).for('update')
  if (!row) throw new PaymentError('not_found', 'payment attempt not found')
  return row
}

/** The step that reaches each resolution, for `resolve`'s callers that name the resolution. */
export const STEP_TO: Record<AttemptResolution, ResolutionStep> = {
  order_placed: 'claim',
  voiding: 'refuse',
  voided: 'given_back',
  needs_attention: 'ask_person',
}

/** A resolution step on a row the transaction holds locked; refused: `invalid_state`. */
export async function takeStep(
  tx: Tx,
  now: Date,
  row: PaymentAttempt,
  step: ResolutionStep,
  note: string,
  providerRefs?: SQL,
): Promise<PaymentAttempt> {
  const r = resolveAttempt(row, step)
  if (!r.ok) throw new PaymentError('invalid_state', r.reason, row)
  return writeResolution(tx, now, row, step, r, note, providerRefs)
}

/** Writes what `resolveAttempt` decided, with its history entry and the reconcile time it needs. */
export async function writeResolution(
  tx: Tx,
  now: Date,
  row: PaymentAttempt,
  step: ResolutionStep,
  r: Extract<ResolutionResult, { ok: true }>,
  note: string,
  providerRefs?: SQL,
): Promise<PaymentAttempt> {
  const reconcileAfter =
    step === 'refund_pending'
      ? new Date(now.getTime() + 10 * 60_000)
      : step === 'order_failed'
        ? now
        : r.resolution === 'voiding'
          ? new Date(now.getTime() + 120_000)
          : null
  const cause = step === 'given_back' ? 'void' : `resolution: ${r.resolution}`
  const [updated] = await tx
    .update(paymentAttempts)
    .set({
      state: r.state,
      resolution: r.resolution,
      resolutionNote: note.slice(0, 500),
      ...(providerRefs ? { providerRefs } : {}),
      // The kept order form goes once nothing can place the order from it any more.
      ...(r.resolution === 'voided' || r.resolution === 'order_placed' ? { checkout: null } : {}),
      reconcileAfter,
      // The refund still pending is the same give-back: its history says so once.
      ...(step === 'refund_pending'
        ? {}
        : { history: [...row.history, { at: now.toISOString(), from: row.state, to: r.state, cause }] }),
      updatedAt: now,
    })
    .where(eq(paymentAttempts.id, row.id))
    .returning()
  return updated!
}
