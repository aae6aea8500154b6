import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { normaliseBrackets } from '../../../shared/pricing.ts'
import { vatOn } from '../../../shared/vat.ts'
import {
  allocate,
  priceCart,
  promotionDiscount,
  type PricingLineInput,
  type PricingRules,
} from './cart.pricing.ts'

const brackets = normaliseBrackets([
  { lowerQty: 1, higherQty: 9, price: 1000, name: '1-9' },
  { lowerQty: 10, higherQty: 24, price: 900, name: '10-24' },
  { lowerQty: 25, higherQty: null, price: 800, name: '25+' },
])

const rules = (over: Partial<PricingRules> = {}): PricingRules => ({
  vatRate: 20,
  applyVatRelief: false,
  rates: [
    { id: 1, despatchType: 'standard', price: 595, freeOver: 10000 },
    { id: 2, despatchType: 'next_day', price: 1295, freeOver: null },
  ],
  despatchType: 'standard',
  minimumOrderValue: 0,
  discount: { percentage: 0, fixed: 0, freeDelivery: false },
  ...over,
})

const line = (over: Partial<PricingLineInput> = {}): PricingLineInput => ({
  id: 1,
  quantity: 1,
  brackets,
  optionCosts: [],
  vatReliefEligible: false,
  isFreeGift: false,
  ...over,
})

describe('priceCart', () => {
  it('prices each line at the bracket that holds its quantity', () => {
    const cart = priceCart(
      [line({ quantity: 9 }), line({ id: 2, quantity: 10 }), line({ id: 3, quantity: 25 })],
      rules(),
    )
    expect(cart.lines.map((l) => l.unitPrice)).toEqual([1000, 900, 800])
    expect(cart.itemsTotal).toBe(9000 + 9000 + 20000)
    expect(cart.totalItems).toBe(44)
    expect(cart.itemsCount).toBe(3)
  })

  it('charges VAT per line, rounded half-up, and on delivery', () => {
    const cart = priceCart(
      [
        line({
          quantity: 1,
          brackets: normaliseBrackets([{ lowerQty: 1, higherQty: null, price: 99, name: '1+' }]),
        }),
      ],
      rules(),
    )
    // 99p → 19.8p VAT → 20p; delivery 595 → 119p
    expect(cart.lines[0]!.vat).toBe(20)
    expect(cart.shipping).toBe(595)
    expect(cart.tax).toBe(20 + 119)
    expect(cart.totalPriceIncTax).toBe(99 + 595 + 139)
  })

  it('adds option costs per unit and counts them as customisation', () => {
    const cart = priceCart([line({ quantity: 3, basePrice: 2500, optionCosts: [500, 250] })], rules())
    expect(cart.lines[0]!.gross).toBe(3 * 3250)
    expect(cart.customisationTotal).toBe(3 * 750)
  })

  it('zero-rates eligible lines only when the cart claims VAT relief', () => {
    const lines = [line({ vatReliefEligible: true }), line({ id: 2 })]
    expect(priceCart(lines, rules()).lines.map((l) => l.vatRate)).toEqual([20, 20])
    expect(priceCart(lines, rules({ applyVatRelief: true })).lines.map((l) => l.vatRate)).toEqual([0, 20])
  })

  it('makes delivery free from the threshold and says how much is left below it', () => {
    const below = priceCart([line({ quantity: 9 })], rules())
    expect(below.shipping).toBe(595)
    expect(below.shortForFreeShipping).toBe(1000)
    const at = priceCart([line({ quantity: 10 }), line({ id: 2, quantity: 1 })], rules())
    expect(at.goodsNet).toBe(10000)
    expect(at.shipping).toBe(0)
    expect(at.shortForFreeShipping).toBe(0)
    expect(priceCart([line()], rules({ despatchType: 'next_day' })).shortForFreeShipping).toBeNull()
  })

  it('charges no delivery on an empty cart', () => {
    const cart = priceCart([], rules())
    expect(cart.shipping).toBe(0)
    expect(cart.totalPriceIncTax).toBe(0)
    expect(cart.shortForMinimumOrderValue).toBe(0)
  })

  it('reports the shortfall against the minimum order value', () => {
    expect(
      priceCart([line({ quantity: 2 })], rules({ minimumOrderValue: 2500 })).shortForMinimumOrderValue,
    ).toBe(500)
    expect(
      priceCart([line({ quantity: 3 })], rules({ minimumOrderValue: 2500 })).shortForMinimumOrderValue,
    ).toBe(0)
  })

  it('takes a percentage and then a fixed amount off the goods, never below zero', () => {
    const pct = priceCart(
      [line({ quantity: 5 })],
      rules({ discount: { percentage: 10, fixed: 0, freeDelivery: false } }),
    )
    expect(pct.discount).toBe(500)
    expect(pct.lines[0]!.vat).toBe(900)
    expect(pct.discountIncTax).toBe(600)
    const fixed = priceCart(
      [line()],
      rules({ discount: { percentage: 0, fixed: 5000, freeDelivery: false } }),
    )
    expect(fixed.discount).toBe(1000)
    expect(fixed.goodsNet).toBe(0)
  })

  it('gives free delivery for a free-delivery code', () => {
    const cart = priceCart([line()], rules({ discount: { percentage: 0, fixed: 0, freeDelivery: true } }))
    expect(cart.shipping).toBe(0)
    expect(cart.shortForFreeShipping).toBe(0)
  })

  it('prices a free gift at nothing', () => {
    const cart = priceCart([line({ isFreeGift: true, quantity: 1 })], rules())
    expect(cart.lines[0]!.gross).toBe(0)
  })
})

