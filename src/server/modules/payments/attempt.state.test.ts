import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  FINAL_STATES,
  mayStartNewAttempt,
  resolveAttempt,
  RESOLUTION_STEPS,
  transition,
  TRANSITIONS,
  type ResolutionStep,
} from './attempt.state.ts'
import {
  ATTEMPT_RESOLUTIONS,
  ATTEMPT_STATES,
  type AttemptResolution,
  type AttemptState,
  type Outcome,
} from './payments.types.ts'

const outcome = (status: Outcome['status']): Outcome => {
  switch (status) {
    case 'requires_action':
      return { status, refs: {}, action: { type: 'paypalRestart' } }
    case 'pending':
      return { status, refs: {}, reason: 'x', confirmed: null }
    case 'declined':
      return { status, refs: {}, code: 'd', message: 'd', retryWithNewInstrument: true }
    case 'failed':
    case 'unknown':
      return { status, refs: {}, code: 'e', message: 'e' }
    default:
      return { status, refs: {}, confirmed: null }
  }
}
const STATUSES = [
  'requires_action',
  'authorised',
  'captured',
  'pending',
  'declined',
  'failed',
  'unknown',
] as const
const anyOutcome = fc.constantFrom(...STATUSES).map(outcome)

function run(outcomes: Outcome[]): AttemptState[] {
  const seen: AttemptState[] = ['created']
  let state: AttemptState = 'created'
  for (const o of outcomes) {
    const r = transition(state, o)
    if (r.ok) state = r.state
    seen.push(state)
  }
  return seen
}

describe('payment attempt state machine', () => {
  it('moves a new attempt to whatever the provider answered first', () => {
    for (const s of STATUSES)
      expect(transition('created', outcome(s))).toEqual({ ok: true, state: s, changed: true })
  })

  it('resolves an unknown attempt only to what the provider reports', () => {
    expect(transition('unknown', outcome('captured'))).toMatchObject({ ok: true, state: 'captured' })
    expect(transition('unknown', outcome('failed'))).toMatchObject({ ok: true, state: 'failed' })
    expect(transition('unknown', outcome('unknown'))).toEqual({ ok: true, state: 'unknown', changed: false })
  })

  it('refuses to reopen a captured, declined or failed attempt', () => {
    expect(transition('captured', outcome('declined'))).toMatchObject({ ok: false })
    expect(transition('declined', outcome('captured'))).toMatchObject({ ok: false })
    expect(transition('failed', outcome('requires_action'))).toMatchObject({ ok: false })
  })

  it('never lets a provider answer reopen a payment the reconciler voided, and allows a new attempt', () => {
    expect(FINAL_STATES.has('voided')).toBe(true)
    expect(transition('voided', outcome('captured'))).toMatchObject({ ok: false })
    expect(transition('voided', outcome('unknown'))).toMatchObject({
      ok: true,
      state: 'voided',
      changed: false,
    })
    expect(mayStartNewAttempt(['voided'])).toBe(true)
  })

  it('keeps a pending or authorised attempt when a later call times out', () => {
    expect(transition('pending', outcome('unknown'))).toEqual({ ok: true, state: 'pending', changed: false })
    expect(transition('authorised', outcome('unknown'))).toEqual({
      ok: true,
      state: 'authorised',
      changed: false,
    })
  })

  it('never leaves a final state, whatever sequence of answers arrives', () => {
    fc.assert(
      fc.property(fc.array(anyOutcome, { maxLength: 12 }), (outcomes) => {
        const states = run(outcomes)
        const firstFinal = states.findIndex((s) => FINAL_STATES.has(s))
        if (firstFinal >= 0) expect(new Set(states.slice(firstFinal)).size).toBe(1)
      }),
    )
  })

  it('only ever takes a listed transition and never returns to created', () => {
    fc.assert(
      fc.property(fc.constantFrom(...ATTEMPT_STATES), anyOutcome, (from, o) => {
        const r = transition(from, o)
        if (!r.ok) return
        expect(r.state === from || TRANSITIONS[from].includes(r.state)).toBe(true)
        expect(r.state).not.toBe('created')
      }),
    )
  })

  it('never turns a known success into a failure', () => {
    fc.assert(
      fc.property(fc.array(anyOutcome, { maxLength: 12 }), (outcomes) => {
        const states = run(outcomes)
        const i = states.findIndex((s) => s === 'authorised' || s === 'captured')
        if (i >= 0) for (const s of states.slice(i)) expect(['authorised', 'captured']).toContain(s)
      }),
    )
  })

  it('allows a new attempt after declines but not while one may still succeed', () => {
    expect(mayStartNewAttempt(['declined', 'declined', 'failed'])).toBe(true)
    expect(mayStartNewAttempt(['declined', 'unknown'])).toBe(false)
    expect(mayStartNewAttempt(['pending'])).toBe(false)
    expect(mayStartNewAttempt(['captured'])).toBe(false)
  })
})

const STEPS = Object.keys(RESOLUTION_STEPS) as ResolutionStep[]
const anyStep = fc.constantFrom(...STEPS)
const anyResolution = fc.constantFrom<AttemptResolution | null>(null, ...ATTEMPT_RESOLUTIONS)

interface Paid {
  state: AttemptState
  resolution: AttemptResolution | null
}

