import { describe, expect, it } from 'vitest'
import { cleanQuery, highlightParts, MAX_QUERY_LENGTH, titleCase } from './search.ts'

describe('search helpers', () => {
  it('splits a highlighted value into runs without interpreting HTML', () => {
    expect(highlightParts('<em>Fire</em> Exit <b>Sign</b>')).toEqual([
      { text: 'Fire', highlighted: true },
      { text: ' Exit <b>Sign</b>', highlighted: false },
    ])
    expect(highlightParts('plain')).toEqual([{ text: 'plain', highlighted: false }])
    expect(highlightParts('a <em>b')).toEqual([
      { text: 'a ', highlighted: false },
      { text: 'b', highlighted: true },
    ])
  })

  it('title-cases every word of a highlighted term', () => {
    expect(titleCase('fire exit')).toBe('Fire Exit')
    expect(titleCase('hi-vis vest (orange)')).toBe('Hi-Vis Vest (Orange)')
    expect(titleCase('CO2 sign')).toBe('CO2 Sign')
  })

  it('cleans a query: control characters out, whitespace collapsed, length capped', () => {
    expect(cleanQuery('  fire\u0000 \n exit\u200b ')).toBe('fire exit')
    expect(cleanQuery(42)).toBe('')
    expect(cleanQuery('x'.repeat(5000))).toHaveLength(MAX_QUERY_LENGTH)
  })
})
