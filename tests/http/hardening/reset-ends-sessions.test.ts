/**
 * A password reset logs the account out everywhere, with either session store: the database
 * store and Redis (when TEST_REDIS_URL names one). Each session carries the generation it logged
 * in under; the reset raises the customer's generation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MailMessage } from '../../../src/server/modules/auth/auth.mail.ts'
import { buildTestApp, type TestApp } from '../../helpers/app.ts'
import { Visitor } from '../auth/browser.ts'

const redisUrl = process.env.TEST_REDIS_URL
const stores: [string, string | null][] = [
  ['database', null],
  ...(redisUrl ? [['redis', redisUrl] as [string, string]] : []),
]

for (const [label, redis] of stores) {
  describe(`password reset with the ${label} session store`, () => {
    const mail: MailMessage[] = []
    let t: TestApp
    beforeAll(async () => {
      t = await buildTestApp(
        { trustProxy: true, redisUrl: redis },
        { sendMail: async (m) => void mail.push(m) },
      )
    })
    afterAll(() => t?.close())

    it('ends the account’s other logged-in sessions', async () => {
      const email = `gen.${label}@example.com`
      const password = 'Sturdy-pass-42'
      const owner = new Visitor(t.app, 'localhost', { 'x-forwarded-for': '10.4.0.1' })
      await owner.post('/customer/create', {
        first_name: 'Gen',
        last_name: 'Eration',
        email,
        password,
        password_confirmation: password,
        terms: true,
      })
      await t.app.auth.deferred.drain()
      const elsewhere = new Visitor(t.app, 'localhost', { 'x-forwarded-for': '10.4.0.2' })
      await elsewhere.post('/login', { email, password })
      expect((await elsewhere.visit('/')).json().props.auth.customer?.email).toBe(email)

      const resetter = new Visitor(t.app, 'localhost', { 'x-forwarded-for': '10.4.0.3' })
      await resetter.post('/forgot-password', { email })
      await t.app.auth.deferred.drain()
      const text = mail.find((m) => m.to === email && /reset/i.test(m.subject))?.text ?? ''
      const token = new URL(
        /http:\/\/localhost[^\s"<]*\/reset-password[^\s"<]*/.exec(text)![0],
      ).searchParams.get('token')!
      const done = await resetter.post('/customer/password/update', {
        token,
        email,
        password: 'Brand-new-pass-7',
        password_confirmation: 'Brand-new-pass-7',
      })
      expect(done.headers.location).toBe('/login')

      expect((await elsewhere.visit('/')).json().props.auth.customer).toBeNull()
      // Logging in again with the new password works and stays logged in.
      await elsewhere.post('/login', { email, password: 'Brand-new-pass-7' })
      expect((await elsewhere.visit('/')).json().props.auth.customer?.email).toBe(email)
      expect((await elsewhere.visit('/cart')).json().props.auth.customer?.email).toBe(email)
    })
  })
}
