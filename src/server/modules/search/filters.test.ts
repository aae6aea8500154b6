import { describe, expect, it } from 'vitest'
import { FilterError, matchesFilters, parseFilters } from './filters.ts'

const FACETS = new Set(['type', 'status', 'brand'])
const NUMERIC = new Set(['price'])
const parse = (f: string) => parseFilters(f, FACETS, NUMERIC)
const test = (f: string, record: Record<string, unknown>) => matchesFilters(parse(f), (a) => record[a])

describe('the filters parser', () => {
  it('reads the storefront filters as an AND of OR groups', () => {
    expect(parse('type:category AND status:published')).toEqual([
      [{ kind: 'facet', attribute: 'type', value: 'category', negated: false }],
      [{ kind: 'facet', attribute: 'status', value: 'published', negated: false }],
    ])
    expect(parse('type:product_group OR type:product AND status:published')).toEqual([
      [
        { kind: 'facet', attribute: 'type', value: 'product_group', negated: false },
        { kind: 'facet', attribute: 'type', value: 'product', negated: false },
      ],
      [{ kind: 'facet', attribute: 'status', value: 'published', negated: false }],
    ])
  })

  it('matches records against facets case-insensitively, NOT and brackets included', () => {
    const r = { type: 'product', status: 'published', brand: 'Acme Signs', price: 450 }
    expect(test('type:product_group OR type:product AND status:published', r)).toBe(true)
    expect(test('type:category AND status:published', r)).toBe(false)
    expect(test('(type:category OR type:PRODUCT) AND NOT status:unpublished', r)).toBe(true)
    expect(test('brand:"acme signs"', r)).toBe(true)
    expect(test('price < 500 AND price >= 450', r)).toBe(true)
    expect(test('price:100 TO 449', r)).toBe(false)
    expect(test('NOT price = 450', r)).toBe(false)
    expect(test('', r)).toBe(true)
  })

  it('rejects what Algolia rejects, with a 400', () => {
    for (const bad of [
      'type:a OR (type:b AND status:c)',
      '(type:a AND status:b)',
      'NOT (type:a OR type:b)',
      'type:a OR price > 3',
      'secret:1',
      'price > abc',
      'type:"open',
      'type:',
      'AND type:a',
      'type:a AND',
      'type:a !x',
      'status:published; DROP TABLE products',
    ]) {
      expect(() => parse(bad), bad).toThrow(FilterError)
    }
    try {
      parse('secret:1')
    } catch (err) {
      expect((err as FilterError).statusCode).toBe(400)
      expect((err as Error).message).toBe("filters: attribute 'secret' is not filterable")
    }
  })

  it('refuses a filter longer than 2000 characters', () => {
    expect(() => parse(`type:${'a'.repeat(2001)}`)).toThrow('filters: too long')
  })
})
