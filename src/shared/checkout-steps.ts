/**
 * The checkout's step rules (spec checkout-and-account.md §4 "Checkout steps", §9) as one pure
 * transition function, driven by the Checkout page's useReducer. No React, no DOM: the page
 * passes what the rules look at (the chosen method, whether its wallet order exists, whether the
 * form is valid, whether the buyer is logged in) with every event.
 *
 * Besides the step numbers the state says where the keyboard focus belongs after the last
 * change: the new step's heading, or the first invalid field when validation stopped the buyer.
 * `n` grows with every such change, so the page moves focus even when the target is the same.
 */
import { CHECKOUT } from './checkout-text.ts'

export interface StepState {
  /** The open step, 1 to CHECKOUT.numberOfSteps. */
  current: number
  /** Completed-step count, 0 up to CHECKOUT.completedCeiling. */
  complete: number
  /** The form's validation messages are shown on every field, touched or not. */
  showErrors: boolean
  /**
   * Where the focus goes after the last change; `soft`: only when nothing else has it (the
   * page's own jump on load must not take the focus from a buyer who already started).
   */
  focus: { to: 'heading' | 'invalid'; step: number; soft: boolean; n: number } | null
}

export interface StepContext {
  /** The chosen payment method's id ('' when none is left). */
  provider: string
  /** The method is a wallet (PayPal, Amazon Pay): its order is made on step 2. */
  wallet: boolean
  /** The wallet's order exists (PayPal order id, Amazon order data). */
  walletOrder: boolean
  /** Contact, shipping and (when shown) billing are valid (§5; always true for wallets). */
  formValid: boolean
  loggedIn: boolean
}

export type StepEvent =
  /** Continue */
  | { type: 'continue' }
  /** A step's heading or an Edit link */
  | { type: 'open'; step: number }
  /** The jump 200 ms after load (§4); `deliveryViewed`: Amazon's delivery options were viewed */
  | { type: 'jump'; deliveryViewed?: boolean }
  /** Closing all steps; also what removing a failed payment method does */
  | { type: 'closeAll' }
  /** 'Not you? Log Out': all steps closed, the validation messages of the buyer gone */
  | { type: 'reset' }
  /** The wallet's order arrived; Amazon with its delivery options viewed goes on to step 3 */
  | { type: 'walletApproved'; toStep3: boolean }
  /** The server refused fields of `step`: it opens and the first invalid field is focused */
  | { type: 'fieldErrors'; step: number }
  /** The page shows a step again after an answer (a moved total: 3; PayPal re-approval: 2) */
  | { type: 'show'; step: number }

export const INITIAL_STEPS: StepState = { current: 1, complete: 0, showErrors: false, focus: null }

/** A step can be opened only if the completed-step count plus 1 is at least that step. */
export function canOpen(state: StepState, step: number): boolean {
  return step >= 1 && step <= CHECKOUT.numberOfSteps && state.complete + 1 >= step
}

/** Continue is offered only while steps remain. */
export function continueOffered(state: StepState): boolean {
  return state.current < CHECKOUT.numberOfSteps
}

/**
 * Continue is enabled on step 1 when a provider is chosen; on step 2 for PayPal and Amazon when
 * their order exists, otherwise when the form is valid.
 */
export function continueEnabled(state: StepState, ctx: StepContext): boolean {
  if (!continueOffered(state)) return false
  if (state.current === 1) return ctx.provider !== ''
  if (state.current === 2) return ctx.wallet ? ctx.walletOrder : ctx.formValid
  return true
}

/**
 * Where the page jumps 200 ms after load (§4): wallets to step 2 (Amazon to step 3 when its
 * delivery options were viewed); card and purchase order to step 2 only if logged in.
 */
export function jumpTarget(ctx: StepContext, deliveryViewed = false): number | null {
  if (!ctx.provider) return null
  if (ctx.wallet) return ctx.provider === 'amazon' && deliveryViewed && ctx.walletOrder ? 3 : 2
  return ctx.loggedIn ? 2 : null
}

/** Completing a step raises the completed count only while it is below the ceiling. */
function completeStep(state: StepState, step: number): number {
  if (state.complete >= CHECKOUT.completedCeiling) return state.complete
  return Math.min(CHECKOUT.completedCeiling, Math.max(state.complete + 1, step))
}

function focusOn(state: StepState, to: 'heading' | 'invalid', step: number, soft = false) {
  return { to, step, soft, n: (state.focus?.n ?? 0) + 1 }
}

/** Shows `step` with its heading focused, counting the steps before it as completed. */
function moveTo(state: StepState, step: number, soft = false): StepState {
  return {
    ...state,
    current: step,
    complete: Math.max(state.complete, Math.min(step - 1, CHECKOUT.completedCeiling)),
    focus: focusOn(state, 'heading', step, soft),
  }
}

/** Back to step 2 with every validation message shown and the first invalid field focused. */
function stopAtDetails(state: StepState): StepState {
  return {
    ...state,
    current: 2,
    complete: Math.max(state.complete, 1),
    showErrors: true,
    focus: focusOn(state, 'invalid', 2),
  }
}

export function stepTransition(state: StepState, event: StepEvent, ctx: StepContext): StepState {
  switch (event.type) {
    case 'continue': {
      if (!continueOffered(state)) return state
      const step = state.current
      if (step === 1 && !ctx.provider) return state
      if (step === 2 && ctx.wallet && !ctx.walletOrder)
        // PayPal and Amazon cannot pass step 2 before their order exists.
        return { ...state, focus: focusOn(state, 'invalid', 2) }
      if (step === 2 && !ctx.wallet && !ctx.formValid) return stopAtDetails(state)
      const next = Math.min(CHECKOUT.numberOfSteps, step + 1)
      return { ...moveTo(state, next), complete: completeStep(state, step) }
    }
    case 'open': {
      const step = event.step
      if (!canOpen(state, step)) return state
      if (step > 2 && ctx.wallet && !ctx.walletOrder) return moveTo(state, 2)
      if (step > 2 && !ctx.formValid) return stopAtDetails(state)
      return moveTo(state, step)
    }
    case 'jump': {
      const target = jumpTarget(ctx, event.deliveryViewed)
      if (target === null || state.current >= target) return state
      return moveTo(state, target, true)
    }
    case 'closeAll':
      return { ...state, current: 1, complete: 0, focus: focusOn(state, 'heading', 1) }
    case 'reset':
      return { current: 1, complete: 0, showErrors: false, focus: focusOn(state, 'heading', 1) }
    case 'walletApproved':
      return event.toStep3 ? moveTo(state, 3) : state
    case 'fieldErrors': {
      const step = Math.min(Math.max(1, event.step), CHECKOUT.numberOfSteps)
      return { ...moveTo(state, step), showErrors: true, focus: focusOn(state, 'invalid', step) }
    }
    case 'show':
      return moveTo(state, Math.min(Math.max(1, event.step), CHECKOUT.numberOfSteps))
  }
}

/** The page's reducer: each event carries the context it is judged in. */
export function stepsReducer(state: StepState, action: StepEvent & { ctx: StepContext }): StepState {
  return stepTransition(state, action, action.ctx)
}
