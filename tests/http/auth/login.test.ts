import type * as Argon2 from '@node-rs/argon2'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { buildTestApp, type TestApp } from '../../helpers/app.ts'
import { Visitor } from './browser.ts'

/** The hashes each argon2 verification was asked to check, in order. */
const argon2 = vi.hoisted(() => ({ verified: [] as string[] }))
vi.mock('@node-rs/argon2', async (importOriginal) => {
  const real = await importOriginal<typeof Argon2>()
  return {
    ...real,
    verify: (hashed: string, password: string) => {
      argon2.verified.push(hashed)
      return real.verify(hashed, password)
    },
  }
})

const DEMO = { email: 'demo@harbour-safety.example', password: 'Harbour-demo-2026' }

let t: TestApp
beforeAll(async () => {
  // Behind a trusted proxy, so each test's X-Forwarded-For is its own client address.
  t = await buildTestApp({ trustProxy: true })
})
afterAll(() => t?.close())

const visitor = (ip = '10.0.0.1') => new Visitor(t.app, 'localhost', { 'x-forwarded-for': ip })

describe('log in', () => {
  it('renders the Log In page', async () => {
    const res = await visitor().visit('/login')
    expect(res.statusCode).toBe(200)
    expect(res.json().component).toBe('Auth/Login')
  })

  it('logs a customer in, rotating the session id, and shows them in the shared props', async () => {
    const v = visitor()
    await v.post('/login', { email: 'nobody@example.com', password: 'wrong-password-1!' })
    const before = v.sessionId
    expect(before).toBeDefined()
    const res = await v.post('/login', { ...DEMO, remember: '', redirect: true })
    expect(res.statusCode).toBe(303)
    expect(res.headers.location).toBe('/')
    expect(v.sessionId).toBeDefined()
    expect(v.sessionId).not.toBe(before)
    const home = await v.visit('/')
    expect(home.json().props.auth.customer).toMatchObject({ email: DEMO.email, firstName: 'Dana' })
  })

  it('accepts the e-mail address in any case and with spaces around it', async () => {
    const v = visitor('10.0.0.2')
    await v.post('/login', { email: '  DEMO@Harbour-Safety.example ', password: DEMO.password })
    expect((await v.visit('/')).json().props.auth.customer?.email).toBe(DEMO.email)
  })

  it('stores the customer id under the session key customerId', async () => {
    const v = visitor('10.0.0.3')
    await v.post('/login', DEMO)
    const { sessions } = await import('../../../src/server/db/schema.ts')
    const rows = await t.app.db.select().from(sessions)
    const mine = rows.find((r) => v.sessionId?.startsWith(r.id))
    expect(mine?.data.customerId).toEqual(expect.any(Number))
  })

  it('answers a wrong password and an unknown e-mail with byte-identical responses', async () => {
    const strip = (h: Record<string, unknown>) => {
      // x-ratelimit-* count the client's own requests (global limiter), not the account.
      const {
        date: _d,
        'set-cookie': cookies,
        'x-ratelimit-remaining': _r,
        'x-ratelimit-reset': _s,
        ...rest
      } = h
      // The CSP nonce is fresh on every response by design.
      const csp = String(rest['content-security-policy'] ?? '').replace(/'nonce-[^']+'/, "'nonce'")
      return {
        ...rest,
        'content-security-policy': csp,
        cookieNames: ([] as string[]).concat((cookies as string[]) ?? []).map((c) => c.split('=')[0]),
      }
    }
    const a = visitor('10.0.1.1')
    const b = visitor('10.0.1.2')
    const known = await a.post('/login', { email: DEMO.email, password: 'Not-the-password-1' })
    const unknown = await b.post('/login', {
      email: 'nobody-at-all@harbour-safety.example',
      password: 'Not-the-password-1',
    })
    expect(known.statusCode).toBe(unknown.statusCode)
    expect(known.body).toBe(unknown.body)
    expect(strip(known.headers)).toEqual(strip(unknown.headers))
    const pageA = (await a.visit('/login')).json()
    const pageB = (await b.visit('/login')).json()
    expect(pageA.props.errors).toEqual({ email: 'These credentials do not match our records.' })
    expect(pageB.props.errors).toEqual(pageA.props.errors)
  })

  it('does the same argon2 work for an unknown e-mail as for a known one: one verification with the same parameters', async () => {
    // Timing is not measured (a busy machine makes it noise): the work that sets it is counted.
    const verifications = async (email: string, ip: string) => {
      const v = visitor(ip)
      await v.ensureToken()
      argon2.verified.length = 0
      await v.post('/login', { email, password: 'Not-the-password-1' })
      // '$argon2id$v=19$m=19456,t=2,p=1$salt$hash': the algorithm, version and costs.
      return argon2.verified.map((h) => h.split('$').slice(1, 4).join('$'))
    }
    const known = await verifications(DEMO.email, '10.0.2.1')
    expect(known).toEqual(['argon2id$v=19$m=19456,t=2,p=1'])
    expect(await verifications('ghost@harbour-safety.example', '10.0.3.1')).toEqual(known)
  })

  it('rejects missing and malformed fields with the spec messages and changes nothing', async () => {
    const v = visitor('10.0.4.1')
    const res = await v.post('/login', { email: 'not-an-email', password: '' })
    expect(res.statusCode).toBe(303)
    const page = (await v.visit('/login')).json()
    expect(page.props.errors).toEqual({
      email: 'This email provided is invalid.',
      password: 'This field is required.',
    })
    expect(page.props.auth.customer).toBeNull()
  })

  it('survives hostile input without a 500', async () => {
    const v = visitor('10.0.4.2')
    for (const payload of [
      { email: ['a@b.c'], password: { $ne: 1 } },
      { email: 'a'.repeat(10_000) + '@x.y', password: 'x'.repeat(10_000) },
      { email: "' or 1=1 --@x.y", password: "'; drop table customers; --" },
      { __proto__: { admin: true }, email: 'a@b.c', password: 'x' },
    ]) {
      const res = await v.post('/login', payload as Record<string, unknown>)
      expect(res.statusCode).toBeLessThan(500)
    }
  })

  it('refuses a log-in without the CSRF token', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/login',
      headers: { host: 'localhost', accept: 'application/json' },
      payload: DEMO,
    })
    expect(res.statusCode).toBe(419)
  })

  it('stays on the page it came from when redirect is false (checkout)', async () => {
    const v = visitor('10.0.4.3')
    const res = await v.post('/login', { ...DEMO, redirect: false }, { referer: 'http://localhost/checkout' })
    expect(res.headers.location).toBe('/checkout')
  })

  it('returns to the basket after logging in from it, and never to another site', async () => {
    const v = visitor('10.0.4.5')
    await v.visit('/login?intended=%2Fcart')
    const res = await v.post('/login', { ...DEMO, remember: '', redirect: true })
    expect(res.headers.location).toBe('/cart')
    // Used once: the next log-in goes home.
    await v.post('/logout', {})
    expect((await v.post('/login', { ...DEMO, remember: '', redirect: true })).headers.location).toBe('/')

    const w = visitor('10.0.4.6')
    await w.visit('/login?intended=' + encodeURIComponent('https://evil.example/cart'))
    expect((await w.post('/login', { ...DEMO, remember: '', redirect: true })).headers.location).toBe('/')
  })

  it('sends an unverified customer to the verification notice after logging in', async () => {
    const v = visitor('10.0.4.4')
    await v.post('/customer/create', {
      first_name: 'Una',
      last_name: 'Verified',
      email: 'una@example.com',
      password: 'Correct-horse-9',
      password_confirmation: 'Correct-horse-9',
    })
    await t.app.auth.deferred.drain()
    const res = await v.post('/login', { email: 'una@example.com', password: 'Correct-horse-9' })
    expect(res.headers.location).toBe('/email/verify')
  })
})

