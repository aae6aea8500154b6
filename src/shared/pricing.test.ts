import { describe, expect, it } from 'vitest'
import {
  MAX_BRACKET_QUANTITY,
  bracketIndexFor,
  bracketName,
  gridTotal,
  highestUnitPrice,
  lineTotal,
  lowestUnitPrice,
  normaliseBrackets,
  parseBracketName,
  parseProductId,
  unitPriceFor,
} from './pricing.ts'

const list = normaliseBrackets([
  { lowerQty: 1, higherQty: 9, price: 500, name: '1-9' },
  { lowerQty: 10, higherQty: 24, price: 450, name: '10-24' },
  { lowerQty: 25, higherQty: 99, price: 400, name: '25-99' },
  { lowerQty: 100, higherQty: null, price: 350, name: '100+' },
])

describe('bracket names', () => {
  it('reads ranges, single quantities and open-ended brackets', () => {
    expect(parseBracketName('10-24')).toEqual({ lowerQty: 10, higherQty: 24 })
    expect(parseBracketName(' 5 ')).toEqual({ lowerQty: 5, higherQty: 5 })
    expect(parseBracketName('100+')).toEqual({ lowerQty: 100, higherQty: 9999 })
    expect(parseBracketName('24-10')).toBeNull()
    expect(parseBracketName('lots')).toBeNull()
  })

  it('names brackets from their bounds', () => {
    expect(bracketName(10, 24)).toBe('10-24')
    expect(bracketName(100, null)).toBe('100+')
    expect(bracketName(100, 9999)).toBe('100+')
  })
})

describe('normaliseBrackets', () => {
  it('treats an open-ended bracket as ending at 9999', () => {
    expect(list.at(-1)).toEqual({ lowerQty: 100, higherQty: MAX_BRACKET_QUANTITY, price: 350, name: '100+' })
  })

  it('fills bounds from the name, names from the bounds, and sorts', () => {
    const out = normaliseBrackets([
      { name: '50+', price: 90 } as never,
      { lowerQty: 1, higherQty: 49, price: 100, name: '' },
    ])
    expect(out).toEqual([
      { lowerQty: 1, higherQty: 49, price: 100, name: '1-49' },
      { lowerQty: 50, higherQty: 9999, price: 90, name: '50+' },
    ])
  })

  it('drops entries without a price or range and tolerates a non-list', () => {
    expect(
      normaliseBrackets([
        { name: 'x', price: 1 } as never,
        { lowerQty: 1, higherQty: 2, price: -1, name: '1-2' },
      ]),
    ).toEqual([])
    expect(normaliseBrackets(null)).toEqual([])
    expect(normaliseBrackets('nope' as never)).toEqual([])
  })
})

describe('unit price of the bracket holding the quantity', () => {
  it.each([
    [1, 0, 500],
    [9, 0, 500],
    [10, 1, 450],
    [24, 1, 450],
    [25, 2, 400],
    [100, 3, 350],
    [9999, 3, 350],
  ])('quantity %i is in bracket %i at %i', (qty, index, price) => {
    expect(bracketIndexFor(list, qty)).toBe(index)
    expect(unitPriceFor(list, qty)).toBe(price)
  })

  it('highlights nothing for 0 but quotes the first bracket', () => {
    expect(bracketIndexFor(list, 0)).toBe(-1)
    expect(unitPriceFor(list, 0)).toBe(500)
  })

  it('uses the first bracket below its start and the nearest lower bracket in a gap', () => {
    const gappy = normaliseBrackets([
      { lowerQty: 5, higherQty: 9, price: 200, name: '5-9' },
      { lowerQty: 20, higherQty: 29, price: 150, name: '20-29' },
    ])
    expect(bracketIndexFor(gappy, 2)).toBe(0)
    expect(bracketIndexFor(gappy, 15)).toBe(0)
    expect(bracketIndexFor(gappy, 50)).toBe(1)
  })

  it('is 0 for an empty list', () => {
    expect(unitPriceFor([], 5)).toBe(0)
    expect(bracketIndexFor([], 5)).toBe(-1)
  })
})

describe('totals', () => {
  it('multiplies the bracket price by the quantity for a row', () => {
    expect(lineTotal(list, 0)).toBe(0)
    expect(lineTotal(list, 3)).toBe(1500)
    expect(lineTotal(list, 10)).toBe(4500)
    expect(lineTotal(list, 120)).toBe(42000)
  })

  it('adds the rows of a grid, each at its own bracket', () => {
    const other = normaliseBrackets([{ lowerQty: 1, higherQty: null, price: 1999, name: '1+' }])
    expect(
      gridTotal([
        { brackets: list, quantity: 12 },
        { brackets: other, quantity: 2 },
        { brackets: list, quantity: 0 },
      ]),
    ).toBe(12 * 450 + 2 * 1999)
    expect(gridTotal([])).toBe(0)
  })

  it('finds the lowest and highest unit prices', () => {
    const other = normaliseBrackets([{ lowerQty: 1, higherQty: null, price: 1999, name: '1+' }])
    expect(lowestUnitPrice([list, other])).toBe(350)
    expect(highestUnitPrice([list, other])).toBe(1999)
    expect(lowestUnitPrice([])).toBe(0)
  })
})

describe('parseProductId', () => {
  it('accepts plain and P-prefixed ids', () => {
    expect(parseProductId(12)).toBe(12)
    expect(parseProductId('12')).toBe(12)
    expect(parseProductId('P12')).toBe(12)
    expect(parseProductId('p7')).toBe(7)
  })

  it('refuses anything else', () => {
    for (const v of ['', 'P', 'X12', '1.5', '-3', 0, -1, 1.5, null, undefined, {}])
      expect(parseProductId(v)).toBeNull()
  })
})
