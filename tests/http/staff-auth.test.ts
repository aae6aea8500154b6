/** The back office's sign-in: password, required two-factor, sessions that expire, throttling, CSRF. */
import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { staffSessions, staffUsers } from '../../src/server/modules/staff/staff.tables.ts'
import { buildTestApp, type TestApp } from '../helpers/app.ts'
import { codeFor, makeStaff, signIn, STAFF_PASSWORD, StaffBrowser } from './staff.fixture.ts'

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp({ trustProxy: true })
})
afterAll(() => t?.close())

describe('signing in to the back office', () => {
  it('sends a signed-out visitor to the sign-in page, which is noindex with a strict CSP', async () => {
    const b = new StaffBrowser(t.app)
    const res = await b.visit('/admin/orders')
    expect(res.statusCode).toBe(303)
    expect(res.headers.location).toBe('/admin/login')
    const page = await t.app.inject({
      url: '/admin/login',
      headers: { host: 'localhost', accept: 'text/html' },
    })
    expect(page.statusCode).toBe(200)
    expect(page.headers['x-robots-tag']).toBe('noindex, nofollow')
    expect(page.body).toContain('<meta name="robots" content="noindex, nofollow">')
    const csp = String(page.headers['content-security-policy'])
    expect(csp).toContain("default-src 'none'")
    expect(csp).toContain("frame-ancestors 'none'")
    expect(csp).toMatch(/script-src 'self' 'nonce-[^']+'/)
    expect(page.headers['cache-control']).toBe('private, no-store')
  })

  it('asks for the code after the password, and only the code makes the session full under a new cookie', async () => {
    const who = await makeStaff(t.app, 'staff')
    const b = new StaffBrowser(t.app)
    const login = await b.post('/admin/login', { email: who.email, password: STAFF_PASSWORD })
    expect(login.headers.location).toBe('/admin/two-factor')
    const cookie = login.cookies.find((c) => c.name === 'shop_admin')!
    expect(cookie).toMatchObject({ path: '/admin', httpOnly: true, sameSite: 'Strict' })
    const halfToken = b.jar.get('shop_admin')!
    // Part-way through, the orders are out of reach.
    expect((await b.visit('/admin/orders')).headers.location).toBe('/admin/two-factor')
    const wrong = await b.post('/admin/two-factor', { code: '000000' })
    expect(wrong.statusCode).toBe(422)
    expect(wrong.json().props.errors.code).toBe('The provided two factor authentication code was invalid.')
    const ok = await b.post('/admin/two-factor', { code: codeFor(who.secret) })
    expect(ok.headers.location).toBe('/admin/orders')
    expect(b.jar.get('shop_admin')).not.toBe(halfToken)
    expect((await b.visit('/admin/orders')).json().component).toBe('admin/Orders')
    // The token from before the code is worth nothing now.
    const replay = await t.app.inject({
      url: '/admin/orders',
      headers: { host: 'localhost', cookie: `shop_admin=${halfToken}` },
    })
    expect(replay.headers.location).toBe('/admin/login')
  })

  it('refuses a wrong password and an unknown e-mail with the same message, and nothing is signed in', async () => {
    const who = await makeStaff(t.app, 'viewer')
    const b = new StaffBrowser(t.app)
    const wrong = await b.post('/admin/login', { email: who.email, password: 'Not-the-password-1' })
    const unknown = await b.post('/admin/login', {
      email: 'nobody@staff.example',
      password: 'Not-the-password-1',
    })
    expect(wrong.statusCode).toBe(422)
    expect(wrong.json().props.errors.email).toBe(unknown.json().props.errors.email)
    expect(b.jar.has('shop_admin')).toBe(false)
  })

  it('makes an account without two-factor set it up before anything else, then lets it in', async () => {
    const who = await makeStaff(t.app, 'staff', { twoFactor: false })
    const b = new StaffBrowser(t.app)
    const login = await b.post('/admin/login', { email: who.email, password: STAFF_PASSWORD })
    expect(login.headers.location).toBe('/admin/two-factor/setup')
    expect((await b.visit('/admin/orders')).headers.location).toBe('/admin/two-factor/setup')
    expect((await b.visit('/admin/two-factor')).headers.location).toBe('/admin/two-factor/setup')
    const setup = await b.visit('/admin/two-factor/setup')
    const { secret, qrCode } = setup.json().props as { secret: string; qrCode: string }
    expect(qrCode).toContain('<svg')
    expect((await b.post('/admin/two-factor/setup', { code: '12345' })).statusCode).toBe(422)
    const done = await b.post('/admin/two-factor/setup', { code: codeFor(secret) })
    expect(done.headers.location).toBe('/admin/orders')
    const [row] = await t.app.db.select().from(staffUsers).where(eq(staffUsers.id, who.id))
    expect(row!.twoFactorConfirmedAt).not.toBeNull()
  })

  it('ends a session idle for 30 minutes and one older than 12 hours', async () => {
    const who = await makeStaff(t.app, 'staff')
    const idle = await signIn(t.app, who)
    await t.app.db
      .update(staffSessions)
      .set({ lastSeenAt: sql`now() - interval '31 minutes'` })
      .where(eq(staffSessions.staffUserId, who.id))
    expect((await idle.visit('/admin/orders')).headers.location).toBe('/admin/login')

    const other = await makeStaff(t.app, 'staff')
    const old = await signIn(t.app, other)
    await t.app.db
      .update(staffSessions)
      .set({ createdAt: sql`now() - interval '12 hours 1 minute'` })
      .where(eq(staffSessions.staffUserId, other.id))
    expect((await old.visit('/admin/orders')).headers.location).toBe('/admin/login')
    expect(
      await t.app.db.select().from(staffSessions).where(eq(staffSessions.staffUserId, other.id)),
    ).toHaveLength(0)
  })

  it('signs out: the cookie is cleared and its session is gone', async () => {
    const who = await makeStaff(t.app, 'viewer')
    const b = await signIn(t.app, who)
    const out = await b.post('/admin/logout', {})
    expect(out.headers.location).toBe('/admin/login')
    expect((await b.visit('/admin/orders')).headers.location).toBe('/admin/login')
  })

  it('throttles password guesses for an account from one address with the customers’ rule', async () => {
    const who = await makeStaff(t.app, 'staff')
    const b = new StaffBrowser(t.app)
    const answers: number[] = []
    for (let i = 0; i < 6; i++)
      answers.push(
        (await b.post('/admin/login', { email: who.email, password: `Wrong-pass-${i}!` })).statusCode,
      )
    expect(answers.slice(0, 4)).toEqual([422, 422, 422, 422])
    expect(answers[4]).toBe(429)
    // Locked: even the right password is refused for now.
    const right = await b.post('/admin/login', { email: who.email, password: STAFF_PASSWORD })
    expect(right.statusCode).toBe(429)
    expect(right.json().props.errors.email).toMatch(/^Too many login attempts/)
  })

  it('refuses a state-changing request without the back office’s CSRF token, or with the shop’s', async () => {
    const who = await makeStaff(t.app, 'staff')
    const b = new StaffBrowser(t.app)
    await b.visit('/admin/login')
    const none = await b.post(
      '/admin/login',
      { email: who.email, password: STAFF_PASSWORD },
      { 'x-admin-csrf': '' },
    )
    expect(none.statusCode).toBe(419)
    const forged = await b.post(
      '/admin/login',
      { email: who.email, password: STAFF_PASSWORD },
      { 'x-admin-csrf': 'forged-token-forged-token-forged-token-xx' },
    )
    expect(forged.statusCode).toBe(419)
    expect(b.jar.has('shop_admin')).toBe(false)
  })

  it('refuses a disabled account at sign-in', async () => {
    const who = await makeStaff(t.app, 'staff')
    await t.app.db.update(staffUsers).set({ disabledAt: new Date() }).where(eq(staffUsers.id, who.id))
    const b = new StaffBrowser(t.app)
    expect((await b.post('/admin/login', { email: who.email, password: STAFF_PASSWORD })).statusCode).toBe(
      422,
    )
  })
})
