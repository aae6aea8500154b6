import { describe, expect, it } from 'vitest'
import { vatOn, withVat } from './vat.ts'

describe('VAT', () => {
  it('adds 20% by default', () => {
    expect(withVat(1000)).toBe(1200)
  })

  it('rounds half a penny up', () => {
    // 20% of 2.5p is 0.5p
    expect(vatOn(3)).toBe(1) // 0.6p
    expect(vatOn(2)).toBe(0) // 0.4p
    expect(vatOn(1013, 5)).toBe(51) // 50.65p
    expect(vatOn(1010, 5)).toBe(51) // 50.5p exactly
  })

  it('is zero for zero-rated amounts', () => {
    expect(vatOn(1999, 0)).toBe(0)
  })
})
