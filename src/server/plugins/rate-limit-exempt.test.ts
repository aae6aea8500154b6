import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { publicFilePaths, staticFileExemption } from './rate-limit-exempt.ts'

function publicFolder(): string {
  const root = mkdtempSync(join(tmpdir(), 'public-'))
  mkdirSync(join(root, 'brands'))
  mkdirSync(join(root, 'media/content'), { recursive: true })
  writeFileSync(join(root, 'favicon.svg'), '<svg/>')
  writeFileSync(join(root, 'brands/harbour.svg'), '<svg/>')
  writeFileSync(join(root, 'media/content/photo.jpg'), 'x')
  return root
}

describe('the requests the rate limit does not count', () => {
  const exempt = staticFileExemption(publicFilePaths(publicFolder()))
  const get = (url: string) => exempt({ method: 'GET', url })

  it('lets the build assets and the public files through uncounted, with or without a query', () => {
    expect(get('/assets/app-3f9a1c.js')).toBe(true)
    expect(get('/favicon.svg')).toBe(true)
    expect(get('/brands/harbour.svg?v=2')).toBe(true)
    expect(exempt({ method: 'HEAD', url: '/favicon.svg' })).toBe(true)
  })

  it('counts pages, JSON, forms and writes, even to a static file path', () => {
    expect(get('/')).toBe(false)
    expect(get('/basket')).toBe(false)
    expect(get('/search?q=favicon.svg')).toBe(false)
    expect(exempt({ method: 'POST', url: '/favicon.svg' })).toBe(false)
    expect(exempt({ method: 'POST', url: '/assets/app.js' })).toBe(false)
  })

  it('leaves media to its own limit and does not take a look-alike path for a public file', () => {
    expect(get('/media/content/photo.jpg')).toBe(false)
    expect(get('/favicon.svg/../basket')).toBe(false)
    expect(get('/assets/../basket')).toBe(false)
    expect(get('/brands/')).toBe(false)
  })
})
