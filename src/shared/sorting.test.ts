import { describe, expect, it } from 'vitest'
import { DEFAULT_SORT, parseSort, SORT_OPTIONS, sortLabel, sortOrder } from './sorting.ts'

describe('sort options', () => {
  it('are the six options of the spec, keys and labels word for word, in order', () => {
    expect(SORT_OPTIONS.map((o) => [o.value, o.label])).toEqual([
      ['', 'Most Relevant'],
      ['name-asc', 'Name (A-Z)'],
      ['name-desc', 'Name (Z-A)'],
      ['price-high_low', 'Price (Low to High)'],
      ['price-low_high', 'Price (High to Low)'],
      ['new', 'Newest First'],
    ])
  })

  it('order the products the way the label says, not the key', () => {
    expect(sortOrder('price-high_low')).toEqual({ by: 'price', direction: 'asc' })
    expect(sortOrder('price-low_high')).toEqual({ by: 'price', direction: 'desc' })
    expect(sortOrder('name-asc')).toEqual({ by: 'name', direction: 'asc' })
    expect(sortOrder('name-desc')).toEqual({ by: 'name', direction: 'desc' })
    expect(sortOrder('new')).toEqual({ by: 'newest' })
    expect(sortOrder('')).toEqual({ by: 'relevance' })
  })
})

describe('parseSort', () => {
  it.each(['', 'name-asc', 'name-desc', 'price-high_low', 'price-low_high', 'new'])('keeps %j', (key) => {
    expect(parseSort(key)).toBe(key)
  })

  it.each([
    undefined,
    null,
    'NAME-ASC',
    'price',
    'toString',
    '__proto__',
    'constructor',
    ' new',
    42,
    { a: 1 },
    ['x'],
  ])('turns junk %j into the default', (raw) => {
    expect(parseSort(raw)).toBe(DEFAULT_SORT)
  })

  it('takes the first of repeated values', () => {
    expect(parseSort(['name-desc', 'new'])).toBe('name-desc')
  })

  it('labels keys, the default for unknown ones', () => {
    expect(sortLabel('price-high_low')).toBe('Price (Low to High)')
    expect(sortLabel('' as never)).toBe('Most Relevant')
  })
})
