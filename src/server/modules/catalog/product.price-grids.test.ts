import { describe, expect, it } from 'vitest'
import { optionBrackets, optionCode, optionDescription, optionMinimum } from '../../../shared/product.ts'
import { buildPriceGrids } from './product.price-grids.ts'
import { sku } from './product.test-records.ts'

describe('buildPriceGrids', () => {
  it('puts each SKU without a row key on its own row, in grid and position order', () => {
    const grids = buildPriceGrids([
      sku({ id: 3, position: 2 }),
      sku({ id: 4, position: 1 }),
      sku({ id: 5, grid: 2 }),
    ])
    expect(grids.map((g) => g.number)).toEqual([1, 2])
    expect(grids[0]!.rows.map((r) => r.options[0]!.productId)).toEqual([4, 3])
    expect(grids[0]!.rows[0]).toMatchObject({
      key: 'g1-p4',
      productCode: 'PC-4',
      description: 'Description 4',
    })
  })

  it('groups SKUs sharing a row key into one row of options keyed by product id', () => {
    const grids = buildPriceGrids([
      sku({ id: 6, rowKey: 'A', optionLabel: 'Red' }),
      sku({ id: 7, rowKey: 'A', optionLabel: 'Blue', position: 1 }),
      sku({ id: 8, position: 2 }),
    ])
    const [rowA, row8] = grids[0]!.rows
    expect(rowA!.options.map((o) => [o.productId, o.label])).toEqual([
      [6, 'Red'],
      [7, 'Blue'],
    ])
    expect(row8!.options).toHaveLength(1)
  })

  it('makes columns from the union of brackets, lowest first, with null where a SKU has none', () => {
    const grids = buildPriceGrids([
      sku({ id: 9, priceList: [{ lowerQty: 10, higherQty: null, price: 80, name: '10+' }] }),
      sku({
        id: 10,
        priceList: [
          { lowerQty: 1, higherQty: 9, price: 100, name: '1-9' },
          { lowerQty: 10, higherQty: null, price: 90, name: '10+' },
        ],
      }),
    ])
    const grid = grids[0]!
    expect(grid.columns).toEqual([
      { name: '1-9', lowerQty: 1, higherQty: 9 },
      { name: '10+', lowerQty: 10, higherQty: 9999 },
    ])
    expect(grid.rows[0]!.options[0]!.prices).toEqual([null, 80])
    expect(grid.rows[1]!.options[0]!.prices).toEqual([100, 90])
  })

  it("sends an option's price list only when the grid's columns and its prices do not already say it", () => {
    const grids = buildPriceGrids([
      sku({ id: 20, priceList: [{ lowerQty: 1, higherQty: 9, price: 100, name: '1-9' }] }),
      // Same name, other quantities: the column (from the first SKU) does not describe it.
      sku({ id: 21, position: 1, priceList: [{ lowerQty: 1, higherQty: 4, price: 90, name: '1-9' }] }),
    ])
    const [plain, odd] = grids[0]!.rows.map((r) => r.options[0]!)
    expect(plain).not.toHaveProperty('priceList')
    expect(optionBrackets(grids[0]!.columns, plain!)).toEqual([
      { lowerQty: 1, higherQty: 9, price: 100, name: '1-9' },
    ])
    expect(odd!.priceList).toEqual([{ lowerQty: 1, higherQty: 4, price: 90, name: '1-9' }])
    expect(optionBrackets(grids[0]!.columns, odd!)).toEqual(odd!.priceList)
  })

  it('takes headings from grid_descriptions, keeps was prices and defaults the minimum order to 1', () => {
    const grids = buildPriceGrids(
      [sku({ id: 11, wasPrice: 700, minimumOrder: 0 }), sku({ id: 12, grid: 3 })],
      {
        pricing: { grid_descriptions: { '1': 'Single <b>signs</b>' }, unit_of_measurement: 'sign' },
      },
    )
    expect(grids[0]!.description).toBe('Single signs')
    expect(grids[0]!.unitOfMeasurement).toBe('sign')
    expect(grids[1]!.description).toBeNull()
    const option = grids[0]!.rows[0]!.options[0]!
    expect(option.wasPrice).toBe(700)
    expect(optionMinimum(option)).toBe(1)
    expect(option).not.toHaveProperty('minimumOrder')
    expect(grids[1]!.rows[0]!.options[0]).not.toHaveProperty('wasPrice')
  })

  it('leaves out of each option what the page derives from its row, and keeps what differs', () => {
    const grids = buildPriceGrids([
      sku({ id: 30, rowKey: 'A', productCode: 'PC-A', description: 'Small, Red', optionLabel: 'Red' }),
      sku({
        id: 31,
        rowKey: 'A',
        productCode: 'PC-B',
        description: 'Small, Blue',
        optionLabel: 'Blue',
        position: 1,
      }),
      sku({
        id: 32,
        rowKey: 'A',
        productCode: 'PC-C',
        description: 'Odd one',
        optionLabel: 'Green',
        position: 2,
        minimumOrder: 5,
      }),
      sku({ id: 33, position: 3 }),
    ])
    const [row, single] = grids[0]!.rows
    expect(row!.description).toBe('Small')
    const [red, blue, green] = row!.options
    expect(red).toEqual({ productId: 30, sku: 'SKU-30', label: 'Red', prices: red!.prices })
    expect(blue).toMatchObject({ productCode: 'PC-B', label: 'Blue' })
    expect(blue).not.toHaveProperty('description')
    expect(green).toMatchObject({ description: 'Odd one', minimumOrder: 5 })
    expect(
      row!.options.map((o) => [optionCode(row!, o), optionDescription(row!, o), optionMinimum(o)]),
    ).toEqual([
      ['PC-A', 'Small, Red', 1],
      ['PC-B', 'Small, Blue', 1],
      ['PC-C', 'Odd one', 5],
    ])
    // A row of one option has no dropdown: no label, and the row's code and description.
    const lone = single!.options[0]!
    expect(lone).not.toHaveProperty('label')
    expect(lone).not.toHaveProperty('productCode')
    expect(lone).not.toHaveProperty('description')
    expect([optionCode(single!, lone), optionDescription(single!, lone)]).toEqual(['PC-33', 'Description 33'])
  })

  it('leaves out unpublished SKUs and puts grid numbers outside 1-3 in grid 1', () => {
    const grids = buildPriceGrids([sku({ id: 13, published: false }), sku({ id: 14, grid: 7 })])
    expect(grids).toHaveLength(1)
    expect(grids[0]!.rows.map((r) => r.options[0]!.productId)).toEqual([14])
  })
})
