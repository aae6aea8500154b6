import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  amountProblem,
  keyProblem,
  nothingGivenBack,
  refundableMinor,
  refundReconcileDelaySeconds,
} from './refunds.cap.ts'
import { REFUND_STATUSES, type RefundStatus } from './refunds.types.ts'

const row = (status: RefundStatus, amountMinor: number) => ({ status, amountMinor })

describe('what is left to refund', () => {
  it('counts succeeded, pending and unknown refunds against the captured amount, and not failed ones', () => {
    expect(
      refundableMinor(5000, [
        row('succeeded', 1000),
        row('pending', 500),
        row('unknown', 250),
        row('failed', 3000),
      ]),
    ).toBe(3250)
  })

  it('is never below zero and never above the captured amount, whatever the ledger holds', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.array(
          fc.record({
            status: fc.constantFrom(...REFUND_STATUSES),
            amountMinor: fc.integer({ min: 1, max: 10_000_000 }),
          }),
        ),
        (captured, rows) => {
          const left = refundableMinor(captured, rows)
          expect(left).toBeGreaterThanOrEqual(0)
          expect(left).toBeLessThanOrEqual(captured)
        },
      ),
    )
  })

  it('lets a void cover everything only while nothing was (or may have been) given back', () => {
    expect(nothingGivenBack([])).toBe(true)
    expect(nothingGivenBack([row('failed', 100)])).toBe(true)
    expect(nothingGivenBack([row('unknown', 100)])).toBe(false)
    expect(nothingGivenBack([row('pending', 100)])).toBe(false)
  })
})

describe('the caller’s values', () => {
  it('accepts a positive whole number of minor units only', () => {
    expect(amountProblem(1)).toBeNull()
    for (const bad of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '100', null, 2 ** 60])
      expect(amountProblem(bad)).toEqual(expect.any(String))
  })

  it('accepts a printable idempotency key of at most 200 characters', () => {
    expect(keyProblem('order-100001-refund-1')).toBeNull()
    for (const bad of ['', ' spaced key', 'x'.repeat(201), 'tab\there', 42, undefined])
      expect(keyProblem(bad)).toEqual(expect.any(String))
  })
})

describe('when the reconciler asks again', () => {
  it('waits longer after each unanswered question, up to an hour', () => {
    const delays = [0, 1, 2, 3, 4, 10].map(refundReconcileDelaySeconds)
    expect(delays).toEqual([10, 60, 300, 1800, 3600, 3600])
  })
})
