import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { topK } from './ranking.ts'

describe('topK', () => {
  it('returns the first k items in order, as a full sort would', () => {
    const items = Array.from({ length: 500 }, (_, i) => (i * 7919) % 1000)
    const byValue = (a: number, b: number) => a - b
    for (const k of [0, 1, 3, 20, 62, 63, 500, 600]) {
      expect(topK([...items], k, byValue)).toEqual([...items].sort(byValue).slice(0, k))
    }
  })

  it('equals a full sort for any distinct items and any k', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer()), fc.nat(300), (items, k) => {
        const byValue = (a: number, b: number) => a - b
        expect(topK(items, k, byValue)).toEqual([...items].sort(byValue).slice(0, k))
      }),
    )
  })
})
