/**
 * Issue 11, item 9: the e-mail-taking answers (forgot password, register, resend verification)
 * are the same bytes for an address with an account and one without, apart from the session and
 * CSRF tokens; the account work happens after the answer (its timing: scripts/bench/forgot-timing.ts).
 */
import { eq } from 'drizzle-orm'
import type { LightMyRequestResponse } from 'fastify'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { customers } from '../../../src/server/db/schema.ts'
import type { MailMessage } from '../../../src/server/modules/auth/auth.mail.ts'
import { buildTestApp, type TestApp } from '../../helpers/app.ts'
import { Visitor } from '../auth/browser.ts'

const KNOWN = 'demo@harbour-safety.example'
const mail: MailMessage[] = []
let t: TestApp
let n = 0
beforeAll(async () => {
  t = await buildTestApp({ trustProxy: true }, { sendMail: async (m) => void mail.push(m) })
})
afterAll(() => t?.close())
beforeEach(() => {
  mail.length = 0
})

const visitor = () => new Visitor(t.app, 'localhost', { 'x-forwarded-for': `10.11.9.${++n}` })

/** Status, every header and the body, with the cookie values, the CSP nonce and the date masked. */
function answer(res: LightMyRequestResponse) {
  const headers = Object.entries(res.headers)
    .filter(([name]) => name !== 'date')
    .map(([name, value]) => {
      if (name === 'content-security-policy') return [name, String(value).replace(/'nonce-[^']+'/, 'nonce')]
      if (name !== 'set-cookie') return [name, String(value)]
      const lines = Array.isArray(value) ? value : [String(value)]
      // A cookie's value and its expiry time (the clock, like the date header) are not the answer.
      const masked = lines.map((l) =>
        l
          .replace(/^([^=]+)=[^;]*/, '$1=<token>')
          .replace(/Expires=[^;]*/, (e) => (e.includes('1970') ? e : 'Expires=<time>')),
      )
      return [name, masked.join('\n')]
    })
    .sort(([a], [b]) => a!.localeCompare(b!))
  return { status: res.statusCode, headers, body: res.body }
}

const registration = (email: string) => ({
  first_name: 'Ada',
  last_name: 'Lovelace',
  email,
  password: 'Sturdy-pass-42',
  password_confirmation: 'Sturdy-pass-42',
  terms: true,
})

describe('answers to e-mail-taking forms', () => {
  it('forgot password answers a known and an unknown address with the same bytes, and mails only the known one', async () => {
    const known = await visitor().post('/forgot-password', { email: KNOWN })
    const unknown = await visitor().post('/forgot-password', { email: 'nobody.here@example.com' })
    expect(known.statusCode).toBe(303)
    expect(answer(known)).toEqual(answer(unknown))
    await t.app.auth.deferred.drain()
    expect(mail.map((m) => m.to)).toEqual([KNOWN])
  })

  it('register answers an existing and a new address with the same bytes, then creates the new account and mails both', async () => {
    const existing = await visitor().post('/customer/create', registration(KNOWN))
    const fresh = await visitor().post('/customer/create', registration('ada.fresh@example.com'))
    expect(existing.headers.location).toBe('/email/verify')
    expect(answer(existing)).toEqual(answer(fresh))
    await t.app.auth.deferred.drain()
    expect(
      await t.app.db.select().from(customers).where(eq(customers.email, 'ada.fresh@example.com')),
    ).toHaveLength(1)
    expect(mail.map((m) => [m.to, m.subject]).sort()).toEqual([
      ['ada.fresh@example.com', 'Verify your email address - Harbour Safety Supplies'],
      [KNOWN, 'You already have an account - Harbour Safety Supplies'],
    ])
  })

  it('resend verification answers an address with and without an account with the same bytes', async () => {
    const withAccount = visitor()
    await withAccount.post('/customer/create', registration('has.account@example.com'))
    const without = visitor()
    await without.post('/customer/create', registration('gone.again@example.com'))
    await t.app.auth.deferred.drain()
    await t.app.db.delete(customers).where(eq(customers.email, 'gone.again@example.com'))
    mail.length = 0
    const a = await withAccount.post('/email/verification-notification', {})
    const b = await without.post('/email/verification-notification', {})
    expect(a.headers.location).toBe('/email/verify')
    expect(answer(a)).toEqual(answer(b))
    await t.app.auth.deferred.drain()
    expect(mail.map((m) => m.to)).toEqual(['has.account@example.com'])
  })
})
