import { solveChallenge } from 'altcha-lib/v1'
import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { customers, sites } from '../../../src/server/db/schema.ts'
import { RecaptchaBotChecker, type Fetch } from '../../../src/server/modules/auth/bot-check.ts'
import { buildTestApp, type TestApp } from '../../helpers/app.ts'
import { Visitor } from './browser.ts'

let t: TestApp
let n = 0
beforeAll(async () => {
  t = await buildTestApp({ trustProxy: true })
  await t.app.db
    .update(sites)
    .set({ settings: sql`${sites.settings} || '{"botCheck":"1"}'::jsonb` })
    .where(eq(sites.host, 'localhost'))
  t.app.sites.invalidate()
})
afterAll(() => t?.close())

const visitor = () => new Visitor(t.app, 'localhost', { 'x-forwarded-for': `10.7.0.${++n}` })

async function solvedToken(v: Visitor): Promise<string> {
  const res = await v.visit('/auth/bot-challenge', { 'x-inertia': '', accept: 'application/json' })
  const c = res.json() as {
    algorithm: string
    challenge: string
    maxnumber: number
    salt: string
    signature: string
  }
  const solution = await solveChallenge(c.challenge, c.salt, c.algorithm, c.maxnumber).promise
  return Buffer.from(JSON.stringify({ ...c, number: solution!.number })).toString('base64')
}

const registration = (email: string) => ({
  first_name: 'Bo',
  last_name: 'Tcheck',
  email,
  password: 'Sturdy-pass-42',
  password_confirmation: 'Sturdy-pass-42',
  terms: true,
})

describe('bot check (ALTCHA) when the site setting is 1', () => {
  it('tells the registration and forgot-password pages to run the challenge', async () => {
    const v = visitor()
    expect((await v.visit('/register')).json().props.botCheck).toEqual({
      provider: 'altcha',
      challengeUrl: '/auth/bot-challenge',
    })
    expect((await v.visit('/forgot-password')).json().props.botCheck).toEqual({
      provider: 'altcha',
      challengeUrl: '/auth/bot-challenge',
    })
  })

  it('refuses a registration without a token, with a clear message', async () => {
    const v = visitor()
    await v.post('/customer/create', registration('nobot@example.com'), {
      referer: 'http://localhost/register',
    })
    expect((await v.visit('/register')).json().props.errors).toEqual({
      'g-recaptcha-response': 'Please complete the security check and try again.',
    })
    expect(
      await t.app.db.select().from(customers).where(eq(customers.email, 'nobot@example.com')),
    ).toHaveLength(0)
  })

  it('accepts a solved challenge once and refuses its replay', async () => {
    const v = visitor()
    const token = await solvedToken(v)
    const ok = await v.post('/customer/create', {
      ...registration('human@example.com'),
      'g-recaptcha-response': token,
    })
    expect(ok.headers.location).toBe('/email/verify')
    const w = visitor()
    await w.post(
      '/customer/create',
      { ...registration('replay@example.com'), 'g-recaptcha-response': token },
      { referer: 'http://localhost/register' },
    )
    expect((await w.visit('/register')).json().props.errors).toEqual({
      'g-recaptcha-response': 'The security check failed or has already been used. Please try again.',
    })
  })

  it('refuses a forged or garbled token', async () => {
    const v = visitor()
    for (const token of [
      'garbage',
      Buffer.from('{"algorithm":"SHA-256","challenge":"x","number":1,"salt":"y","signature":"z"}').toString(
        'base64',
      ),
    ]) {
      await v.post(
        '/forgot-password',
        { email: 'a@b.c', 'g-recaptcha-response': token },
        { referer: 'http://localhost/forgot-password' },
      )
      expect((await v.visit('/forgot-password')).json().props.errors['g-recaptcha-response']).toBe(
        'The security check failed or has already been used. Please try again.',
      )
    }
  })
})

describe('reCAPTCHA adapter', () => {
  it('asks siteverify and accepts a passing token once', async () => {
    const calls: URLSearchParams[] = []
    const fake: Fetch = async (_url, init) => {
      calls.push(init.body)
      return { ok: true, json: async () => ({ success: init.body.get('response') === 'good', score: 0.9 }) }
    }
    const checker = new RecaptchaBotChecker(
      t.app.db,
      'site-key',
      'secret-key',
      'https://example.test/verify',
      fake,
    )
    expect(checker.props()).toEqual({ provider: 'recaptcha', siteKey: 'site-key' })
    expect(await checker.verify(undefined, '1.2.3.4')).toEqual({
      ok: false,
      message: 'Please complete the security check and try again.',
    })
    expect(await checker.verify('bad', '1.2.3.4')).toMatchObject({ ok: false })
    expect(await checker.verify('good', '1.2.3.4')).toEqual({ ok: true })
    expect(await checker.verify('good', '1.2.3.4')).toMatchObject({ ok: false })
    expect(calls[0]?.get('secret')).toBe('secret-key')
    expect(calls[0]?.get('remoteip')).toBe('1.2.3.4')
  })
})
