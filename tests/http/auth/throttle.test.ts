import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../../helpers/app.ts'
import { Visitor } from './browser.ts'

const DEMO = { email: 'demo@harbour-safety.example', password: 'Harbour-demo-2026' }

describe('login throttling without a trusted proxy', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await buildTestApp()
  })
  afterAll(() => t?.close())

  it('locks an account after 5 failures, even when X-Forwarded-For rotates, with Retry-After', async () => {
    let last
    for (let i = 0; i < 6; i++) {
      const v = new Visitor(t.app, 'localhost', { 'x-forwarded-for': `203.0.113.${i}` })
      last = await v.post('/login', { email: DEMO.email, password: `Wrong-password-${i}` })
      if (i === 5) {
        expect(last.headers['retry-after']).toMatch(/^\d+$/)
        const page = (await v.visit('/login')).json()
        expect(page.props.errors.email).toMatch(
          /^Too many login attempts\. Please try again in \d+ seconds?\.$/,
        )
      }
    }
    // Even the right password waits until the lock ends.
    const owner = new Visitor(t.app, 'localhost', { 'x-forwarded-for': '198.51.100.9' })
    await owner.post('/login', DEMO)
    expect((await owner.visit('/')).json().props.auth.customer).toBeNull()
  })

  it('throttles unknown e-mails exactly like known ones', async () => {
    const v = new Visitor(t.app)
    let res
    for (let i = 0; i < 5; i++)
      res = await v.post('/login', { email: 'ghost@example.com', password: `Wrong-${i}-pass` })
    expect(res!.headers['retry-after']).toMatch(/^\d+$/)
  })
})

describe('login throttling behind a trusted proxy', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await buildTestApp({ trustProxy: true })
  })
  afterAll(() => t?.close())

  it('counts per client address: 20 failures from one address across accounts lock that address', async () => {
    const attacker = new Visitor(t.app, 'localhost', { 'x-forwarded-for': '192.0.2.50' })
    let res
    for (let i = 0; i < 20; i++) {
      res = await attacker.post('/login', { email: `user${i}@example.com`, password: 'Wrong-pass-123' })
    }
    expect(res!.headers['retry-after']).toMatch(/^\d+$/)
    // The demo customer from another address is unaffected.
    const owner = new Visitor(t.app, 'localhost', { 'x-forwarded-for': '192.0.2.51' })
    await owner.post('/login', DEMO)
    expect((await owner.visit('/')).json().props.auth.customer?.email).toBe(DEMO.email)
  })

  it('lets the owner log in from their own address while an attacker is locked out from another', async () => {
    const attacker = new Visitor(t.app, 'localhost', { 'x-forwarded-for': '192.0.2.60' })
    for (let i = 0; i < 5; i++)
      await attacker.post('/login', { email: DEMO.email, password: `Wrong-${i}-pass!` })
    await attacker.post('/login', DEMO)
    expect((await attacker.visit('/')).json().props.auth.customer).toBeNull()
    const owner = new Visitor(t.app, 'localhost', { 'x-forwarded-for': '192.0.2.61' })
    await owner.post('/login', DEMO)
    expect((await owner.visit('/')).json().props.auth.customer?.email).toBe(DEMO.email)
  })
})
