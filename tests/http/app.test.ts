import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, cookieHeader, cookiesFrom, inertiaHeaders, type TestApp } from '../helpers/app.ts'

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp()
})
afterAll(async () => {
  await t?.close()
})

describe('health check', () => {
  it('answers ok with the database driver when the database responds', async () => {
    const res = await t.app.inject({ url: '/healthz' })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({ status: 'ok' })
  })
})

describe('multi-site', () => {
  it('renders the GBP brand on localhost and the USD brand on 127.0.0.1', async () => {
    const gb = await t.app.inject({ url: '/', headers: { host: 'localhost:3000', ...inertiaHeaders() } })
    const us = await t.app.inject({ url: '/', headers: { host: '127.0.0.1:3000', ...inertiaHeaders() } })
    const gbSite = gb.json().props.site
    const usSite = us.json().props.site
    expect(gbSite).toMatchObject({
      name: 'Harbour Safety Supplies',
      currency: 'GBP',
      locale: 'en-GB',
      cartName: 'Basket',
    })
    expect(usSite).toMatchObject({
      name: 'Northgate Workplace',
      currency: 'USD',
      locale: 'en-US',
      cartName: 'Cart',
    })
    expect(gbSite.theme.colours.primary).not.toBe(usSite.theme.colours.primary)
  })

  it('shows the SiteSetup page with 404 for a host that is not configured', async () => {
    const res = await t.app.inject({ url: '/', headers: { host: 'unknown.example', ...inertiaHeaders() } })
    expect(res.statusCode).toBe(404)
    expect(res.json().component).toBe('SiteSetup')
  })

  it('shares the visitor as logged out with an empty basket', async () => {
    const res = await t.app.inject({ url: '/', headers: { host: 'localhost', ...inertiaHeaders() } })
    expect(res.json().props.auth).toEqual({ customer: null })
    expect(res.json().props.cart).toEqual({ count: 0, total: 0 })
  })
})

describe('pages', () => {
  it('renders a content page with sanitised breadcrumbs, meta and canonical link', async () => {
    const res = await t.app.inject({ url: '/about-us', headers: { host: 'localhost', ...inertiaHeaders() } })
    expect(res.statusCode).toBe(200)
    const page = res.json()
    expect(page.component).toBe('Page')
    expect(page.props.title).toBe('About Harbour Safety Supplies')
    expect(page.props.canonical).toBe('http://localhost/about-us')
    expect(page.props.breadcrumbs.at(-1)).toEqual({ name: 'About <strong>Harbour</strong>', url: null })
  })

  it('gives each site its own content for the same slug', async () => {
    const res = await t.app.inject({ url: '/about-us', headers: { host: '127.0.0.1', ...inertiaHeaders() } })
    expect(res.json().props.title).toBe('About Northgate Workplace')
  })

  it('renders the FastOrder placeholder page', async () => {
    const res = await t.app.inject({
      url: '/fast-order',
      headers: { host: 'localhost', ...inertiaHeaders() },
    })
    expect(res.json().component).toBe('FastOrder')
  })

  it('answers an unknown path with the Not Found page and status 404', async () => {
    const res = await t.app.inject({
      url: '/no-such-page',
      headers: { host: 'localhost', ...inertiaHeaders() },
    })
    expect(res.statusCode).toBe(404)
    expect(res.json().component).toBe('NotFound')
  })

  it('answers a first load of an unknown path with an HTML 404 document', async () => {
    const res = await t.app.inject({
      url: '/no/such/page',
      headers: { host: 'localhost', accept: 'text/html' },
    })
    expect(res.statusCode).toBe(404)
    expect(res.headers['content-type']).toContain('text/html')
    expect(res.body).not.toContain('&quot;component&quot;')
    expect(res.body).toContain('"component":"NotFound"')
  })

  it('answers JSON clients with JSON errors', async () => {
    const res = await t.app.inject({
      url: '/no-such-page',
      headers: { host: 'localhost', accept: 'application/json' },
    })
    expect(res.statusCode).toBe(404)
    expect(res.json()).toEqual({ message: 'Not Found' })
  })
})

