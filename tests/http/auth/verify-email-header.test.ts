import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../../helpers/app.ts'
import { Visitor } from './browser.ts'

let t: TestApp
let n = 0
beforeAll(async () => {
  t = await buildTestApp({ trustProxy: true }, { sendMail: async () => undefined })
})
afterAll(() => t?.close())

const visitor = () =>
  new Visitor(t.app, 'localhost', { 'x-forwarded-for': `10.8.${Math.floor(++n / 250)}.${n % 250}` })

describe('the verify-e-mail page', () => {
  it('shows a customer who logged in before verifying as signed in, in its header props', async () => {
    const email = 'not.yet.verified@example.com'
    await visitor().post('/customer/create', {
      first_name: 'Vera',
      last_name: 'Fy',
      email,
      password: 'Sturdy-pass-42',
      password_confirmation: 'Sturdy-pass-42',
      terms: true,
    })
    await t.app.auth.deferred.drain()
    const v = visitor()
    const login = await v.post('/login', { email, password: 'Sturdy-pass-42' })
    expect(login.headers.location).toBe('/email/verify')
    const page = (await v.visit('/email/verify')).json()
    expect(page.component).toBe('Auth/VerifyEmail')
    expect(page.props.auth.customer).toMatchObject({ email, firstName: 'Vera' })
  })
})
