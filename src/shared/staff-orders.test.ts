import { describe, expect, it } from 'vitest'
import { chosenLines, invoiceSchema, parseMoney, refundSchema, shipSchema } from './staff-orders.ts'

describe('the back office order forms', () => {
  it('reads typed money as integer minor units and refuses anything else', () => {
    expect(parseMoney('12.5')).toBe(1250)
    expect(parseMoney(' 12.05 ')).toBe(1205)
    expect(parseMoney('7')).toBe(700)
    for (const bad of ['', '12.345', '-1', '1e3', '£5', '1,000']) expect(parseMoney(bad), bad).toBeNull()
  })

  it('keeps only the lines given a quantity above zero', () => {
    expect(chosenLines({ '4': '2', '5': '', '6': '0', '7': ' 1 ' })).toEqual([
      { lineId: 4, quantity: 2 },
      { lineId: 7, quantity: 1 },
    ])
    expect(chosenLines(undefined)).toEqual([])
  })

  it('asks a parcel of some lines for at least one quantity, and a tracking link for https', () => {
    const base = { carrier: 'DPD', trackingNumber: 'X1', scope: 'lines', lines: { '4': '' } }
    expect(shipSchema.safeParse(base).error?.issues[0]).toMatchObject({ path: ['lines'] })
    expect(shipSchema.safeParse({ ...base, scope: 'all' }).success).toBe(true)
    const link = shipSchema.safeParse({ ...base, scope: 'all', trackingUrl: 'http://track.example/1' })
    expect(link.error?.issues[0]?.message).toBe('A tracking link must start with https://.')
  })

  it('asks a refund by amount for a positive amount and a refund by lines for a line', () => {
    const amount = refundSchema.safeParse({ reason: 'Bent', scope: 'amount', amount: '0' })
    expect(amount.error?.issues[0]).toMatchObject({ path: ['amount'] })
    const lines = refundSchema.safeParse({ reason: 'Bent', scope: 'lines', lines: {} })
    expect(lines.error?.issues[0]).toMatchObject({ path: ['lines'] })
    expect(refundSchema.safeParse({ reason: 'Bent', scope: 'all' }).success).toBe(true)
    expect(refundSchema.safeParse({ reason: ' ', scope: 'all' }).error?.issues[0]?.message).toBe(
      'The reason is required.',
    )
  })

  it('takes an invoice with or without a number, and refuses a number that is not digits', () => {
    const ok = { invoiceDate: '2026-11-28', amount: '12.34' }
    expect(invoiceSchema.safeParse(ok).success).toBe(true)
    expect(invoiceSchema.safeParse({ ...ok, invoiceNumber: '700123' }).success).toBe(true)
    expect(invoiceSchema.safeParse({ ...ok, invoiceNumber: 'INV-1' }).success).toBe(false)
  })
})
