import { existsSync, readFileSync } from 'node:fs'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig, projectRoot } from '../../src/server/config.ts'
import { buildTestApp, type TestApp } from '../helpers/app.ts'

let t: TestApp
let varDir: string
const placeholder = readFileSync(resolve(projectRoot, 'public/placeholder.svg'))
const svg =
  '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10" fill="red"/></svg>\n'

beforeAll(async () => {
  // An isolated var/ directory: fixtures in var/media, resized copies in var/cache/img.
  varDir = await mkdtemp(join(tmpdir(), 'shop-media-'))
  const media = join(varDir, 'media/test')
  await mkdir(media, { recursive: true })
  const photo = sharp({ create: { width: 800, height: 600, channels: 3, background: '#1d4f91' } })
  await writeFile(join(media, 'photo.jpg'), await photo.jpeg().toBuffer())
  const logo = sharp({
    create: { width: 400, height: 200, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0.5 } },
  })
  await writeFile(join(media, 'logo.png'), await logo.png().toBuffer())
  await writeFile(join(media, 'sign.svg'), svg)
  await writeFile(join(media, 'broken.png'), 'this is not a png')
  await writeFile(join(media, 'sheet.pdf'), '%PDF-1.4\n%%EOF\n')
  await writeFile(join(varDir, 'secret.png'), 'top secret')
  await writeFile(join(media, 'page.html'), '<script>alert(1)</script>')
  const paths = { ...loadConfig({ NODE_ENV: 'test' }).paths, var: varDir }
  t = await buildTestApp({ paths })
})
afterAll(async () => {
  await t?.close()
  if (varDir) await rm(varDir, { recursive: true, force: true })
})

const get = (url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ url, headers: { host: 'localhost', ...headers } })

describe('resized images', () => {
  it('resize a JPEG to the requested width and answer WebP when the browser accepts it', async () => {
    const res = await get('/img/media/test/photo.jpg?w=120', { accept: 'image/avif,image/webp,*/*' })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe('image/webp')
    expect(res.headers.vary).toMatch(/accept/i)
    const meta = await sharp(res.rawPayload).metadata()
    expect(meta.format).toBe('webp')
    expect(meta.width).toBe(120)
    expect(meta.height).toBe(90)
  })

  it('keep the source format when the browser does not accept WebP', async () => {
    const res = await get('/img/media/test/logo.png?w=100&h=100&fit=contain')
    expect(res.headers['content-type']).toBe('image/png')
    const meta = await sharp(res.rawPayload).metadata()
    expect(meta).toMatchObject({ format: 'png', width: 100, height: 100 })
  })

  it('use width 300 and quality 50 when no options are given', async () => {
    const plain = await get('/img/media/test/photo.jpg')
    const explicit = await get('/img/media/test/photo.jpg?w=300&q=50')
    expect((await sharp(plain.rawPayload).metadata()).width).toBe(300)
    expect(plain.headers['content-type']).toBe('image/jpeg')
    expect(plain.headers.etag).toBe(explicit.headers.etag)
  })

  it('are cached for a year as immutable, with a strong ETag that answers 304', async () => {
    const res = await get('/img/media/test/photo.jpg?w=200&q=70')
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    const etag = String(res.headers.etag)
    expect(etag).toMatch(/^"[^"]+"$/)
    const again = await get('/img/media/test/photo.jpg?w=200&q=70', { 'if-none-match': etag })
    expect(again.statusCode).toBe(304)
    expect(again.body).toBe('')
  })

  it('serve the second request from the disk cache with the same bytes', async () => {
    const first = await get('/img/media/test/photo.jpg?w=64&h=64&fit=cover')
    const second = await get('/img/media/test/photo.jpg?w=64&h=64&fit=cover')
    expect(first.headers['x-image-cache']).toBe('miss')
    expect(second.headers['x-image-cache']).toBe('hit')
    expect(second.rawPayload.equals(first.rawPayload)).toBe(true)
    const key = String(first.headers.etag).replaceAll('"', '')
    expect(existsSync(join(varDir, 'cache/img', key.slice(0, 2), `${key}.jpg`))).toBe(true)
  })

  it('do not enlarge a small image beyond its own size', async () => {
    const res = await get('/img/media/test/logo.png?w=1500')
    expect((await sharp(res.rawPayload).metadata()).width).toBe(400)
  })

  it('treat junk query values as the defaults', async () => {
    for (const query of [
      'w=abc&q=-1&fit=sideways',
      'w=0&h=x',
      'w[]=5&w[]=6',
      'w[a]=1&q[b]=2',
      'fit=cover&fit=fill',
    ]) {
      const res = await get(`/img/media/test/photo.jpg?${query}`)
      expect(res.statusCode, query).toBe(200)
      expect((await sharp(res.rawPayload).metadata()).width, query).toBe(300)
    }
    const huge = await get('/img/media/test/photo.jpg?w=999999&q=1000')
    expect(huge.statusCode).toBe(200)
    expect((await sharp(huge.rawPayload).metadata()).width).toBe(800)
  })
})

