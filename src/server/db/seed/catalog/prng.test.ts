import { describe, expect, it } from 'vitest'
import { hashString, mulberry32, Random, slugify, stableUuid } from './prng.ts'

describe('the seeded random generator', () => {
  it('repeats the same sequence for the same seed', () => {
    const a = mulberry32(42)
    const b = mulberry32(42)
    const first = Array.from({ length: 100 }, () => a())
    expect(Array.from({ length: 100 }, () => b())).toEqual(first)
    expect(first.every((x) => x >= 0 && x < 1)).toBe(true)
  })

  it('gives different sequences for different seeds', () => {
    expect(mulberry32(1)()).not.toBe(mulberry32(2)())
  })

  it('keeps integers inside both bounds and reaches each of them', () => {
    const rng = new Random('bounds')
    const seen = new Set<number>()
    for (let i = 0; i < 2000; i++) {
      const n = rng.int(3, 7)
      expect(n).toBeGreaterThanOrEqual(3)
      expect(n).toBeLessThanOrEqual(7)
      seen.add(n)
    }
    expect([...seen].sort()).toEqual([3, 4, 5, 6, 7])
  })

  it('samples distinct items and shuffles without losing any', () => {
    const rng = new Random('sample')
    const items = Array.from({ length: 20 }, (_, i) => i)
    const sample = rng.sample(items, 8)
    expect(new Set(sample).size).toBe(8)
    expect(rng.shuffle(items).sort((a, b) => a - b)).toEqual(items)
  })

  it('forks child generators that depend only on the parent seed and the label', () => {
    const a = new Random('parent').fork('child')
    const b = new Random('parent').fork('child')
    expect(a.float()).toBe(b.float())
    expect(new Random('parent').fork('other').float()).not.toBe(new Random('parent').fork('child').float())
  })
})

describe('stable names', () => {
  it('hash strings the same way every time', () => {
    expect(hashString('harbour')).toBe(hashString('harbour'))
    expect(hashString('harbour')).not.toBe(hashString('northgate'))
  })

  it('derive the same well-formed UUID from the same name', () => {
    const uuid = stableUuid('harbour:group:/safety-signs/x')
    expect(uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(stableUuid('harbour:group:/safety-signs/x')).toBe(uuid)
    expect(stableUuid('harbour:group:/safety-signs/y')).not.toBe(uuid)
  })

  it('slugify names with dashes, ampersands and sizes', () => {
    expect(slugify('Fire Exit Sign – Running Man Arrow Left')).toBe('fire-exit-sign-running-man-arrow-left')
    expect(slugify('Print & Sign')).toBe('print-and-sign')
    expect(slugify('  23" x 36" Pad ')).toBe('23-x-36-pad')
  })
})
