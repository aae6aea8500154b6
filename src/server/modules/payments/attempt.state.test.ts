import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { FINAL_STATES, mayStartNewAttempt, transition, TRANSITIONS } from './attempt.state.ts'
import { ATTEMPT_STATES, type AttemptState, type Outcome } from './payments.types.ts'

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
