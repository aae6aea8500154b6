import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { CHECKOUT } from './checkout-text.ts'
import {
  canOpen,
  continueEnabled,
  continueOffered,
  INITIAL_STEPS,
  jumpTarget,
  stepTransition,
  type StepContext,
  type StepEvent,
  type StepState,
} from './checkout-steps.ts'

const card: StepContext = {
  provider: 'sagepay',
  wallet: false,
  walletOrder: false,
  formValid: true,
  loggedIn: false,
}
const paypal: StepContext = { ...card, provider: 'paypal', wallet: true, formValid: true }
const at = (current: number, complete: number, over: Partial<StepState> = {}): StepState => ({
  ...INITIAL_STEPS,
  current,
  complete,
  ...over,
})
const run = (events: StepEvent[], ctx: StepContext, from: StepState = INITIAL_STEPS) =>
  events.reduce((s, e) => stepTransition(s, e, ctx), from)

describe('checkout steps: opening a step', () => {
  it('opens a step only when the completed count plus one reaches it', () => {
    expect(canOpen(at(1, 0), 1)).toBe(true)
    expect(canOpen(at(1, 0), 2)).toBe(false)
    expect(canOpen(at(2, 1), 2)).toBe(true)
    expect(canOpen(at(2, 1), 3)).toBe(false)
    expect(stepTransition(at(1, 0), { type: 'open', step: 3 }, card)).toEqual(at(1, 0))
  })

  it('sends the buyer back to step 2 with every message shown when a later step is opened on an invalid form', () => {
    const s = stepTransition(at(2, 2), { type: 'open', step: 3 }, { ...card, formValid: false })
    expect(s.current).toBe(2)
    expect(s.showErrors).toBe(true)
    expect(s.focus).toMatchObject({ to: 'invalid', step: 2 })
  })

  it('keeps PayPal on step 2 until its order exists', () => {
    expect(stepTransition(at(2, 2), { type: 'open', step: 3 }, paypal).current).toBe(2)
    expect(
      stepTransition(at(2, 2), { type: 'open', step: 3 }, { ...paypal, walletOrder: true }).current,
    ).toBe(3)
  })

  it('moves the focus to the opened step’s heading', () => {
    const s = stepTransition(at(3, 2), { type: 'open', step: 1 }, card)
    expect(s.current).toBe(1)
    expect(s.focus).toMatchObject({ to: 'heading', step: 1, soft: false })
  })
})

describe('checkout steps: Continue', () => {
  it('is enabled on step 1 only when a provider is chosen', () => {
    expect(continueEnabled(at(1, 0), card)).toBe(true)
    expect(continueEnabled(at(1, 0), { ...card, provider: '' })).toBe(false)
    expect(stepTransition(at(1, 0), { type: 'continue' }, { ...card, provider: '' })).toEqual(at(1, 0))
  })

  it('is enabled on step 2 for a wallet when its order exists, otherwise when the form is valid', () => {
    expect(continueEnabled(at(2, 1), paypal)).toBe(false)
    expect(continueEnabled(at(2, 1), { ...paypal, walletOrder: true })).toBe(true)
    expect(continueEnabled(at(2, 1), card)).toBe(true)
    expect(continueEnabled(at(2, 1), { ...card, formValid: false })).toBe(false)
  })

  it('is not offered on the last step', () => {
    expect(continueOffered(at(3, 2))).toBe(false)
    expect(stepTransition(at(3, 2), { type: 'continue' }, card)).toEqual(at(3, 2))
  })

  it('on an invalid step 2 stays there, shows every message and focuses the first invalid field', () => {
    const s = stepTransition(at(2, 1), { type: 'continue' }, { ...card, formValid: false })
    expect(s).toMatchObject({ current: 2, complete: 1, showErrors: true })
    expect(s.focus).toMatchObject({ to: 'invalid', step: 2 })
  })

  it('walks 1 → 2 → 3, completing each step and focusing each new heading', () => {
    const one = stepTransition(INITIAL_STEPS, { type: 'continue' }, card)
    expect(one).toMatchObject({ current: 2, complete: 1, focus: { to: 'heading', step: 2, n: 1 } })
    const two = stepTransition(one, { type: 'continue' }, card)
    expect(two).toMatchObject({ current: 3, complete: 2, focus: { to: 'heading', step: 3, n: 2 } })
  })

  it('raises the completed count only while it is below the ceiling', () => {
    const ceiling = CHECKOUT.completedCeiling
    const s = stepTransition(at(1, ceiling), { type: 'continue' }, card)
    expect(s.complete).toBe(ceiling)
    // Going back and on again counts each completion, up to the ceiling.
    const again = run(
      [{ type: 'continue' }, { type: 'open', step: 1 }, { type: 'continue' }, { type: 'open', step: 1 }],
      card,
    )
    expect(again.complete).toBe(2)
  })
})

describe('checkout steps: the jump 200 ms after load', () => {
  it('takes wallets to step 2, and card or purchase order only when logged in', () => {
    expect(jumpTarget(paypal)).toBe(2)
    expect(jumpTarget({ ...paypal, provider: 'amazon' })).toBe(2)
    expect(jumpTarget({ ...paypal, provider: 'amazon', walletOrder: true }, true)).toBe(3)
    expect(jumpTarget(card)).toBeNull()
    expect(jumpTarget({ ...card, loggedIn: true })).toBe(2)
    expect(jumpTarget({ ...card, provider: 'purchase_order', loggedIn: true })).toBe(2)
  })

  it('moves the focus only softly (not away from a buyer who already started)', () => {
    const s = stepTransition(INITIAL_STEPS, { type: 'jump' }, { ...card, loggedIn: true })
    expect(s).toMatchObject({ current: 2, complete: 1, focus: { to: 'heading', step: 2, soft: true } })
    expect(stepTransition(INITIAL_STEPS, { type: 'jump' }, card)).toBe(INITIAL_STEPS)
  })
})

