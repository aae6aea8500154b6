/**
 * Caching and transport headers of personal pages, and redirects that stay on the site.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, inertiaHeaders, type TestApp } from '../../helpers/app.ts'
import { Visitor } from '../auth/browser.ts'

const DEMO = { email: 'demo@harbour-safety.example', password: 'Harbour-demo-2026' }

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp({ trustProxy: true })
})
afterAll(() => t?.close())

let n = 0
const visitor = () => new Visitor(t.app, 'localhost', { 'x-forwarded-for': `10.7.0.${++n}` })

describe('Cache-Control', () => {
  it.each(['/', '/cart', '/search?q=sign', '/login', '/blog'])(
    '%s (HTML and Inertia JSON) is private, no-cache',
    async (url) => {
      const html = await t.app.inject({ url, headers: { host: 'localhost', accept: 'text/html' } })
      expect(html.headers['cache-control']).toBe('private, no-cache')
      const json = await t.app.inject({ url, headers: { host: 'localhost', ...inertiaHeaders() } })
      expect(json.headers['cache-control']).toBe('private, no-cache')
    },
  )

  it('logged-in pages carry the customer and are never shared', async () => {
    const v = visitor()
    await v.post('/login', { email: DEMO.email, password: DEMO.password })
    for (const url of ['/', '/cart', '/search?q=sign']) {
      const res = await v.visit(url)
      expect(res.body).toContain(DEMO.email)
      expect(res.headers['cache-control']).toBe('private, no-cache')
    }
    for (const url of ['/user/confirm-password', '/customer/two-factor']) {
      const res = await v.visit(url)
      expect(res.headers['cache-control']).toBe('private, no-store')
    }
  })

  it('two-factor challenge and password reset pages are no-store', async () => {
    for (const url of ['/two-factor-challenge', '/reset-password?token=x', '/email/verify']) {
      const res = await t.app.inject({ url, headers: { host: 'localhost', accept: 'text/html' } })
      expect(res.headers['cache-control']).toBe('private, no-store')
    }
  })

  it('JSON answers with the basket are private too', async () => {
    const res = await visitor().post('/cart/init', {}, { accept: 'application/json' })
    expect(res.headers['cache-control']).toBe('private, no-cache')
  })

  it('static files keep their own public caching', async () => {
    const res = await t.app.inject({ url: '/favicon.svg', headers: { host: 'localhost' } })
    expect(res.statusCode).toBe(200)
    expect(res.headers['cache-control']).toMatch(/^public/)
  })
})

describe('Strict-Transport-Security', () => {
  it('is sent on a request that arrived over HTTPS (through the trusted proxy)', async () => {
    const res = await t.app.inject({
      url: '/',
      headers: { host: 'localhost', accept: 'text/html', 'x-forwarded-proto': 'https' },
    })
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains')
  })

  it('is not sent over plain HTTP', async () => {
    const res = await t.app.inject({ url: '/', headers: { host: 'localhost', accept: 'text/html' } })
    expect(res.headers['strict-transport-security']).toBeUndefined()
  })
})

describe('redirects back', () => {
  it('never follow a Referer whose path is protocol-relative (//evil.example)', async () => {
    const v = visitor()
    const res = await v.post(
      '/login',
      { email: DEMO.email, password: 'wrong-password-1!', redirect: false },
      { referer: 'http://localhost//evil.example/x' },
    )
    expect(res.statusCode).toBe(303)
    expect(res.headers.location).not.toMatch(/^\/\//)
    expect(res.headers.location).not.toContain('evil.example')
  })

  it('follow a same-site Referer', async () => {
    const v = visitor()
    const res = await v.post(
      '/login',
      { email: DEMO.email, password: 'wrong-password-1!', redirect: false },
      { referer: 'http://localhost/cart?x=1' },
    )
    expect(res.headers.location).toBe('/cart?x=1')
  })
})
