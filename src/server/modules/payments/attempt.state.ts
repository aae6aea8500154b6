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
 * `voided` is never a provider's answer to a payment: it is reached only by the resolution step
 * `given_back` below, when the money of an authorised or captured attempt whose order could not be
 * placed was given back (`PaymentService.voidUnclaimed`).
 *
 * Beside its state, a paid attempt has a resolution: what became of its order. It moves only by
 * the steps of `RESOLUTION_STEPS`, applied by `resolveAttempt` (PaymentService holds the row lock):
 *
 *   (none) ─┬─ claim ──────> order_placed ── order_failed ─┐
 *           ├─ refuse ─────> voiding <──────────────────────┘ (refuse, refund_pending: stays voiding)
 *           │                  ├─ given_back ──> voided (and the state becomes voided)
 *           │                  └─ ask_person ──> needs_attention ── claim ──> order_placed
 *           └─ ask_person ─> needs_attention
 *
 * `voided` is final; a step that repeats the current resolution changes nothing.
 */
import type { AttemptResolution, AttemptState, Outcome } from './payments.types.ts'

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

/** An attempt's resolution, or 'none' while no order claimed it and nothing was decided. */
export type ResolutionOf = AttemptResolution | 'none'

/**
 * The ways a resolution moves, and who takes each (all in PaymentService, under the row lock):
 * - `claim`: an order takes the paid (or settling) attempt as its payment (`claimAttemptForOrder`,
 *   inside the order's transaction);
 * - `refuse`: its order cannot be placed: the money is to be given back and no order may claim it
 *   any more (`markVoiding`); an attempt an order claimed first cannot be refused;
 * - `order_failed`: the claimed payment of a pending order settled for another amount: the order
 *   fails and the money is given back (`markVoiding` with `claimed`, in the settlement's transaction);
 * - `refund_pending`: the provider accepted the refund but finishes it later (`voidUnclaimed`);
 * - `given_back`: the provider voided or refunded it (`voidUnclaimed`): state and resolution voided;
 * - `ask_person`: the money cannot be given back here, or the provider cannot be asked what became
 *   of it (`voidUnclaimed`, `record` with an unknown answer that asks a person, `resolve`).
 */
export type ResolutionStep =
  'claim' | 'refuse' | 'order_failed' | 'refund_pending' | 'given_back' | 'ask_person'

interface ResolutionRule {
  to: AttemptResolution
  /** The resolutions the step may start from (repeating its own target changes nothing). */
  from: readonly ResolutionOf[]
  /** The attempt states the step needs: where the money is, or may be. */
  states: readonly AttemptState[]
}

/** Money taken or reserved, or still settling with the provider. */
const HELD: readonly AttemptState[] = ['authorised', 'captured', 'pending']

export const RESOLUTION_STEPS: Readonly<Record<ResolutionStep, ResolutionRule>> = {
  claim: { to: 'order_placed', from: ['none', 'order_placed', 'needs_attention'], states: HELD },
  refuse: { to: 'voiding', from: ['none', 'voiding'], states: HELD },
  order_failed: { to: 'voiding', from: ['order_placed'], states: ['authorised', 'captured'] },
  refund_pending: { to: 'voiding', from: ['voiding'], states: ['authorised', 'captured'] },
  given_back: { to: 'voided', from: ['voiding', 'voided'], states: ['authorised', 'captured', 'voided'] },
  ask_person: {
    to: 'needs_attention',
    from: ['none', 'voiding', 'needs_attention'],
    states: [...HELD, 'unknown'],
  },
}

export type ResolutionResult =
  | { ok: true; state: AttemptState; resolution: AttemptResolution; changed: boolean }
  | { ok: false; reason: string }

/** The state and resolution after `step`, or why the step may not be taken. */
export function resolveAttempt(
  current: { state: AttemptState; resolution: AttemptResolution | null },
  step: ResolutionStep,
): ResolutionResult {
  const rule = RESOLUTION_STEPS[step]
  const from: ResolutionOf = current.resolution ?? 'none'
  if (!rule.from.includes(from))
    return { ok: false, reason: `a payment whose resolution is ${from} cannot be ${step}` }
  if (!rule.states.includes(current.state))
    return { ok: false, reason: `a payment that is ${current.state} cannot be ${step}` }
  const state: AttemptState = step === 'given_back' ? 'voided' : current.state
  return {
    ok: true,
    state,
    resolution: rule.to,
    changed: state !== current.state || rule.to !== current.resolution,
  }
}
