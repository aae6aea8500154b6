import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { contentPages } from '../../src/server/db/schema.ts'
import { buildTestApp, inertiaHeaders, type TestApp } from '../helpers/app.ts'

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp()
})
afterAll(async () => {
  await t?.close()
})

const visit = (url: string) => t.app.inject({ url, headers: { host: 'localhost', ...inertiaHeaders() } })

describe('content pages', () => {
  it('serve the presented page from the cache until content is invalidated', async () => {
    expect((await visit('/delivery-information')).json().props.title).toBe('Delivery Information')
    await t.app.db
      .update(contentPages)
      .set({ title: 'Delivery & Returns' })
      .where(and(eq(contentPages.slug, 'delivery-information')))
    expect((await visit('/delivery-information')).json().props.title).toBe('Delivery Information')
    t.app.content.invalidate()
    expect((await visit('/delivery-information')).json().props.title).toBe('Delivery & Returns')
  })

  it('sanitise the body before it reaches the page', async () => {
    await t.app.db
      .update(contentPages)
      .set({ body: '<p onclick="x()">Hello</p><script>alert(1)</script><iframe src="https://x"></iframe>' })
      .where(eq(contentPages.slug, 'privacy-policy'))
    t.app.content.invalidate()
    const page = (await visit('/privacy-policy')).json()
    expect(page.props.body).toBe('<p>Hello</p>')
    expect(page.props.noindex).toBe(true)
  })

  it('treat slugs with odd characters as not found without touching the database', async () => {
    for (const path of ['/..%2f..%2fetc%2fpasswd', "/about-us'--", '/ABOUT-US', '/about us']) {
      const res = await visit(path)
      expect(res.statusCode, path).toBe(404)
    }
  })
})