describe('log out', () => {
  it('forgets the customer, rotates the session and destroys the old one on the server', async () => {
    const v = visitor('10.0.5.1')
    await v.post('/login', DEMO)
    const loggedIn = v.sessionId!
    const res = await v.post('/logout', {})
    expect(res.statusCode).toBe(303)
    expect(v.sessionId).not.toBe(loggedIn)
    expect((await v.visit('/')).json().props.auth.customer).toBeNull()
    // Replaying the old cookie gives a visitor, not the customer.
    const replay = await t.app.inject({
      url: '/',
      headers: {
        host: 'localhost',
        cookie: `shop_session=${loggedIn}`,
        'x-inertia': 'true',
        'x-inertia-version': t.app.assetVersion,
      },
    })
    expect(replay.json().props.auth.customer).toBeNull()
  })
})

describe('remember me', () => {
  it('logs the customer back in with a rotating token, and a replayed old token revokes them all', async () => {
    const v = visitor('10.0.6.1')
    await v.post('/login', { ...DEMO, remember: 'on' })
    const first = v.jar.get('shop_remember')
    expect(first).toBeDefined()
    // A new browser session: only the remember cookie survives.
    const fresh = visitor('10.0.6.1')
    fresh.jar.set('shop_remember', first!)
    expect((await fresh.visit('/')).json().props.auth.customer?.email).toBe(DEMO.email)
    const second = fresh.jar.get('shop_remember')
    expect(second).toBeDefined()
    expect(second).not.toBe(first)
    // The stolen first value is used again: refused, and the rotated one stops working too.
    const thief = visitor('10.0.6.2')
    thief.jar.set('shop_remember', first!)
    expect((await thief.visit('/')).json().props.auth.customer).toBeNull()
    const owner = visitor('10.0.6.1')
    owner.jar.set('shop_remember', second!)
    expect((await owner.visit('/')).json().props.auth.customer).toBeNull()
  })

  it('ends the remember-me token at log-out', async () => {
    const v = visitor('10.0.6.3')
    await v.post('/login', { ...DEMO, remember: 'on' })
    const token = v.jar.get('shop_remember')!
    await v.post('/logout', {})
    expect(v.jar.get('shop_remember')).toBeUndefined()
    const again = visitor('10.0.6.3')
    again.jar.set('shop_remember', token)
    expect((await again.visit('/')).json().props.auth.customer).toBeNull()
  })
})
