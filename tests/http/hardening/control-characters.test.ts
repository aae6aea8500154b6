/**
 * Control characters (NUL first: PostgreSQL cannot store it) in every field of every route a
 * visitor can reach: never a 5xx, never an internal detail (SQL, a session id, a stack) in the
 * body. Form fields get a message under the field; the URL is refused by the one error handler.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../../helpers/app.ts'
import { Visitor } from '../auth/browser.ts'
import { insertCategory, insertGroup, insertSku, siteIdFor } from '../../factories/product.ts'

const DEMO = { email: 'demo@harbour-safety.example', password: 'Harbour-demo-2026' }
const CONTROLS = ['\u0000', '\u0001', '\u001b', '\u007f', '\u0085']

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp({ trustProxy: true })
})
afterAll(() => t?.close())

let ip = 0
const visitor = () =>
  new Visitor(t.app, 'localhost', { 'x-forwarded-for': `10.9.${Math.floor(ip / 250)}.${(ip++ % 250) + 1}` })

/** Nothing internal: no SQL, no stack, no session id, no driver message. */
function expectNothingInternal(body: string, sessionId?: string) {
  expect(body).not.toMatch(/\b(select|insert into|update|delete from)\b.+\b(from|set|values|where)\b/i)
  expect(body).not.toMatch(
    /Failed query|invalid byte sequence|unsupported Unicode|at .+\.ts:\d+|node_modules/,
  )
  if (sessionId) expect(body).not.toContain(decodeURIComponent(sessionId).split('.')[0])
}

interface FormRoute {
  url: string
  base: Record<string, unknown>
  fields: string[]
  /** Log the visitor in first */
  customer?: boolean
}

const strongPassword = 'Correct-horse-42'
const ROUTES: FormRoute[] = [
  {
    url: '/login',
    base: { email: DEMO.email, password: 'wrong-password-1!' },
    fields: ['email', 'password'],
  },
  {
    url: '/customer/create',
    base: {
      email: 'new@example.com',
      first_name: 'Ann',
      last_name: 'Lee',
      password: strongPassword,
      password_confirmation: strongPassword,
      terms: true,
    },
    fields: ['email', 'first_name', 'last_name', 'password', 'password_confirmation'],
  },
  { url: '/forgot-password', base: { email: 'someone@example.com' }, fields: ['email'] },
  {
    url: '/reset-password',
    base: {
      token: 'abc',
      email: 'someone@example.com',
      password: strongPassword,
      password_confirmation: strongPassword,
    },
    fields: ['token', 'email', 'password', 'password_confirmation'],
  },
  {
    url: '/newsletter/subscribe',
    base: { email: 'n@example.com', firstName: 'N' },
    fields: ['email', 'firstName', 'source'],
  },
  {
    url: '/forms/contact',
    base: {
      name: 'Ann',
      email: 'ann@example.com',
      phone: '01234 567890',
      message: 'Hello there, a question.',
    },
    fields: ['name', 'email', 'phone', 'message'],
  },
  {
    url: '/cart/update-cart',
    base: { promotionCodes: ['SAVE10'] },
    fields: ['despatch_type', 'shippingZone'],
  },
  { url: '/cart/share', base: { emails: 'a@example.com', name: 'Ann' }, fields: ['emails', 'name'] },
  { url: '/cart/save', base: { basketName: 'Mine' }, fields: ['basketName'], customer: true },
  { url: '/user/confirm-password', base: { password: DEMO.password }, fields: ['password'], customer: true },
  { url: '/two-factor-challenge', base: { code: '123456' }, fields: ['code', 'recovery_code'] },
]

async function loggedIn(): Promise<Visitor> {
  const v = visitor()
  const res = await v.post('/login', { email: DEMO.email, password: DEMO.password })
  expect(res.statusCode).toBeLessThan(400)
  return v
}

describe('control characters in form fields', () => {
  for (const route of ROUTES) {
    for (const field of route.fields) {
      it(`${route.url} refuses them in ${field} without a 5xx or internals`, async () => {
        const v = route.customer ? await loggedIn() : visitor()
        for (const c of CONTROLS) {
          const res = await v.post(route.url, { ...route.base, [field]: `a${c}b@example.com` })
          expect(res.statusCode, `${JSON.stringify(c)}: ${res.body.slice(0, 300)}`).toBeLessThan(500)
          expectNothingInternal(res.body, v.sessionId)
          // The session still works afterwards (it could be saved).
          const after = await v.visit('/cart')
          expect(after.statusCode).toBeLessThan(500)
        }
      })
    }
  }

  it('promotional codes with NUL answer 422 with a message under the field', async () => {
    const v = visitor()
    const db = t.app.db
    const siteId = await siteIdFor(db)
    const group = await insertGroup(db, { siteId, categoryId: (await insertCategory(db, { siteId })).id })
    const sku = await insertSku(db, { siteId, groupId: group.id })
    expect((await v.post('/cart/add', { items: [{ listing_id: sku.id, quantity: 1 }] })).statusCode).toBe(200)
    const res = await v.post(
      '/cart/update-cart',
      { promotionCodes: ['SAVE\u000010'] },
      { accept: 'application/json' },
    )
    expect(res.statusCode).toBe(422)
    expect(JSON.stringify(res.json().errors)).toContain('control')
  })

  it('a login e-mail with NUL gets the message under the field', async () => {
    const v = visitor()
    await v.post('/login', { email: 'x\u0000@example.com', password: 'whatever-1!' })
    const page = (await v.visit('/login')).json()
    expect(page.props.errors.email).toMatch(/control/)
  })
})

describe('control characters in the URL', () => {
  const urls = [
    '/login?intended=/%00',
    '/login?intended=%2F%01x',
    '/search?q=a%00b',
    '/search?q=ok&sort=%00',
    '/search?q=ok&page=%00',
    '/cart?sku=%00',
    '/%00',
    '/signs%00',
    '/blog/%00',
    '/reset-password?token=%00',
    '/email/verify/1/%00',
    '/imagemap/%00',
    '/img/x%00.png',
  ]
  for (const url of urls) {
    it(`${url} is refused by the error handler (4xx, nothing internal)`, async () => {
      const v = visitor()
      const page = await v.visit(url)
      expect(page.statusCode).toBeGreaterThanOrEqual(400)
      expect(page.statusCode).toBeLessThan(500)
      expectNothingInternal(page.body, v.sessionId)
      const json = await t.app.inject({ url, headers: { host: 'localhost', accept: 'application/json' } })
      expect(json.statusCode).toBeLessThan(500)
      expectNothingInternal(json.body)
    })
  }

  it('a non-Latin-1 intended path is followed, percent-encoded, after a correct login', async () => {
    const v = visitor()
    await v.visit('/login?intended=' + encodeURIComponent('/search?q=€ü'))
    const res = await v.post('/login', { email: DEMO.email, password: DEMO.password })
    expect(res.statusCode).toBeLessThan(500)
    expect([res.headers.location, res.headers['x-inertia-location']].join(' ')).toContain(
      '/search?q=%E2%82%AC%C3%BC',
    )
  })

  it('an intended path to another site is ignored', async () => {
    const v = visitor()
    await v.visit('/login?intended=' + encodeURIComponent('//evil.example/x'))
    const res = await v.post('/login', { email: DEMO.email, password: DEMO.password })
    expect(String(res.headers.location ?? '')).not.toContain('evil.example')
  })
})
