import { describe, expect, it } from 'vitest'
import { COMPRESSIBLE } from './compression.ts'

describe('which answers are compressed on the fly', () => {
  it.each([
    'text/html; charset=utf-8',
    'application/json; charset=utf-8',
    'application/json',
    'application/ld+json',
    'text/css',
    'text/javascript',
    'application/javascript; charset=utf-8',
    'image/svg+xml',
    'application/xml',
    'text/plain; charset=utf-8',
    'text/csv',
  ])('compresses %s', (type) => {
    expect(COMPRESSIBLE.test(type)).toBe(true)
  })

  it.each([
    'application/pdf',
    'image/png',
    'image/webp',
    'image/avif',
    'image/jpeg',
    'application/octet-stream',
    'text/event-stream',
    'font/woff2',
    'application/zip',
  ])('leaves %s alone (already compressed, binary or a stream)', (type) => {
    expect(COMPRESSIBLE.test(type)).toBe(false)
  })
})
