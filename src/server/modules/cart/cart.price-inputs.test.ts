import { describe, expect, it } from 'vitest'
import type { BuilderConfig } from '../../../shared/catalog.ts'
import type { Site } from '../sites/sites.service.ts'
import { goodsTotal, pricingLines, reliefApplies, resolveOptions } from './cart.price-inputs.ts'
import type { CartItemRow, CartRow } from './cart.tables.ts'
import type { LineRow } from './cart.types.ts'

/** 1-9 £10.00, 10-24 £9.00, 25+ £8.00 */
const priceList = [
  { lowerQty: 1, higherQty: 9, price: 1000, name: '1-9' },
  { lowerQty: 10, higherQty: 24, price: 900, name: '10-24' },
  { lowerQty: 25, higherQty: null, price: 800, name: '25+' },
]

let nextId = 1
function line(item: Partial<CartItemRow> = {}, over: Partial<LineRow> = {}): LineRow {
  const id = nextId++
  return {
    item: {
      id,
      cartId: '00000000-0000-4000-8000-000000000001',
      productId: 10,
      categoryId: null,
      quantity: 1,
      parentId: null,
      isIsolatedFromParent: false,
      isFreeGift: false,
      sequenceId: null,
      printableSign: null,
      options: [],
      workWearSession: null,
      createdAt: new Date(0),
      ...item,
    } as CartItemRow,
    sku: 'SKU',
    productCode: 'P',
    productName: 'Sign',
    description: '',
    priceList: priceList as LineRow['priceList'],
    minimumOrder: 1,
    published: true,
    groupPublished: true,
    groupName: 'Signs',
    groupUrl: '/signs',
    groupMedia: [],
    groupCategoryId: null,
    vatReliefEligible: false,
    vatReliefKind: null,
    categoryName: null,
    categoryUrl: null,
    categoryBuilder: null,
    ...over,
  }
}

const builder: BuilderConfig = {
  selectors: [
    {
      name: 'Size',
      items: [
        { id: 1, name: 'Small', cost: 1200.4, product_id: null },
        { id: 2, name: 'Large', cost: 2500, product_id: null },
      ],
    },
  ],
  options: [
    { name: 'Fixing', items: [{ id: 5, name: 'Screws', cost: -50, product_id: null }] },
    { name: 'Finish', items: [{ id: 6, name: 'Laminate', cost: 300, product_id: null }] },
  ],
}

describe('a builder line’s chosen items', () => {
  it('takes the first selector’s item as the base price and every other chosen item as an option', () => {
    const { base, options } = resolveOptions(builder, [6, 2])
    expect(base).toEqual({ id: 2, title: 'Size', name: 'Large', cost: 2500 })
    expect(options).toEqual([{ id: 6, title: 'Finish', name: 'Laminate', cost: 300 }])
  })

  it('rounds costs to whole minor units and never lets an option cost less than nothing', () => {
    const { base, options } = resolveOptions(builder, [1, 5])
    expect(base?.cost).toBe(1200)
    expect(options).toEqual([{ id: 5, title: 'Fixing', name: 'Screws', cost: 0 }])
  })

  it('ignores items the builder no longer has, and has nothing without a builder', () => {
    expect(resolveOptions(builder, [99, 6])).toEqual({
      base: null,
      options: [{ id: 6, title: 'Finish', name: 'Laminate', cost: 300 }],
    })
    expect(resolveOptions(null, [1, 6])).toEqual({ base: null, options: [] })
  })
})

describe('what a basket’s lines give the pricing engine', () => {
  it('prices the lines of one sign set by the bracket of their total quantity, and a lone line by its own', () => {
    const lines = [
      line({ quantity: 6, sequenceId: 'set-a' }),
      line({ quantity: 6, sequenceId: 'set-a' }),
      line({ quantity: 6 }),
    ]
    expect(pricingLines(lines).map((l) => l.bracketQuantity)).toEqual([12, 12, undefined])
  })

  it('prices the sizes of one workwear order together, with the order’s customisation on each garment', () => {
    const session = (id: string) => ({
      id,
      builder_json: { cat_id: 3, customisation: [{ name: 'Logo: Chest', cost: 450 }] },
    })
    const lines = [
      line({ quantity: 4, workWearSession: session('w1') }),
      line({ quantity: 7, workWearSession: session('w1') }),
      line({ quantity: 2, workWearSession: session('w2') }),
    ]
    const inputs = pricingLines(lines)
    expect(inputs.map((l) => l.bracketQuantity)).toEqual([11, 11, 2])
    expect(inputs[0]!.optionCosts).toEqual([450])
  })

  it('leaves a free gift out of its set’s total quantity and out of the goods total', () => {
    const lines = [
      line({ quantity: 9, sequenceId: 's' }),
      line({ quantity: 1, sequenceId: 's', isFreeGift: true }),
    ]
    expect(pricingLines(lines)[0]!.bracketQuantity).toBe(9)
    expect(goodsTotal(lines)).toBe(9 * 1000)
  })

  it('adds a builder line’s base and option costs to its goods', () => {
    const built = line({ quantity: 2, options: [2, 6] }, { categoryBuilder: builder })
    expect(goodsTotal([built])).toBe(2 * (2500 + 300))
  })
})

describe('VAT relief on a basket', () => {
  const site = { settings: { tax: { rate: 20 } } } as Site
  const eligible = line({ quantity: 1 }, { vatReliefEligible: true, vatReliefKind: null })
  const row = (over: Partial<CartRow>) =>
    ({ applyVatRelief: true, vatReliefDeclaration: null, ...over }) as CartRow
  const declaration = { name: 'A Person', condition: 'Arthritis', declaredAt: '2026-01-01T00:00:00Z' }

  it('applies only when the buyer claimed it with a declaration', () => {
    expect(reliefApplies(site, row({ vatReliefDeclaration: declaration }), [eligible])).toBe(true)
    expect(reliefApplies(site, row({ vatReliefDeclaration: null }), [eligible])).toBe(false)
    expect(
      reliefApplies(site, row({ applyVatRelief: false, vatReliefDeclaration: declaration }), [eligible]),
    ).toBe(false)
  })

  it('ends when the basket no longer qualifies', () => {
    const plain = line({ quantity: 1 })
    expect(reliefApplies(site, row({ vatReliefDeclaration: declaration }), [plain])).toBe(false)
  })
})
