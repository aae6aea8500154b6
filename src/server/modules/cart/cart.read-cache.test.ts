import { describe, expect, it } from 'vitest'
import { BasketReadCache, deepFreeze } from './cart.read-cache.ts'

const cache = () => new BasketReadCache<{ lines: { quantity: number }[] }>({ max: 10, ttlMs: 60_000 })

describe('BasketReadCache', () => {
  it('keeps a read that nothing overlapped', () => {
    const c = cache()
    const token = c.begin()
    c.keep('a', token, { lines: [{ quantity: 1 }] })
    expect(c.get('a')).toEqual({ lines: [{ quantity: 1 }] })
  })

  it('does not keep a read that a change to any basket overlapped, but hands it back', () => {
    const c = cache()
    const token = c.begin()
    c.forget('b')
    const value = c.keep('a', token, { lines: [{ quantity: 1 }] })
    expect(value.lines[0]!.quantity).toBe(1)
    expect(c.get('a')).toBeUndefined()
  })

  it('forgets one basket on a change and every basket on forgetAll', () => {
    const c = cache()
    c.keep('a', c.begin(), { lines: [] })
    c.keep('b', c.begin(), { lines: [] })
    c.forget('a')
    expect(c.get('a')).toBeUndefined()
    expect(c.get('b')).toBeDefined()
    c.forgetAll()
    expect(c.get('b')).toBeUndefined()
  })

  it('hands out frozen entries, so no reader can change what the next is shown', () => {
    const c = cache()
    c.keep('a', c.begin(), { lines: [{ quantity: 2 }] })
    const kept = c.get('a')!
    expect(() => {
      kept.lines[0]!.quantity = 9
    }).toThrow(TypeError)
    expect(() => kept.lines.push({ quantity: 1 })).toThrow(TypeError)
    expect(c.get('a')!.lines).toEqual([{ quantity: 2 }])
  })
})

describe('deepFreeze', () => {
  it('freezes nested objects and arrays and leaves primitives and null alone', () => {
    const value = deepFreeze({ a: { b: [1, { c: null }] }, d: 'x' })
    expect(Object.isFrozen(value.a.b[1])).toBe(true)
    expect(Object.isFrozen(value.a.b)).toBe(true)
    expect(deepFreeze(null)).toBeNull()
  })
})