describe('allocate', () => {
  it('splits exactly, in proportion', () => {
    expect(allocate(100, [1, 1, 1])).toEqual([34, 33, 33])
    expect(allocate(0, [5, 5])).toEqual([0, 0])
    expect(allocate(10, [0, 0])).toEqual([0, 0])
  })
})

describe('priceCart invariants (property tests)', () => {
  const bracketArb = fc
    .array(fc.integer({ min: 0, max: 200_000 }), { minLength: 1, maxLength: 4 })
    .map((prices) =>
      normaliseBrackets(
        prices.map((price, i) => ({
          lowerQty: i * 10 + 1,
          higherQty: i === prices.length - 1 ? null : i * 10 + 10,
          price,
          name: '',
        })),
      ),
    )
  const lineArb = fc.record({
    id: fc.nat(),
    quantity: fc.integer({ min: 0, max: 9999 }),
    brackets: bracketArb,
    basePrice: fc.option(fc.integer({ min: 0, max: 50_000 }), { nil: null }),
    optionCosts: fc.array(fc.integer({ min: 0, max: 10_000 }), { maxLength: 3 }),
    vatReliefEligible: fc.boolean(),
    isFreeGift: fc.boolean(),
  })
  const rulesArb = fc.record({
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
    minimumOrderValue: fc.integer({ min: 0, max: 10_000 }),
    discount: fc.record({
      percentage: fc.integer({ min: 0, max: 100 }),
      fixed: fc.integer({ min: 0, max: 100_000 }),
      freeDelivery: fc.boolean(),
    }),
  })

  it('totals equal the sum of the lines plus delivery minus discount, VAT is never negative, no drift', () => {
    fc.assert(
      fc.property(fc.array(lineArb, { maxLength: 12 }), rulesArb, (lines, r) => {
        const cart = priceCart(lines, r)
        const sumGross = cart.lines.reduce((s, l) => s + l.gross, 0)
        const sumNet = cart.lines.reduce((s, l) => s + l.net, 0)
        const sumVat = cart.lines.reduce((s, l) => s + l.vat, 0)
        expect(cart.itemsTotal).toBe(sumGross)
        expect(sumNet).toBe(cart.itemsTotal - cart.discount)
        expect(cart.totalPrice).toBe(sumGross + cart.shipping - cart.discount)
        expect(cart.tax).toBe(sumVat + cart.shippingVat)
        expect(cart.totalPriceIncTax).toBe(cart.totalPrice + cart.tax)
        expect(cart.discount).toBeGreaterThanOrEqual(0)
        expect(cart.discount).toBeLessThanOrEqual(cart.itemsTotal)
        for (const l of cart.lines) {
          expect(Number.isInteger(l.vat) && l.vat >= 0).toBe(true)
          expect(l.net).toBeGreaterThanOrEqual(0)
          expect(l.vat).toBe(vatOn(l.net, l.vatRate))
        }
        expect(cart.vatItems.reduce((s, v) => s + v.tax, 0)).toBe(cart.tax)
        for (const value of [
          cart.totalPrice,
          cart.tax,
          cart.totalPriceIncTax,
          cart.discountIncTax,
          cart.shipping,
        ]) {
          expect(Number.isSafeInteger(value) && value >= 0).toBe(true)
        }
      }),
      { numRuns: 10_000 },
    )
    // 10,000 carts take a few seconds; more on a busy machine.
  }, 60_000)
  it('charges no tax at all on a site whose tax rate is 0, whatever the basket', () => {
    fc.assert(
      fc.property(fc.array(lineArb, { maxLength: 12 }), rulesArb, (lines, r) => {
        const cart = priceCart(lines, { ...r, vatRate: 0 })
        expect(cart.tax).toBe(0)
        expect(cart.shippingVat).toBe(0)
        expect(cart.totalPriceIncTax).toBe(cart.totalPrice)
        expect(cart.discountIncTax).toBe(cart.discount)
        expect(cart.lines.every((l) => l.vatRate === 0 && l.vat === 0)).toBe(true)
      }),
      { numRuns: 2_000 },
    )
  })
})

describe('promotionDiscount', () => {
  it('turns the one promotion in force into one kind of discount', () => {
    expect(promotionDiscount(null)).toEqual({ percentage: 0, fixed: 0, freeDelivery: false })
    expect(promotionDiscount({ kind: 'percentage', value: 15 })).toEqual({
      percentage: 15,
      fixed: 0,
      freeDelivery: false,
    })
    expect(promotionDiscount({ kind: 'fixed', value: 1000 })).toEqual({
      percentage: 0,
      fixed: 1000,
      freeDelivery: false,
    })
    expect(promotionDiscount({ kind: 'free_delivery', value: 0 })).toEqual({
      percentage: 0,
      fixed: 0,
      freeDelivery: true,
    })
    // A free gift is a line, not money off.
    expect(promotionDiscount({ kind: 'free_gift', value: 0 })).toEqual({
      percentage: 0,
      fixed: 0,
      freeDelivery: false,
    })
  })
})
