import { describe, expect, it } from 'vitest'
import { sameSitePath } from './same-site-path.ts'

describe('sameSitePath', () => {
  it('keeps a path on this site with its query and fragment', () => {
    expect(sameSitePath('/cart?x=1#top')).toBe('/cart?x=1#top')
  })

  it.each([
    '//evil.example/x',
    '/\\evil.example',
    'https://evil.example/',
    'javascript:alert(1)',
    '/%00',
    '/\u0000',
    '/a b',
    '/.//evil.example',
    '',
    null,
    42,
  ])('refuses %j', (value) => {
    const result = sameSitePath(value)
    if (result !== null) expect(result.startsWith('//')).toBe(false)
    if (value === '/.//evil.example') expect(result === null || !result.startsWith('//')).toBe(true)
    else expect(result).toBeNull()
  })

  it('percent-encodes characters a Location header cannot carry', () => {
    expect(sameSitePath('/search?q=€')).toBe('/search?q=%E2%82%AC')
    expect(sameSitePath('/ü')).toBe('/%C3%BC')
  })
})
