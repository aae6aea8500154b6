/**
 * Personal pages are encrypted in the browser's history (Inertia's encryptHistory), and logout
 * clears the history so the next person at the browser cannot go back to them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../../helpers/app.ts'
import { Visitor } from '../auth/browser.ts'

const DEMO = { email: 'demo@harbour-safety.example', password: 'Harbour-demo-2026' }

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp({ trustProxy: true })
})
afterAll(() => t?.close())

describe('history encryption', () => {
  it('leaves anonymous catalogue pages unencrypted', async () => {
    const page = (await new Visitor(t.app, 'localhost', { 'x-forwarded-for': '10.5.0.1' }).visit('/')).json()
    expect(page.encryptHistory ?? false).toBe(false)
  })

  it('encrypts every page of a logged-in customer and the two-factor set-up page, and clears at logout', async () => {
    const v = new Visitor(t.app, 'localhost', { 'x-forwarded-for': '10.5.0.2' })
    await v.post('/login', DEMO)
    for (const url of ['/', '/cart', '/user/confirm-password']) {
      expect((await v.visit(url)).json().encryptHistory, url).toBe(true)
    }
    await v.post('/logout', {})
    const after = (await v.visit('/')).json()
    expect(after.clearHistory).toBe(true)
    expect(after.encryptHistory ?? false).toBe(false)
    expect((await v.visit('/')).json().clearHistory ?? false).toBe(false)
  })
})
