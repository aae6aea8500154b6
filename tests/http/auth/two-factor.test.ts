import { eq, like } from 'drizzle-orm'
import { generateSync } from 'otplib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { authThrottle, customers } from '../../../src/server/db/schema.ts'
import { buildTestApp, type TestApp } from '../../helpers/app.ts'
import { Visitor } from './browser.ts'

const TWO_FA = { email: 'twofactor@harbour-safety.example', password: 'Harbour-2fa-2026!' }
const SECRET = 'KVKFKRCPNZQUYMLXOVYDSQKJKZDTSRLD'
const code = (offsetSteps = 0) =>
  generateSync({ secret: SECRET, epoch: Math.floor(Date.now() / 1000) + offsetSteps * 30 })

let t: TestApp
let n = 0
beforeAll(async () => {
  t = await buildTestApp({ trustProxy: true })
})
afterAll(() => t?.close())

const visitor = () => new Visitor(t.app, 'localhost', { 'x-forwarded-for': `10.8.0.${++n}` })
const resetLastStep = () =>
  t.app.db.update(customers).set({ twoFactorLastStep: null }).where(eq(customers.email, TWO_FA.email))

describe('two-factor challenge', () => {
  it('asks for a code after the right password, and a pending session cannot reach account pages', async () => {
    const v = visitor()
    const before = (await v.post('/login', { email: 'x@y.z', password: 'nothing-1!' }), v.sessionId)
    const res = await v.post('/login', TWO_FA)
    expect(res.headers.location).toBe('/two-factor-challenge')
    expect(v.sessionId).not.toBe(before)
    expect((await v.visit('/two-factor-challenge')).json().component).toBe('Auth/TwoFactorChallenge')
    expect((await v.visit('/')).json().props.auth.customer).toBeNull()
    expect((await v.visit('/customer/two-factor')).headers.location).toBe('/login')
    expect((await v.visit('/user/confirm-password')).headers.location).toBe('/login')
  })

  it('logs in with a valid code, rotating the session again, and refuses the same code a second time', async () => {
    await resetLastStep()
    const v = visitor()
    await v.post('/login', TWO_FA)
    const pending = v.sessionId
    const c = code()
    const res = await v.post('/two-factor-challenge', { code: c })
    expect(res.headers.location).toBe('/')
    expect(v.sessionId).not.toBe(pending)
    expect((await v.visit('/')).json().props.auth.customer?.email).toBe(TWO_FA.email)

    const replay = visitor()
    await replay.post('/login', TWO_FA)
    await replay.post('/two-factor-challenge', { code: c })
    expect((await replay.visit('/two-factor-challenge')).json().props.errors).toEqual({
      code: 'The provided two factor authentication code was invalid.',
    })
  })

  it('returns to the page logged in from after the code: the basket, or the checkout', async () => {
    await resetLastStep()
    const v = visitor()
    await v.visit('/login?intended=%2Fcart')
    await v.post('/login', TWO_FA)
    expect((await v.post('/two-factor-challenge', { code: code() })).headers.location).toBe('/cart')

    await resetLastStep()
    const w = visitor()
    await w.post('/login', { ...TWO_FA, redirect: false }, { referer: 'http://localhost/checkout' })
    expect((await w.post('/two-factor-challenge', { code: code() })).headers.location).toBe('/checkout')
  })

  it('accepts a recovery code once', async () => {
    const v = visitor()
    await v.post('/login', TWO_FA)
    await v.post('/two-factor-challenge', { recovery_code: 'HARBR-DEMO2-RECV1' })
    expect((await v.visit('/')).json().props.auth.customer?.email).toBe(TWO_FA.email)
    const again = visitor()
    await again.post('/login', TWO_FA)
    await again.post('/two-factor-challenge', { recovery_code: 'harbr-demo2-recv1' })
    expect((await again.visit('/two-factor-challenge')).json().props.errors).toEqual({
      recovery_code: 'The provided two factor recovery code was invalid.',
    })
  })

  it('still asks for the code after a password reset', async () => {
    const mailBox: string[] = []
    const app2 = await buildTestApp({}, { sendMail: async (m) => void mailBox.push(m.text) })
    try {
      const v = new Visitor(app2.app)
      await v.post('/forgot-password', { email: TWO_FA.email })
      await app2.app.auth.deferred.drain()
      const link = /\/reset-password\?[^\s]+/.exec(mailBox[0] ?? '')![0]
      const token = new URL(link, 'http://x').searchParams.get('token')!
      await v.post('/customer/password/update', {
        token,
        email: TWO_FA.email,
        password: 'Brand-new-2fa-9',
        password_confirmation: 'Brand-new-2fa-9',
      })
      const res = await v.post('/login', { email: TWO_FA.email, password: 'Brand-new-2fa-9' })
      expect(res.headers.location).toBe('/two-factor-challenge')
    } finally {
      await app2.close()
    }
  })

  it('allows at most 10 failed codes a day, then sends the customer back to log in', async () => {
    await t.app.db.delete(authThrottle).where(like(authThrottle.key, '2fa:%'))
    const v = visitor()
    await v.post('/login', TWO_FA)
    const locations: string[] = []
    for (let i = 0; i < 10; i++)
      locations.push(String((await v.post('/two-factor-challenge', { code: '000000' })).headers.location))
    expect(locations.slice(0, 9)).toEqual(Array(9).fill('/two-factor-challenge'))
    expect(locations[9]).toBe('/login')
    expect((await v.visit('/login')).json().props.errors.email).toBe(
      'Too many invalid codes. For your security, please log in again later or reset your password.',
    )
    // Even a right code from a fresh password login is refused during the cooldown.
    await resetLastStep()
    const w = visitor()
    await w.post('/login', TWO_FA)
    await w.post('/two-factor-challenge', { code: code() })
    expect((await w.visit('/')).json().props.auth.customer).toBeNull()
  })
})

