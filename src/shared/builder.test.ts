import { describe, expect, it } from 'vitest'
import type { BuilderConfig } from './catalog.ts'
import {
  builderBasketItems,
  builderSubtotal,
  builderUnitCost,
  canAddBuilder,
  firstSelectorCost,
  initialSelection,
  isBuilderConfig,
  selectedItems,
} from './builder.ts'

const config: BuilderConfig = {
  selectors: [
    {
      name: 'Size',
      items: [
        { id: 11, name: 'Small', cost: 1000, product_id: 501 },
        { id: 12, name: 'Large', cost: 1800, product_id: 502, selected: true },
      ],
    },
    {
      name: 'Material',
      items: [
        { id: 21, name: 'Vinyl', cost: 0, product_id: null },
        { id: 22, name: 'Aluminium', cost: 650, product_id: null },
      ],
    },
  ],
  options: [
    {
      name: 'Fixings',
      items: [
        { id: 31, name: 'Screws', cost: 150, product_id: null },
        { id: 32, name: 'Sticky pads', cost: 90, product_id: null },
      ],
    },
  ],
}

describe('builder', () => {
  it('opens with the items flagged selected', () => {
    expect(initialSelection(config)).toEqual({ selectors: [12, null], options: [null] })
  })

  it('sums the chosen selector and option costs, times the quantity', () => {
    const selection = { selectors: [12, 22], options: [31] }
    expect(selectedItems(config, selection).map((i) => i.id)).toEqual([12, 22, 31])
    expect(builderUnitCost(config, selection)).toBe(1800 + 650 + 150)
    expect(builderSubtotal(config, selection, 3)).toBe((1800 + 650 + 150) * 3)
    expect(builderSubtotal(config, selection, 0)).toBe(0)
  })

  it('ignores ids that are not in their group', () => {
    expect(builderUnitCost(config, { selectors: [31, null], options: [12] })).toBe(0)
  })

  it('adds only with a quantity and a first selector costing more than 0', () => {
    const chosen = { selectors: [11, 21], options: [null] }
    expect(firstSelectorCost(config, chosen)).toBe(1000)
    expect(canAddBuilder(config, chosen, 2)).toBe(true)
    expect(canAddBuilder(config, chosen, 0)).toBe(false)
    expect(canAddBuilder(config, { selectors: [null, 22], options: [31] }, 2)).toBe(false)
    const free: BuilderConfig = {
      selectors: [{ name: 'Size', items: [{ id: 1, name: 'Free', cost: 0, product_id: 9 }] }],
      options: [],
    }
    expect(canAddBuilder(free, { selectors: [1], options: [] }, 5)).toBe(false)
  })

  it('builds the add payload with the chosen item ids', () => {
    expect(builderBasketItems(config, { selectors: [12, 22], options: [32] }, 4, 77)).toEqual([
      { listing_id: 502, quantity: 4, category_id: 77, customisation: { options: [12, 22, 32] } },
    ])
    expect(builderBasketItems(config, { selectors: [12, null], options: [null] }, 0, 77)).toBeNull()
  })

  it('falls back to the given listing when the first selector names no product', () => {
    const noProduct: BuilderConfig = {
      selectors: [{ name: 'Size', items: [{ id: 1, name: 'A4', cost: 500, product_id: null }] }],
      options: [],
    }
    expect(builderBasketItems(noProduct, { selectors: [1], options: [] }, 1, 5, 42)?.[0]?.listing_id).toBe(42)
    expect(builderBasketItems(noProduct, { selectors: [1], options: [] }, 1, 5)).toBeNull()
  })

  it('recognises a usable configuration', () => {
    expect(isBuilderConfig(config)).toBe(true)
    expect(isBuilderConfig({ selectors: [] })).toBe(false)
    expect(isBuilderConfig({ selectors: [{ name: 'x', items: [{ id: 'a' }] }] })).toBe(false)
    expect(isBuilderConfig(null)).toBe(false)
  })
})
