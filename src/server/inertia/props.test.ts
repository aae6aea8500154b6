import { describe, expect, it } from 'vitest'
import { always, defer, durationToMs, merge, onceExpiry, optional, scrollMetadataFrom } from './props.ts'

describe('prop wrappers', () => {
  it('returns a new wrapper from every modifier and leaves the original untouched', () => {
    const base = merge([1])
    const prepended = base.prepend()
    expect(prepended).not.toBe(base)
    expect(base.config.root).toBe('default')
    expect(prepended.config.root).toBe('prepend')
  })

  it('records the load mode of optional, always and deferred props', () => {
    expect(optional(() => 1).config.load).toBe('optional')
    expect(always(1).config.load).toBe('always')
    expect(defer(() => 1, { group: 'g', rescue: true }).config).toMatchObject({
      load: 'defer',
      group: 'g',
      rescue: true,
    })
  })
})

describe('once expiry', () => {
  it('parses relative durations in milliseconds or with a unit', () => {
    expect(durationToMs(1500)).toBe(1500)
    expect(durationToMs('250ms')).toBe(250)
    expect(durationToMs('90s')).toBe(90_000)
    expect(durationToMs('15m')).toBe(900_000)
    expect(durationToMs('2h')).toBe(7_200_000)
    expect(durationToMs('1d')).toBe(86_400_000)
    expect(() => durationToMs('soon')).toThrow(/expiresIn/)
  })

  it('prefers an absolute expiry over a relative one and gives null without either', () => {
    expect(onceExpiry({ expiresAt: 10, expiresIn: 5 }, 100)).toBe(10)
    expect(onceExpiry({ expiresIn: 5 }, 100)).toBe(105)
    expect(onceExpiry({}, 100)).toBeNull()
  })
})

describe('scroll metadata', () => {
  it('reads page numbers from common paginator shapes', () => {
    expect(scrollMetadataFrom({ meta: { currentPage: 2, lastPage: 5 } })).toEqual({
      currentPage: 2,
      nextPage: 3,
      previousPage: 1,
    })
    expect(scrollMetadataFrom({ current_page: 1, last_page: 1 })).toEqual({
      currentPage: 1,
      nextPage: null,
      previousPage: null,
    })
    expect(scrollMetadataFrom({ page: 3, totalPages: 3 })).toEqual({
      currentPage: 3,
      nextPage: null,
      previousPage: 2,
    })
  })

  it('uses explicit next and previous cursors when present', () => {
    expect(scrollMetadataFrom({ meta: { nextPage: 'abc', previousPage: null } })).toEqual({
      currentPage: null,
      nextPage: 'abc',
      previousPage: null,
    })
  })

  it('explains what is missing when the value is not paginated', () => {
    expect(() => scrollMetadataFrom({ data: [] })).toThrow(/metadata/)
  })
})