describe('two-factor set-up', () => {
  it('is behind confirm-password, shows a QR code, turns on with a code and shows recovery codes once', async () => {
    const v = visitor()
    await v.post('/login', { email: 'demo@harbour-safety.example', password: 'Harbour-demo-2026' })
    expect((await v.visit('/customer/two-factor')).headers.location).toBe('/user/confirm-password')
    const confirmed = await v.post('/user/confirm-password', { password: 'Harbour-demo-2026' })
    expect(confirmed.headers.location).toBe('/customer/two-factor')
    expect((await v.visit('/customer/two-factor')).json().props).toMatchObject({
      enabled: false,
      settingUp: false,
    })
    await v.post('/customer/two-factor', {})
    const setup = (await v.visit('/customer/two-factor')).json().props
    expect(setup.settingUp).toBe(true)
    expect(setup.qrCode).toMatch(/^<svg/)
    const secret = setup.secret as string
    await v.post('/customer/two-factor/confirm', { code: '123456' })
    expect((await v.visit('/customer/two-factor')).json().props.errors).toEqual({
      code: 'The provided two factor authentication code was invalid.',
    })
    await v.post('/customer/two-factor/confirm', { code: generateSync({ secret }) })
    const on = (await v.visit('/customer/two-factor')).json()
    expect(on.props).toMatchObject({ enabled: true, recoveryCodesLeft: 8 })
    expect(on.flash.recoveryCodes).toHaveLength(8)
    expect((await v.visit('/customer/two-factor')).json().flash?.recoveryCodes).toBeUndefined()
    // The secret is stored sealed, not in the clear.
    const [row] = await t.app.db
      .select()
      .from(customers)
      .where(eq(customers.email, 'demo@harbour-safety.example'))
    expect(row?.twoFactorSecret).not.toContain(secret)
    // Turning it off
    await v.post('/customer/two-factor', {}, {}, 'DELETE')
    expect((await v.visit('/customer/two-factor')).json().props.enabled).toBe(false)
  })
})
