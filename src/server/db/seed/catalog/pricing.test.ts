import { describe, expect, it } from 'vitest'
import { bracketName, computeMinPrice, nicePrice, priceBreaks } from './pricing.ts'

describe('price brackets', () => {
  it('are named like 1-9, 10 and 50+', () => {
    expect(bracketName(1, 9)).toBe('1-9')
    expect(bracketName(10, 10)).toBe('10')
    expect(bracketName(50, null)).toBe('50+')
  })

  it('cover the quantities without gaps and end open-ended', () => {
    expect(priceBreaks(1000, [1, 10, 25, 50], 4)).toEqual([
      { lowerQty: 1, higherQty: 9, price: 1000, name: '1-9' },
      { lowerQty: 10, higherQty: 24, price: 930, name: '10-24' },
      { lowerQty: 25, higherQty: 49, price: 870, name: '25-49' },
      { lowerQty: 50, higherQty: null, price: 810, name: '50+' },
    ])
  })

  it('always fall in price, even for the cheapest items', () => {
    for (const base of [2, 3, 7, 20]) {
      const list = priceBreaks(base, [1, 10, 25, 50, 100], 5)
      expect(list.length).toBeGreaterThanOrEqual(2)
      for (let i = 1; i < list.length; i++) expect(list[i]!.price).toBeLessThan(list[i - 1]!.price)
      expect(list.every((b) => b.price >= 1)).toBe(true)
      expect(list.at(-1)!.higherQty).toBeNull()
    }
  })

  it('number between two and five', () => {
    expect(priceBreaks(500, [1, 10, 25, 50, 100, 200], 9)).toHaveLength(5)
    expect(priceBreaks(500, [1, 10, 25], 1)).toHaveLength(2)
  })
})

describe('nice prices', () => {
  it('end in 9 pence, 49 or 99', () => {
    expect(nicePrice(432)).toBe(439)
    expect(nicePrice(2310)).toBe(2349)
    expect(nicePrice(123456)).toBe(123499)
  })
})

describe('the lowest price of a group', () => {
  const list = (...prices: number[]) =>
    prices.map((price, i) => ({ lowerQty: i * 10 + 1, higherQty: null, price, name: '' }))

  it('is the lowest bracket price across published SKUs', () => {
    expect(
      computeMinPrice([
        { published: true, priceList: list(900, 800, 700) },
        { published: true, priceList: list(650, 600) },
      ]),
    ).toBe(600)
  })

  it('ignores unpublished SKUs', () => {
    expect(
      computeMinPrice([
        { published: false, priceList: list(100) },
        { published: true, priceList: list(900, 850) },
      ]),
    ).toBe(850)
  })

  it('is zero when nothing is published', () => {
    expect(computeMinPrice([{ published: false, priceList: list(100) }])).toBe(0)
    expect(computeMinPrice([])).toBe(0)
  })
})
