/**
 * Precognition (live validation) never runs a handler: a route that supports it answers 204 or
 * 422 from validation alone; any other route refuses. Nothing is written, mailed or logged in.
 */
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { customers } from '../../../src/server/db/schema.ts'
import { buildTestApp, type TestApp } from '../../helpers/app.ts'
import { Visitor } from '../auth/browser.ts'

const DEMO = { email: 'demo@harbour-safety.example', password: 'Harbour-demo-2026' }
const mail: unknown[] = []

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp({ trustProxy: true }, { sendMail: async (m) => void mail.push(m) })
})
afterAll(() => t?.close())

let n = 0
const visitor = () => new Visitor(t.app, 'localhost', { 'x-forwarded-for': `10.6.0.${++n}` })
const precognition = (only?: string) => ({
  precognition: 'true',
  ...(only ? { 'precognition-validate-only': only } : {}),
})

const registration = {
  first_name: 'Pre',
  last_name: 'Cog',
  email: 'pre.cog@example.com',
  password: 'Sturdy-pass-42',
  password_confirmation: 'Sturdy-pass-42',
  terms: true,
}

describe('precognition', () => {
  it('answers valid registration input with 204 and creates nobody', async () => {
    const res = await visitor().post('/customer/create', registration, precognition())
    expect(res.statusCode).toBe(204)
    expect(res.headers.precognition).toBe('true')
    const rows = await t.app.db.select().from(customers).where(eq(customers.email, 'pre.cog@example.com'))
    expect(rows).toHaveLength(0)
    await t.app.auth.deferred.drain()
    expect(mail).toHaveLength(0)
  })

  it('answers invalid input with 422 and the messages, only for the fields asked about', async () => {
    const v = visitor()
    const all = await v.post(
      '/customer/create',
      { ...registration, email: 'nope', first_name: '' },
      precognition(),
    )
    expect(all.statusCode).toBe(422)
    expect(Object.keys(all.json().errors).sort()).toEqual(['email', 'first_name'])
    const one = await v.post(
      '/customer/create',
      { ...registration, email: 'nope', first_name: '' },
      precognition('email'),
    )
    expect(Object.keys(one.json().errors)).toEqual(['email'])
    const fine = await v.post(
      '/customer/create',
      { ...registration, email: 'nope' },
      precognition('first_name'),
    )
    expect(fine.statusCode).toBe(204)
  })

  it('refuses a route without live validation and never runs it (no login)', async () => {
    const v = visitor()
    const res = await v.post('/login', DEMO, precognition())
    expect(res.statusCode).toBe(400)
    expect((await v.visit('/')).json().props.auth.customer).toBeNull()
  })
})
