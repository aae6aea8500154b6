import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  leanOption,
  optionCode,
  optionDescription,
  optionMinimum,
  type FullGridOption,
  type GridRow,
} from './product.ts'

// Few values, so that an option's text often equals what the page would derive from its row.
const text = fc.constantFrom('', 'Sign', 'Red', 'Sign, Red', 'Sign, ')

const fullOption = (productId: number) =>
  fc.record({
    productId: fc.constant(productId),
    sku: fc.constant(`SKU-${productId}`),
    productCode: text,
    label: text,
    description: text,
    minimumOrder: fc.integer({ min: 1, max: 5 }),
    prices: fc.constant([100]),
    wasPrice: fc.constantFrom(null, 120),
  }) satisfies fc.Arbitrary<FullGridOption>

const rowWithOptions = fc
  .record({
    productCode: text,
    description: text,
    options: fc
      .integer({ min: 1, max: 3 })
      .chain((n) => fc.tuple(...[...Array(n)].map((_, i) => fullOption(i + 1)))),
  })
  .map(({ productCode, description, options }) => ({
    row: { key: 'r', productCode, description, options } satisfies GridRow,
    options: options as FullGridOption[],
  }))

describe('leanOption', () => {
  it('leaves out only what the page reads back the same from the row', () => {
    fc.assert(
      fc.property(rowWithOptions, ({ row, options }) => {
        const sent: GridRow = { ...row, options: options.map((o) => leanOption(row, o)) }
        sent.options.forEach((lean, i) => {
          const full = options[i]!
          expect(optionCode(sent, lean)).toBe(full.productCode)
          expect(optionDescription(sent, lean)).toBe(full.description)
          expect(optionMinimum(lean)).toBe(full.minimumOrder)
          expect(lean.wasPrice ?? null).toBe(full.wasPrice)
          // A dropdown row names its options; a row of one has no dropdown to label.
          expect(lean.label).toBe(row.options.length > 1 ? full.label : undefined)
        })
      }),
      { numRuns: 1000 },
    )
  })

  it('sends a lone option of a plain row as its id, SKU and prices only', () => {
    const row: GridRow = { key: 'r', productCode: 'FS01', description: 'Fire exit sign', options: [] }
    const option: FullGridOption = {
      productId: 7,
      sku: 'FS01-A4',
      productCode: 'FS01',
      label: 'A4',
      description: 'Fire exit sign',
      minimumOrder: 1,
      prices: [250, 200],
      wasPrice: null,
    }
    row.options = [option]
    expect(leanOption(row, option)).toEqual({ productId: 7, sku: 'FS01-A4', prices: [250, 200] })
  })
})
