/**
 * Absolute URLs come from the site's configured host (modules/sites/site-url.ts), never from a
 * Host or X-Forwarded-Host header, and the site is resolved from the same host name Fastify
 * reports. Run behind a trusted proxy, where X-Forwarded-Host is believed for picking the site.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, inertiaHeaders, type TestApp } from '../../helpers/app.ts'

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp({ trustProxy: true })
})
afterAll(() => t?.close())

const EVIL = 'evil.example'

async function page(url: string, headers: Record<string, string>) {
  return t.app.inject({ url, headers: { ...inertiaHeaders(), ...headers } })
}

describe('absolute URLs under forged host headers', () => {
  it('a forged X-Forwarded-Host for an unknown host gets the site set-up page, no links to it', async () => {
    const res = await page('/', { host: 'localhost', 'x-forwarded-host': EVIL })
    expect(res.statusCode).toBe(404)
    expect(res.json().component).toBe('SiteSetup')
  })

  it('a forged X-Forwarded-Host naming a known site with a port keeps the configured host in links', async () => {
    const res = await page('/', { host: EVIL, 'x-forwarded-host': 'localhost:6666' })
    expect(res.json().props.site.baseUrl).toBe('http://localhost')
  })

  it('canonical, JSON-LD base and sitemap never carry the forged host', async () => {
    const headers = { host: `localhost`, 'x-forwarded-host': `localhost:1234` }
    for (const url of ['/', '/blog', '/sitemap', '/cart']) {
      const res = await page(url, headers)
      expect(res.body, url).not.toContain(':1234')
      expect(res.body, url).not.toContain(EVIL)
    }
    const xml = await t.app.inject({
      url: '/sitemap.xml',
      headers: { host: EVIL, 'x-forwarded-host': 'localhost' },
    })
    expect(xml.body).toContain('<loc>http://localhost/')
    expect(xml.body).not.toContain(EVIL)
    const robots = await t.app.inject({
      url: '/robots.txt',
      headers: { host: EVIL, 'x-forwarded-host': 'localhost' },
    })
    expect(robots.body).toContain('Sitemap: http://localhost/sitemap.xml')
  })

  it('the scheme follows X-Forwarded-Proto from the trusted proxy', async () => {
    const res = await page('/', { host: 'localhost', 'x-forwarded-proto': 'https' })
    expect(res.json().props.site.baseUrl).toBe('https://localhost')
  })

  it('the other brand is picked by its own host name and links to it', async () => {
    const res = await page('/', { host: EVIL, 'x-forwarded-host': '127.0.0.1' })
    expect(res.json().props.site.baseUrl).toBe('http://127.0.0.1')
  })
})

describe('without a trusted proxy', () => {
  let plain: TestApp
  beforeAll(async () => {
    plain = await buildTestApp()
  })
  afterAll(() => plain?.close())

  it('ignores X-Forwarded-Host and a port in the Host header', async () => {
    const res = await plain.app.inject({
      url: '/',
      headers: { ...inertiaHeaders(), host: 'localhost:7777', 'x-forwarded-host': EVIL },
    })
    expect(res.json().props.site.baseUrl).toBe('http://localhost')
    expect(res.body).not.toContain(EVIL)
    expect(res.body).not.toContain(':7777')
  })
})