describe('SVG images', () => {
  it('pass through unchanged with a restrictive Content-Security-Policy', async () => {
    for (const url of ['/img/media/test/sign.svg?w=50', '/media/test/sign.svg']) {
      const res = await get(url)
      expect(res.statusCode, url).toBe(200)
      expect(res.headers['content-type'], url).toBe('image/svg+xml')
      expect(res.headers['content-security-policy'], url).toBe(
        "default-src 'none'; style-src 'unsafe-inline'",
      )
      expect(res.body, url).toBe(svg)
    }
  })
})

describe('originals', () => {
  it('serve documents with their content type and a validator', async () => {
    const res = await get('/media/test/sheet.pdf')
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe('application/pdf')
    expect(res.headers.etag).toBeTruthy()
    expect(res.headers['cache-control']).toBe('public, max-age=86400')
  })

  it('fall back to public/ for files that are not under var/media', async () => {
    const res = await get('/img/placeholder.svg')
    expect(res.statusCode).toBe(200)
    expect(res.rawPayload.equals(placeholder)).toBe(true)
  })

  it('never serve file types outside the whitelist', async () => {
    const res = await get('/media/test/page.html')
    expect(res.statusCode).toBe(404)
    expect(res.body).not.toContain('<script>')
  })
})

describe('missing and unreadable images', () => {
  it('answer the placeholder with 404, never a 500', async () => {
    for (const url of [
      '/img/media/test/missing.jpg?w=100',
      '/img/media/test/broken.png',
      '/media/test/missing.png',
      '/img/media/nowhere/x.svg',
    ]) {
      const res = await get(url)
      expect(res.statusCode, url).toBe(404)
      expect(res.headers['content-type'], url).toBe('image/svg+xml')
      expect(res.rawPayload.equals(placeholder), url).toBe(true)
      expect(res.headers['cache-control'], url).not.toContain('immutable')
    }
  })

  it('answer a plain 404 for a missing document', async () => {
    const res = await get('/media/test/missing.pdf')
    expect(res.statusCode).toBe(404)
    expect(res.headers['content-type']).toMatch(/json/)
  })
})

describe('path traversal', () => {
  it('is refused (404, or 400 for a control character) however it is written', async () => {
    const attempts = [
      '/img/../secret.png',
      '/img/media/../secret.png',
      '/img/media/%2e%2e/secret.png',
      '/img/media/test/%2e%2e%2f%2e%2e%2fsecret.png',
      '/img/media/..%2fsecret.png',
      '/img/media/%252e%252e/secret.png',
      '/img/media/..%5csecret.png',
      '/img/%2fetc%2fpasswd.png',
      '/media/%2e%2e/secret.png',
      '/media//etc/passwd.png',
      '/media/test/photo.jpg%00.png',
      '/media/.seed-catalog.json',
      '/media/',
      '/img/',
    ]
    for (const url of attempts) {
      const res = await get(url)
      expect(res.statusCode, url).toBe(url.includes('%00') ? 400 : 404)
      expect(res.body, url).not.toContain('top secret')
    }
  })

  it('meets malformed percent-encoding with a client error, not a 500', async () => {
    for (const url of ['/media/test/%zz.png', '/img/media/%e0%a4%a.png']) {
      const res = await get(url)
      expect([400, 404], url).toContain(res.statusCode)
    }
  })
})