describe('sessions and cookies', () => {
  it('does not create a session for an anonymous page view', async () => {
    const res = await t.app.inject({ url: '/', headers: { host: 'localhost', accept: 'text/html' } })
    expect(res.cookies.map((c) => c.name)).not.toContain('shop_session')
  })

  it('issues a JS-readable XSRF-TOKEN cookie with HttpOnly secret on a page response', async () => {
    const res = await t.app.inject({ url: '/', headers: { host: 'localhost', accept: 'text/html' } })
    const xsrf = res.cookies.find((c) => c.name === 'XSRF-TOKEN')
    const secret = res.cookies.find((c) => c.name === 'shop_csrf')
    expect(xsrf?.httpOnly).toBeFalsy()
    expect(xsrf?.sameSite).toBe('Lax')
    expect(secret?.httpOnly).toBe(true)
  })
})

describe('CSRF', () => {
  it('refuses a POST without a token with 419 and a clear message, before any handler runs', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/about-us',
      headers: { host: 'localhost', ...inertiaHeaders() },
      payload: { a: 1 },
    })
    expect(res.statusCode).toBe(419)
    expect(res.json().component).toBe('Error')
    expect(res.json().props.message).toBe('This page has expired. Please refresh the page and try again.')
  })

  it('refuses a token that does not match the browser secret', async () => {
    const first = await t.app.inject({ url: '/', headers: { host: 'localhost', accept: 'text/html' } })
    const cookies = cookiesFrom(first)
    const res = await t.app.inject({
      method: 'POST',
      url: '/logout',
      headers: {
        host: 'localhost',
        cookie: cookieHeader(cookies),
        'x-xsrf-token': 'forged',
        accept: 'application/json',
      },
    })
    expect(res.statusCode).toBe(419)
    expect(res.json()).toEqual({ message: 'This page has expired. Please refresh the page and try again.' })
  })

  it('lets a request with the matching token through to routing', async () => {
    const first = await t.app.inject({ url: '/', headers: { host: 'localhost', accept: 'text/html' } })
    const cookies = cookiesFrom(first)
    const res = await t.app.inject({
      method: 'POST',
      url: '/no-such-endpoint',
      headers: {
        host: 'localhost',
        cookie: cookieHeader(cookies),
        'x-xsrf-token': decodeURIComponent(cookies['XSRF-TOKEN']!),
        accept: 'application/json',
      },
    })
    expect(res.statusCode).toBe(404)
  })
})

describe('hostile input', () => {
  const post = (contentType: string, payload: string) =>
    t.app.inject({
      method: 'POST',
      url: '/about-us',
      headers: { host: 'localhost', 'content-type': contentType, accept: 'application/json' },
      payload,
    })

  it.each([
    ['an oversized body', 'application/json', JSON.stringify({ big: 'x'.repeat(2 * 1024 * 1024) }), [413]],
    ['a malformed JSON body', 'application/json', '{"a":', [400]],
    // Refused as 419 (no CSRF token) or 415, whichever check runs first: never a 500.
    ['an unsupported content type', 'application/x-evil', 'x', [415, 419]],
  ])('answers %s with a clear 4xx, not 500', async (_what, contentType, payload, statuses) => {
    const res = await post(contentType, payload)
    expect(statuses).toContain(res.statusCode)
    expect(res.json().message).toEqual(expect.any(String))
  })

  it('survives deeply nested and oversized query strings', async () => {
    const deep = 'a' + '[b]'.repeat(50) + '=1'
    const many = Array.from({ length: 2000 }, (_, i) => `k${i}=${i}`).join('&')
    for (const q of [deep, many, '%E0%A4%A', '__proto__[x]=1']) {
      const res = await t.app.inject({ url: `/?${q}`, headers: { host: 'localhost', ...inertiaHeaders() } })
      expect(res.statusCode, q.slice(0, 30)).toBeLessThan(500)
    }
  })

  it('never leaks a stack trace outside development', async () => {
    const res = await post('application/json', '{"a":')
    expect(res.body).not.toMatch(/at .*\.ts:\d+/)
  })
})

describe('security headers', () => {
  it('sends a nonce-based Content-Security-Policy for scripts and common hardening headers', async () => {
    const res = await t.app.inject({ url: '/', headers: { host: 'localhost', accept: 'text/html' } })
    const csp = String(res.headers['content-security-policy'])
    expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+'/)
    expect(csp).toContain("object-src 'none'")
    expect(res.headers['x-content-type-options']).toBe('nosniff')
    expect(res.headers['vary']).toMatch(/x-inertia/i)
  })
})
