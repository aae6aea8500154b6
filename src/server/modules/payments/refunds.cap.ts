/**
 * The arithmetic of the refund ledger, kept pure so it is tested on its own (refunds.cap.test.ts):
 * what counts against the cap, what is left to give back, and when the reconciler asks again.
 */
import type { RefundStatus } from './refunds.types.ts'

/**
 * Statuses whose amount is (or may be) gone from the payment: a pending refund may still
 * succeed and an unknown one may already have; only a failed one gave nothing back.
 */
export const COUNTED_STATUSES: ReadonlySet<RefundStatus> = new Set(['succeeded', 'pending', 'unknown'])

/** What is still refundable of `capturedMinor` after the ledger's rows (never below zero). */
export function refundableMinor(
  capturedMinor: number,
  rows: readonly { status: RefundStatus; amountMinor: number }[],
): number {
  const counted = rows.filter((r) => COUNTED_STATUSES.has(r.status)).reduce((s, r) => s + r.amountMinor, 0)
  return Math.max(0, capturedMinor - counted)
}

/** True when nothing was (or may have been) given back yet: a void may still cover everything. */
export function nothingGivenBack(rows: readonly { status: RefundStatus }[]): boolean {
  return !rows.some((r) => COUNTED_STATUSES.has(r.status))
}

/**
 * Seconds until the reconciler asks about a pending or unknown refund again: 10 s, 1 min, 5 min,
 * 30 min, then hourly (a PayPal eCheck refund may take days; Amazon's take minutes to hours).
 */
export function refundReconcileDelaySeconds(count: number): number {
  return [10, 60, 300, 1800][count] ?? 3600
}

/** A caller's amount: a positive integer of minor units, or the reason it is not. */
export function amountProblem(amountMinor: unknown): string | null {
  if (typeof amountMinor !== 'number' || !Number.isSafeInteger(amountMinor))
    return 'The amount must be a whole number of pence (or cents).'
  if (amountMinor <= 0) return 'The amount must be more than zero.'
  return null
}

/** A caller's idempotency key: 1–200 printable characters. */
export function keyProblem(key: unknown): string | null {
  if (typeof key !== 'string' || key.length === 0) return 'An idempotency key is required.'
  if (key.length > 200 || !/^[\x21-\x7e]+$/.test(key))
    return 'The idempotency key must be 1 to 200 printable characters without spaces.'
  return null
}
