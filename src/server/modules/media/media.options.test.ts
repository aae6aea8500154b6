import { describe, expect, it } from 'vitest'
import { parseResizeOptions } from './media.options.ts'

describe('resize options', () => {
  it('default to width 300, quality 50 and cover', () => {
    expect(parseResizeOptions({})).toEqual({ width: 300, height: null, quality: 50, fit: 'cover' })
    expect(parseResizeOptions(undefined)).toEqual({ width: 300, height: null, quality: 50, fit: 'cover' })
  })

  it('take the given width, height, quality and fit', () => {
    expect(parseResizeOptions({ w: '640', h: '480', q: '80', fit: 'contain' })).toEqual({
      width: 640,
      height: 480,
      quality: 80,
      fit: 'contain',
    })
  })

  it('leave the width free when only a height is asked for', () => {
    expect(parseResizeOptions({ h: '200' })).toMatchObject({ width: null, height: 200 })
  })

  it('clamp large numbers and round fractions', () => {
    expect(parseResizeOptions({ w: '50000', q: '101', h: '99.6' })).toMatchObject({
      width: 2000,
      height: 100,
      quality: 100,
    })
  })

  it('fall back to the defaults for junk', () => {
    for (const query of [
      { w: 'abc', q: '-5', fit: 'stretch' },
      { w: '0', q: '0' },
      { w: ['1', '2'], q: { a: '1' } },
      { w: '1e3', q: '0x10' },
      { w: ' 300', fit: ['cover'] },
    ]) {
      expect(parseResizeOptions(query)).toEqual({ width: 300, height: null, quality: 50, fit: 'cover' })
    }
  })
})