/** Every (state, resolution) an attempt passes through under these steps, and the steps taken. */
function resolveAll(start: Paid, steps: ResolutionStep[]): { seen: Paid[]; taken: ResolutionStep[] } {
  const seen = [start]
  const taken: ResolutionStep[] = []
  let now = start
  for (const step of steps) {
    const r = resolveAttempt(now, step)
    if (r.ok && r.changed) {
      now = { state: r.state, resolution: r.resolution }
      taken.push(step)
    }
    seen.push(now)
  }
  return { seen, taken }
}

describe("payment attempt resolution (what became of a paid attempt's order)", () => {
  it('lets an order claim a paid attempt, and refuses to give back the money of a claimed one', () => {
    const claimed = resolveAttempt({ state: 'captured', resolution: null }, 'claim')
    expect(claimed).toEqual({ ok: true, state: 'captured', resolution: 'order_placed', changed: true })
    expect(resolveAttempt({ state: 'captured', resolution: 'order_placed' }, 'refuse')).toMatchObject({
      ok: false,
    })
  })

  it('never lets an order claim money that is being or was given back', () => {
    expect(resolveAttempt({ state: 'captured', resolution: 'voiding' }, 'claim')).toMatchObject({ ok: false })
    expect(resolveAttempt({ state: 'voided', resolution: 'voided' }, 'claim')).toMatchObject({ ok: false })
  })

  it('voids the attempt itself when its money is given back, and only from voiding', () => {
    expect(resolveAttempt({ state: 'authorised', resolution: 'voiding' }, 'given_back')).toEqual({
      ok: true,
      state: 'voided',
      resolution: 'voided',
      changed: true,
    })
    expect(resolveAttempt({ state: 'captured', resolution: null }, 'given_back')).toMatchObject({ ok: false })
    expect(resolveAttempt({ state: 'voided', resolution: 'voided' }, 'given_back')).toEqual({
      ok: true,
      state: 'voided',
      resolution: 'voided',
      changed: false,
    })
  })

  it('keeps a refund the provider finishes later voiding, and hands what cannot be given back to a person', () => {
    expect(resolveAttempt({ state: 'captured', resolution: 'voiding' }, 'refund_pending')).toMatchObject({
      ok: true,
      resolution: 'voiding',
      changed: false,
    })
    expect(resolveAttempt({ state: 'captured', resolution: 'voiding' }, 'ask_person')).toMatchObject({
      ok: true,
      resolution: 'needs_attention',
    })
    expect(resolveAttempt({ state: 'unknown', resolution: null }, 'ask_person')).toMatchObject({ ok: true })
    expect(resolveAttempt({ state: 'declined', resolution: null }, 'ask_person')).toMatchObject({ ok: false })
  })

  it('gives back a placed order whose payment settled for another amount only through order_failed', () => {
    expect(resolveAttempt({ state: 'captured', resolution: 'order_placed' }, 'order_failed')).toMatchObject({
      ok: true,
      resolution: 'voiding',
    })
    expect(resolveAttempt({ state: 'captured', resolution: null }, 'order_failed')).toMatchObject({
      ok: false,
    })
  })

  it('only ever takes a declared step: the target, the resolutions and states it may start from', () => {
    fc.assert(
      fc.property(fc.constantFrom(...ATTEMPT_STATES), anyResolution, anyStep, (state, resolution, step) => {
        const r = resolveAttempt({ state, resolution }, step)
        const rule = RESOLUTION_STEPS[step]
        expect(r.ok).toBe(rule.from.includes(resolution ?? 'none') && rule.states.includes(state))
        if (!r.ok) return
        expect(r.resolution).toBe(rule.to)
        // Only giving the money back changes the attempt's state, and only to voided.
        expect(r.state).toBe(step === 'given_back' ? 'voided' : state)
      }),
    )
  })

  it('never leaves voided, and gives the money back at most once, whatever steps arrive', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<AttemptState>('authorised', 'captured', 'pending', 'unknown'),
        fc.array(anyStep, { maxLength: 16 }),
        (state, steps) => {
          const { seen, taken } = resolveAll({ state, resolution: null }, steps)
          expect(taken.filter((s) => s === 'given_back').length).toBeLessThanOrEqual(1)
          const i = seen.findIndex((p) => p.resolution === 'voided')
          if (i >= 0)
            for (const p of seen.slice(i)) expect(p).toEqual({ state: 'voided', resolution: 'voided' })
          // The money is given back only after it was marked voiding (no order could claim it).
          if (i >= 0) expect(seen[i - 1]!.resolution).toBe('voiding')
        },
      ),
    )
  })

  it('never has an order and a given-back payment at once: voided money was never claimed after voiding', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<AttemptState>('authorised', 'captured', 'pending'),
        fc.array(anyStep, { maxLength: 16 }),
        (state, steps) => {
          const { seen } = resolveAll({ state, resolution: null }, steps)
          const voiding = seen.findIndex((p) => p.resolution === 'voiding')
          if (voiding < 0) return
          const after = seen.slice(voiding)
          const placed = after.findIndex((p) => p.resolution === 'order_placed')
          // Once voiding, an order may take the money only after a person was asked (nothing was
          // given back), never after it was given back.
          if (placed >= 0) {
            expect(after.slice(0, placed).some((p) => p.resolution === 'needs_attention')).toBe(true)
            expect(after.slice(0, placed).some((p) => p.resolution === 'voided')).toBe(false)
          }
        },
      ),
    )
  })
})
