/**
 * The payment attempt state machine, pure (no clock, no database). An attempt starts `created`
 * (written before any provider call) and moves only by an Outcome a provider gave:
 *
 *   created ─┬─> requires_action ─┬─> authorised ──> captured
 *            │                    ├─> captured
 *            ├─> pending ─────────┼─> declined
 *            └─> unknown ─────────┴─> failed
 *
 * `unknown` (time-out, 5xx) is left only by asking the provider (the reconciler). Captured,
 * declined, failed and voided are final: a late or replayed answer cannot reopen them.
 * `voided` is never a provider's answer to a payment: the reconciler gave back the money of an
 * authorised or captured attempt whose order could not be placed (`PaymentService.voidUnclaimed`).
 */
import type { AttemptState, Outcome } from './payments.types.ts'

export const FINAL_STATES: ReadonlySet<AttemptState> = new Set(['captured', 'declined', 'failed', 'voided'])
/** The money was (or may have been) taken or reserved: no other attempt may start for the order. */
export const SUCCESS_STATES: ReadonlySet<AttemptState> = new Set(['authorised', 'captured'])
/** The provider may still finish the payment: the order must wait for reconciliation, not retry. */
export const UNSETTLED_STATES: ReadonlySet<AttemptState> = new Set(['requires_action', 'pending', 'unknown'])

export const TRANSITIONS: Readonly<Record<AttemptState, readonly AttemptState[]>> = {
  created: ['requires_action', 'authorised', 'captured', 'pending', 'declined', 'failed', 'unknown'],
  requires_action: ['requires_action', 'authorised', 'captured', 'pending', 'declined', 'failed', 'unknown'],
  unknown: ['unknown', 'requires_action', 'authorised', 'captured', 'pending', 'declined', 'failed'],
  pending: ['pending', 'authorised', 'captured', 'declined', 'failed'],
  authorised: ['authorised', 'captured'],
  captured: ['captured'],
  declined: ['declined'],
  failed: ['failed'],
  voided: ['voided'],
}

export type TransitionResult =
  { ok: true; state: AttemptState; changed: boolean } | { ok: false; reason: string }

/**
 * The state after `outcome`. An `unknown` answer never downgrades what is already known
 * (pending, authorised): a reconcile call that timed out teaches nothing.
 */
export function transition(from: AttemptState, outcome: Outcome): TransitionResult {
  const to = outcome.status
  if (to === from) return { ok: true, state: from, changed: false }
  if (to === 'unknown' && (from === 'pending' || SUCCESS_STATES.has(from) || FINAL_STATES.has(from))) {
    return { ok: true, state: from, changed: false }
  }
  if (!TRANSITIONS[from].includes(to)) {
    return { ok: false, reason: `an attempt that is ${from} cannot become ${to}` }
  }
  return { ok: true, state: to, changed: true }
}

/** May a new attempt be started for an order whose attempts are in these states? */
export function mayStartNewAttempt(states: readonly AttemptState[]): boolean {
  return !states.some((s) => SUCCESS_STATES.has(s) || s === 'pending' || s === 'unknown')
}
