import { describe, expect, it } from 'vitest'
import { imageUrl, isResizable, PLACEHOLDER_IMAGE } from './images.ts'

describe('image urls', () => {
  it('send raster files through the resizer with the given options', () => {
    expect(imageUrl('/media/catalog/a.png', { w: 300, q: 50 })).toBe('/img/media/catalog/a.png?w=300&q=50')
    expect(imageUrl('/media/catalog/a.JPG', { w: 80, h: 80, fit: 'contain' })).toBe(
      '/img/media/catalog/a.JPG?w=80&h=80&fit=contain',
    )
    expect(imageUrl('/brands/logo.webp')).toBe('/img/brands/logo.webp')
  })

  it('leave SVG files and remote urls unchanged', () => {
    expect(imageUrl('/media/catalog/a.svg', { w: 300 })).toBe('/media/catalog/a.svg')
    expect(imageUrl('https://cdn.example/a.png', { w: 300 })).toBe('https://cdn.example/a.png')
    expect(imageUrl('//cdn.example/a.png', { w: 300 })).toBe('//cdn.example/a.png')
  })

  it('answer the placeholder for an empty location', () => {
    expect(imageUrl(null)).toBe(PLACEHOLDER_IMAGE)
    expect(imageUrl('')).toBe(PLACEHOLDER_IMAGE)
  })

  it('round fractional sizes', () => {
    expect(imageUrl('/media/a.png', { w: 299.6 })).toBe('/img/media/a.png?w=300')
  })

  it('know which files can be resized', () => {
    expect(isResizable('/media/a.png?v=2')).toBe(true)
    expect(isResizable('/media/a.svg')).toBe(false)
    expect(isResizable('media/a.png')).toBe(false)
  })
})
