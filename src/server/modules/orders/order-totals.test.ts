/**
 * Issue 29 defect 11: the totals every e-mail, page and PDF shows add up to what was charged, for
 * any order the pricing engine can make (goods, customisation, discounts, VAT relief, delivery),
 * stored the way placement stores it and read back the way pages and e-mails read it.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { normaliseBrackets } from '../../../shared/pricing.ts'
import { orderDataTotals, orderTotalLines, type OrderTotals } from '../../../shared/order-totals.ts'
import { priceCart, type PricingLineInput, type PricingRules } from '../cart/cart.pricing.ts'
import { presentOrder } from './orders.presenter.ts'
import type { OrderItemRow, OrderRow } from './orders.tables.ts'

const sum = (t: OrderTotals) => t.lines.reduce((s, l) => s + l.amount, 0)

const bracketArb = fc
  .array(fc.integer({ min: 0, max: 20_000 }), { minLength: 1, maxLength: 3 })
  .map((prices) =>
    normaliseBrackets(
      prices.map((price, i) => ({
        lowerQty: i * 10 + 1,
        higherQty: i === prices.length - 1 ? null : i * 10 + 10,
        price,
        name: String(i),
      })),
    ),
  )
const lineArb: fc.Arbitrary<PricingLineInput> = fc.record({
  id: fc.nat(),
  quantity: fc.integer({ min: 0, max: 9999 }),
  brackets: bracketArb,
  basePrice: fc.option(fc.integer({ min: 0, max: 50_000 }), { nil: null }),
  // Builder customisation: per-unit option costs
  optionCosts: fc.array(fc.integer({ min: 0, max: 10_000 }), { maxLength: 3 }),
  vatReliefEligible: fc.boolean(),
  isFreeGift: fc.boolean(),
})
const rulesArb: fc.Arbitrary<PricingRules> = fc.record({
  vatRate: fc.constantFrom(20, 5, 0),
  applyVatRelief: fc.boolean(),
  rates: fc.array(
    fc.record({
      id: fc.nat(),
      despatchType: fc.constantFrom('standard', 'next_day'),
      price: fc.integer({ min: 0, max: 5000 }),
      freeOver: fc.option(fc.integer({ min: 0, max: 100_000 }), { nil: null }),
    }),
    { maxLength: 2 },
  ),
  despatchType: fc.constantFrom('standard', 'next_day'),
  minimumOrderValue: fc.constant(0),
  discount: fc.record({
    percentage: fc.integer({ min: 0, max: 100 }),
    fixed: fc.integer({ min: 0, max: 100_000 }),
    freeDelivery: fc.boolean(),
  }),
})

/** The order row and items exactly as checkout placement writes them from a priced cart. */
function placed(lines: PricingLineInput[], rules: PricingRules) {
  const priced = priceCart(lines, rules)
  const row = {
    id: 1,
    orderNumber: 100001,
    orderDate: new Date('2026-11-27T10:00:00Z'),
    currency: 'GBP',
    contact: { first_name: 'A', last_name: 'B', email: 'a@b.c', phone: '', company: '' },
    shippingAddress: {},
    billingAddress: {},
    goodsNet: priced.goodsNet,
    shippingNet: priced.shipping,
    shippingVat: priced.shippingVat,
    vat: priced.tax,
    discount: priced.discount,
    customisationCharge: priced.customisationTotal,
    totalIncVat: priced.totalPriceIncTax,
  } as unknown as OrderRow
  const items = priced.lines.map(
    (l, i) =>
      ({
        id: i + 1,
        cartItemId: i + 1,
        parentCartItemId: null,
        sku: `S${i}`,
        name: `Item ${i}`,
        product: {},
        quantity: l.quantity,
        unitPrice: l.unitPrice,
        lineTotal: l.net,
        lineTotalExDiscountExTax: l.gross,
        vatRate: l.vatRate,
        vat: l.vat,
        isFreeGift: false,
        builderId: null,
        sequenceId: null,
        options: [],
      }) as unknown as OrderItemRow,
  )
  return { priced, row, order: presentOrder(row, items, []) }
}

describe('orderTotalLines', () => {
  it('shows lines that add up exactly to the amount charged, for any order', () => {
    fc.assert(
      fc.property(fc.array(lineArb, { maxLength: 8 }), rulesArb, fc.boolean(), (lines, rules, chargesTax) => {
        const { row, order } = placed(lines, rules)
        // The page and e-mail path (spec §3 Order) and the stored row's own figures agree.
        const fromOrder = orderTotalLines(orderDataTotals(order), { chargesTax })
        const fromRow = orderTotalLines(
          {
            goodsNet: row.goodsNet,
            discount: row.discount,
            shippingNet: row.shippingNet,
            tax: row.vat,
            total: row.totalIncVat,
          },
          { chargesTax },
        )
        expect(fromOrder).toEqual(fromRow)
        expect(fromOrder.total.amount).toBe(row.totalIncVat)
        expect(sum(fromOrder)).toBe(fromOrder.total.amount)
        // The goods line is what the item lines (before discount) add up to, customisation included.
        const goods = fromOrder.lines.find((l) => l.kind === 'goods')!.amount
        expect(goods).toBe(order.items.reduce((s, i) => s + i.line_total_ex_discount_ex_tax, 0))
        expect(goods).toBeGreaterThanOrEqual(row.customisationCharge)
        // A discount is a line of its own, ex VAT like the others; none without a discount.
        const discount = fromOrder.lines.filter((l) => l.kind === 'discount')
        expect(discount).toEqual(
          row.discount ? [{ kind: 'discount', label: expect.any(String), amount: -row.discount }] : [],
        )
        // Delivery is ex VAT, beside goods ex VAT (the defect: delivery inc VAT beside goods ex VAT).
        expect(fromOrder.lines.find((l) => l.kind === 'delivery')!.amount).toBe(row.shippingNet)
        for (const l of [...fromOrder.lines, fromOrder.total]) expect(Number.isInteger(l.amount)).toBe(true)
      }),
      { numRuns: 1_000 },
    )
  })

  it("adds up the issue's order: goods £31.74, delivery £5.95 + £1.19 VAT, VAT £7.54, total £45.23", () => {
    const t = orderTotalLines(
      { goodsNet: 3174, discount: 0, shippingNet: 595, tax: 754, total: 4523 },
      { deliveryName: 'Standard' },
    )
    expect([...t.lines, t.total].map((l) => [l.label, l.amount])).toEqual([
      ['Goods (ex VAT)', 3174],
      ['Delivery (Standard, ex VAT)', 595],
      ['VAT', 754],
      ['Total', 4523],
    ])
  })

  it('names the tax the site’s way and leaves out a tax line on a site that charges none', () => {
    const t = orderTotalLines(
      { goodsNet: 9000, discount: 1000, shippingNet: 1500, tax: 0, total: 10500 },
      { taxName: 'Sales tax', chargesTax: false },
    )
    expect([...t.lines, t.total].map((l) => [l.label, l.amount])).toEqual([
      ['Goods', 10000],
      ['Discount', -1000],
      ['Delivery', 1500],
      ['Total', 10500],
    ])
  })
})
