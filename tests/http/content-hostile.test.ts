import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, cookieHeader, cookiesFrom, inertiaHeaders, type TestApp } from '../helpers/app.ts'

let t: TestApp
let headers: Record<string, string>
beforeAll(async () => {
  t = await buildTestApp()
  const first = await t.app.inject({ url: '/', headers: { host: 'localhost', accept: 'text/html' } })
  const cookies = cookiesFrom(first)
  headers = {
    host: 'localhost',
    cookie: cookieHeader(cookies),
    'x-xsrf-token': decodeURIComponent(cookies['XSRF-TOKEN']!),
    accept: 'application/json',
  }
})
afterAll(async () => {
  await t?.close()
})

describe('hostile input to the content endpoints', () => {
  it('never answers 500 to odd bodies', async () => {
    const cases: { url: string; type: string; payload: string }[] = [
      { url: '/newsletter/subscribe', type: 'application/json', payload: '{"email":' },
      { url: '/newsletter/subscribe', type: 'application/json', payload: '[]' },
      { url: '/newsletter/subscribe', type: 'application/json', payload: 'null' },
      {
        url: '/newsletter/subscribe',
        type: 'application/x-www-form-urlencoded',
        payload: 'email=a%40b.com&firstName=A',
      },
      { url: '/newsletter/subscribe', type: 'text/plain', payload: 'email=a@b.com' },
      { url: '/forms/contact', type: 'application/json', payload: '{"name":{"$gt":""},"email":1}' },
      { url: '/forms/contact', type: 'application/json', payload: '"just a string"' },
      { url: '/forms/CON', type: 'application/json', payload: '{}' },
    ]
    for (const c of cases) {
      const res = await t.app.inject({
        method: 'POST',
        url: c.url,
        headers: { ...headers, 'content-type': c.type },
        payload: c.payload,
      })
      expect(res.statusCode, `${c.url} ${c.type} ${c.payload}`).toBeLessThan(500)
    }
  })

  it('accepts the newsletter form posted as a plain form', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/newsletter/subscribe',
      headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'email=form%40example.com',
    })
    expect(res.statusCode).toBe(200)
  })

  it('answers Not Found to long or odd blog slugs', async () => {
    for (const slug of ['a'.repeat(400), 'Fire-Safety', 'fire_safety', '-x']) {
      const res = await t.app.inject({
        url: `/blog/${slug}`,
        headers: { host: 'localhost', ...inertiaHeaders() },
      })
      expect(res.statusCode, slug).toBe(404)
    }
    // A control character never reaches the content store: the input guard answers 400.
    const nul = await t.app.inject({
      url: '/blog/x%00y',
      headers: { host: 'localhost', ...inertiaHeaders() },
    })
    expect(nul.statusCode).toBe(400)
  })

  it('answers Not Found for content routes on an unknown host', async () => {
    for (const url of ['/blog', '/sitemap', '/sitemap.xml']) {
      const res = await t.app.inject({
        url,
        headers: { host: 'unknown.example', accept: 'application/json' },
      })
      expect(res.statusCode, url).toBe(404)
    }
  })
})
