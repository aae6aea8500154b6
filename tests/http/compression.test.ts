import { existsSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, inertiaHeaders, type TestApp } from '../helpers/app.ts'

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp()
})
afterAll(async () => {
  await t?.close()
})

const page = (headers: Record<string, string>, method: 'GET' | 'HEAD' = 'GET') =>
  t.app.inject({ method, url: '/', headers: { host: 'localhost', ...headers } })

const varies = (h: unknown) =>
  String(h ?? '')
    .toLowerCase()
    .split(',')
    .map((v) => v.trim())
    .includes('accept-encoding')

describe('compression of pages and JSON', () => {
  it('sends the server-rendered page Brotli-compressed when the browser accepts br', async () => {
    const plain = await page({ accept: 'text/html', 'accept-encoding': 'identity' })
    const res = await page({ accept: 'text/html', 'accept-encoding': 'gzip, deflate, br' })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-encoding']).toBe('br')
    expect(varies(res.headers.vary)).toBe(true)
    const html = brotliDecompressSync(res.rawPayload).toString('utf8')
    expect(html).toContain('<div id="app"')
    expect(res.rawPayload.byteLength).toBeLessThan(plain.rawPayload.byteLength / 2)
  })

  it('sends gzip to a client that accepts gzip but not br', async () => {
    const res = await page({ accept: 'text/html', 'accept-encoding': 'gzip' })
    expect(res.headers['content-encoding']).toBe('gzip')
    expect(gunzipSync(res.rawPayload).toString('utf8')).toContain('<div id="app"')
    expect(varies(res.headers.vary)).toBe(true)
  })

  it('sends the page uncompressed, still saying Vary: Accept-Encoding, when no encoding is accepted', async () => {
    const res = await page({ accept: 'text/html' })
    expect(res.headers['content-encoding']).toBeUndefined()
    expect(res.payload).toContain('<div id="app"')
    expect(varies(res.headers.vary)).toBe(true)
  })

  it('compresses Inertia JSON and keeps its own Vary: X-Inertia beside Accept-Encoding', async () => {
    const res = await page({ ...inertiaHeaders(), 'accept-encoding': 'br' })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-encoding']).toBe('br')
    const json = JSON.parse(brotliDecompressSync(res.rawPayload).toString('utf8')) as { component: string }
    expect(json.component).toBe('Home')
    expect(varies(res.headers.vary)).toBe(true)
    expect(String(res.headers.vary).toLowerCase()).toContain('x-inertia')
  })

  it('answers HEAD for a page with no body and Vary: Accept-Encoding', async () => {
    const res = await page({ accept: 'text/html', 'accept-encoding': 'br' }, 'HEAD')
    expect(res.statusCode).toBe(200)
    expect(res.rawPayload.byteLength).toBe(0)
    expect(varies(res.headers.vary)).toBe(true)
  })

  it('leaves answers under 1 KB and images alone', async () => {
    const small = await t.app.inject({ url: '/healthz', headers: { 'accept-encoding': 'br, gzip' } })
    expect(small.headers['content-encoding']).toBeUndefined()
    const svg = await t.app.inject({
      url: '/favicon.svg',
      headers: { host: 'localhost', 'accept-encoding': 'br, gzip' },
    })
    expect(svg.statusCode).toBe(200)
    // SVG is text: compressed when over the threshold, but never a second time.
    expect([undefined, 'br']).toContain(svg.headers['content-encoding'])
    // Public files keep their names when they change: an hour, not a year.
    expect(svg.headers['cache-control']).toBe('public, max-age=3600')
  })
})

const client = resolve(import.meta.dirname, '../../dist/client')
const manifestPath = resolve(client, '.vite/manifest.json')

// The hashed assets exist only after `npm run build` (CI builds before the browser tests, which
// check the same thing through a real browser connection: tests/e2e/compression.spec.ts).
describe.skipIf(!existsSync(manifestPath))('built assets', () => {
  const manifest = existsSync(manifestPath)
    ? (JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, { file: string; isEntry?: boolean }>)
    : {}
  const entry = Object.values(manifest).find((c) => c.isEntry)?.file ?? ''

  it('serves a hashed script precompressed with Brotli and cached for a year as immutable', async () => {
    const res = await t.app.inject({ url: `/${entry}`, headers: { 'accept-encoding': 'gzip, br' } })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-encoding']).toBe('br')
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    expect(varies(res.headers.vary)).toBe(true)
    expect(res.rawPayload.equals(readFileSync(resolve(client, `${entry}.br`)))).toBe(true)
  })

  it('serves the gzip copy to a client without Brotli and the file itself to one without either', async () => {
    const gz = await t.app.inject({ url: `/${entry}`, headers: { 'accept-encoding': 'gzip' } })
    expect(gz.headers['content-encoding']).toBe('gzip')
    expect(gunzipSync(gz.rawPayload).equals(readFileSync(resolve(client, entry)))).toBe(true)
    const plain = await t.app.inject({ url: `/${entry}` })
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(plain.rawPayload.equals(readFileSync(resolve(client, entry)))).toBe(true)
  })
})
