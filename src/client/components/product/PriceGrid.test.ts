import { describe, expect, it } from 'vitest'
import { gridHeadings } from './PriceGrid.tsx'

describe("the price grids' names", () => {
  it('are their descriptions, or Prices and Prices (n)', () => {
    expect(
      gridHeadings([
        { number: 1, description: null },
        { number: 2, description: null },
        { number: 3, description: 'Rigid plastic' },
      ]),
    ).toEqual(['Prices', 'Prices (2)', 'Rigid plastic'])
  })

  it('are told apart by number when two grids share a description, so no two sections share a name', () => {
    const names = gridHeadings([
      { number: 1, description: 'Signs' },
      { number: 2, description: 'Signs' },
      { number: 3, description: 'Prices' },
      { number: 4, description: null },
    ])
    expect(names).toEqual(['Signs (1)', 'Signs (2)', 'Prices', 'Prices (4)'])
    expect(new Set(names).size).toBe(names.length)
  })
})
