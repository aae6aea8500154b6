import { describe, expect, it } from 'vitest'
import { DomainError } from '../../lib/domain-error.ts'
import { lineRefundsOf, linesAsked } from './order-lifecycle.refund-lines.ts'
import type { OrderItemRow, OrderRow } from './orders.tables.ts'

const order = { orderNumber: 5001, currency: 'GBP' } as OrderRow
const item = (id: number, quantity: number, charged: number) =>
  ({ id, sku: `SKU-${id}`, quantity, lineTotal: charged - 100, vat: 100 }) as OrderItemRow
const items = [item(1, 3, 1000), item(2, 1, 500)]

describe('a refund by lines', () => {
  it('gives back each line its share of what it was charged', () => {
    expect(linesAsked(order, items, [{ lineId: 1, quantity: 1 }], new Map())).toEqual([
      { lineId: 1, quantity: 1, amountMinor: 333 },
    ])
  })

  it('gives back exactly the line amount over refunds of one unit each', () => {
    const taken: { lineId: number; quantity: number; amountMinor: number }[][] = []
    for (let i = 0; i < 3; i++)
      taken.push(linesAsked(order, items, [{ lineId: 1, quantity: 1 }], lineRefundsOf(taken)))
    expect(taken.flat().reduce((s, l) => s + l.amountMinor, 0)).toBe(1000)
  })

  it('refuses more of a line than is left, naming the line and its field', () => {
    const earlier = lineRefundsOf([[{ lineId: 1, quantity: 2, amountMinor: 666 }]])
    let error: unknown
    try {
      linesAsked(
        order,
        items,
        [
          { lineId: 2, quantity: 1 },
          { lineId: 1, quantity: 2 },
        ],
        earlier,
      )
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(DomainError)
    expect(error).toMatchObject({
      code: 'refund_exceeds_refundable',
      message: expect.stringContaining('Line 1 (SKU-1) has 1 of 3 left to refund'),
      fields: { 'lines.1.quantity': [expect.any(String)] },
      answer: { lineId: 1, lineRefundableQuantity: 1, lineRefundableMinor: 334 },
    })
  })

  it('adds up a line named twice before checking it', () => {
    expect(() =>
      linesAsked(
        order,
        items,
        [
          { lineId: 2, quantity: 1 },
          { lineId: 2, quantity: 1 },
        ],
        new Map(),
      ),
    ).toThrow(/Line 2 \(SKU-2\)/)
  })

  it('refuses a line that is not on the order and a quantity that is not a positive whole number', () => {
    expect(() => linesAsked(order, items, [{ lineId: 9, quantity: 1 }], new Map())).toThrow(
      /Line 9 is not on order 5001/,
    )
    expect(() => linesAsked(order, items, [{ lineId: 1, quantity: 0.5 }], new Map())).toThrow(
      /positive whole number/,
    )
    expect(() => linesAsked(order, items, [], new Map())).toThrow(/at least one line/)
  })
})
