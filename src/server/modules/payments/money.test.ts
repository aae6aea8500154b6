import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { fromDecimalString, toDecimalString } from './money.ts'

describe('money at the provider edge', () => {
  it('writes minor units as the decimal string providers expect', () => {
    expect(toDecimalString(2349, 'GBP')).toBe('23.49')
    expect(toDecimalString(5, 'USD')).toBe('0.05')
    expect(toDecimalString(0, 'GBP')).toBe('0.00')
    expect(toDecimalString(-120, 'GBP')).toBe('-1.20')
  })

  it('reads a provider amount back into minor units', () => {
    expect(fromDecimalString('23.49', 'GBP')).toBe(2349)
    expect(fromDecimalString('5', 'USD')).toBe(500)
    expect(fromDecimalString('6.1', 'USD')).toBe(610)
  })

  it('refuses fractions of a minor unit and non-numbers', () => {
    expect(() => fromDecimalString('1.234', 'GBP')).toThrow(RangeError)
    expect(() => fromDecimalString('1e3', 'GBP')).toThrow(RangeError)
    expect(() => toDecimalString(1.5, 'GBP')).toThrow(RangeError)
  })

  it('round-trips every integer amount', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -1e12, max: 1e12 }),
        fc.constantFrom('GBP' as const, 'USD' as const),
        (n, c) => {
          expect(fromDecimalString(toDecimalString(n, c), c)).toBe(n)
        },
      ),
    )
  })
})