describe('checkout steps: closing, removing a method, logging out', () => {
  it('closing all steps sets completed to 0 and current to 1', () => {
    expect(stepTransition(at(3, 2), { type: 'closeAll' }, card)).toMatchObject({ current: 1, complete: 0 })
  })

  it('a reset (Not you? Log Out) also forgets that messages were shown', () => {
    const s = stepTransition(at(2, 2, { showErrors: true }), { type: 'reset' }, card)
    expect(s).toMatchObject({ current: 1, complete: 0, showErrors: false, focus: { to: 'heading', step: 1 } })
  })

  it('Amazon with its delivery options viewed goes on to step 3 when its order arrives', () => {
    const amazon = { ...paypal, provider: 'amazon', walletOrder: true }
    expect(stepTransition(at(2, 1), { type: 'walletApproved', toStep3: true }, amazon)).toMatchObject({
      current: 3,
      complete: 2,
    })
    expect(stepTransition(at(2, 1), { type: 'walletApproved', toStep3: false }, amazon)).toEqual(at(2, 1))
  })

  it('server field errors open their step and focus the first invalid field', () => {
    const s = stepTransition(at(3, 2), { type: 'fieldErrors', step: 2 }, card)
    expect(s).toMatchObject({ current: 2, showErrors: true, focus: { to: 'invalid', step: 2 } })
  })
})

// --- properties ---------------------------------------------------------------------------

const ctxArb: fc.Arbitrary<StepContext> = fc.record({
  provider: fc.constantFrom('', 'sagepay', 'paya', 'purchase_order', 'paypal', 'amazon'),
  wallet: fc.boolean(),
  walletOrder: fc.boolean(),
  formValid: fc.boolean(),
  loggedIn: fc.boolean(),
})
const eventArb: fc.Arbitrary<StepEvent> = fc.oneof(
  fc.constant({ type: 'continue' } as const),
  fc.integer({ min: -1, max: 6 }).map((step) => ({ type: 'open', step }) as const),
  fc.boolean().map((deliveryViewed) => ({ type: 'jump', deliveryViewed }) as const),
  fc.constant({ type: 'closeAll' } as const),
  fc.constant({ type: 'reset' } as const),
  fc.boolean().map((toStep3) => ({ type: 'walletApproved', toStep3 }) as const),
  fc.integer({ min: -1, max: 6 }).map((step) => ({ type: 'fieldErrors', step }) as const),
  fc.integer({ min: -1, max: 6 }).map((step) => ({ type: 'show', step }) as const),
)
const historyArb = fc.array(fc.tuple(eventArb, ctxArb), { maxLength: 40 })
const replay = (history: [StepEvent, StepContext][]) => {
  const states = [INITIAL_STEPS]
  for (const [e, ctx] of history) states.push(stepTransition(states.at(-1)!, e, ctx))
  return states
}

describe('checkout steps: invariants over any sequence of events', () => {
  it('the open step is always 1 to 3, openable, and the completed count 0 to the ceiling', () => {
    fc.assert(
      fc.property(historyArb, (history) => {
        for (const s of replay(history)) {
          expect(s.current).toBeGreaterThanOrEqual(1)
          expect(s.current).toBeLessThanOrEqual(CHECKOUT.numberOfSteps)
          expect(s.complete).toBeGreaterThanOrEqual(0)
          expect(s.complete).toBeLessThanOrEqual(CHECKOUT.completedCeiling)
          expect(canOpen(s, s.current)).toBe(true)
        }
      }),
    )
  })

  it('a wallet without its order never reaches step 3 by Continue or by opening it', () => {
    fc.assert(
      fc.property(historyArb, ctxArb, (history, c) => {
        const ctx = { ...c, wallet: true, walletOrder: false }
        const before = replay(history).at(-1)!
        if (before.current === 3) return
        for (const e of [{ type: 'continue' }, { type: 'open', step: 3 }] as const)
          expect(stepTransition(before, e, ctx).current).toBeLessThan(3)
      }),
    )
  })

  it('an invalid form never passes step 2 by Continue or by opening a later step', () => {
    fc.assert(
      fc.property(historyArb, ctxArb, (history, c) => {
        const ctx = { ...c, wallet: false, formValid: false }
        const before = replay(history).at(-1)!
        if (before.current === 3) return
        for (const e of [{ type: 'continue' }, { type: 'open', step: 3 }] as const)
          expect(stepTransition(before, e, ctx).current).toBeLessThan(3)
      }),
    )
  })

  it('every change of step asks for the focus to move, with a new number', () => {
    fc.assert(
      fc.property(historyArb, (history) => {
        const states = replay(history)
        for (let i = 1; i < states.length; i++) {
          const [a, b] = [states[i - 1]!, states[i]!]
          if (a.current !== b.current) {
            expect(b.focus?.step).toBe(b.current)
            expect(b.focus!.n).toBeGreaterThan(a.focus?.n ?? 0)
          }
        }
      }),
    )
  })

  it('Continue moves on exactly when it is enabled', () => {
    fc.assert(
      fc.property(historyArb, ctxArb, (history, ctx) => {
        const before = replay(history).at(-1)!
        const after = stepTransition(before, { type: 'continue' }, ctx)
        expect(after.current > before.current).toBe(continueEnabled(before, ctx))
      }),
    )
  })
})
