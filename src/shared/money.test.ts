import { describe, expect, it } from 'vitest'
import { formatMoney } from './money.ts'

describe('formatMoney', () => {
  it('shows pence as pounds with the £ sign and two decimals', () => {
    expect(formatMoney(1250)).toBe('£12.50')
    expect(formatMoney(1250, 'GBP')).toBe('£12.50')
  })

  it('shows zero as £0.00', () => {
    expect(formatMoney(0)).toBe('£0.00')
    expect(formatMoney(-0)).toBe('£0.00')
  })

  it('groups thousands the en-GB way', () => {
    expect(formatMoney(123456789)).toBe('£1,234,567.89')
  })

  it('uses the $ sign and en-US format for USD', () => {
    expect(formatMoney(199, 'USD')).toBe('$1.99')
    expect(formatMoney(100000, 'USD')).toBe('$1,000.00')
  })

  it('keeps the sign of negative amounts such as discounts', () => {
    expect(formatMoney(-500)).toBe('-£5.00')
  })

  it('rounds fractional minor units and treats non-numbers as zero', () => {
    expect(formatMoney(1249.6)).toBe('£12.50')
    expect(formatMoney(Number.NaN)).toBe('£0.00')
  })
})
