import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { contentStories } from '../../src/server/db/schema.ts'
import { webhookSignature } from '../../src/server/modules/content/webhook.routes.ts'
import { buildTestApp, inertiaHeaders, type TestApp } from '../helpers/app.ts'
import { loadConfig } from '../../src/server/config.ts'

const SECRET = 'a-webhook-secret-of-some-length'
let t: TestApp
beforeAll(async () => {
  const base = loadConfig({ NODE_ENV: 'test' })
  t = await buildTestApp({
    content: { ...base.content, storyblok: { ...base.content.storyblok, webhookSecret: SECRET } },
  })
})
afterAll(async () => {
  await t?.close()
})

const payload = JSON.stringify({
  text: 'published',
  action: 'published',
  space_id: 1,
  story_id: 1,
  full_slug: 'terms-and-conditions',
})
const send = (body: string, signature: string | undefined) =>
  t.app.inject({
    method: 'POST',
    url: '/content/webhook',
    headers: {
      host: 'localhost',
      'content-type': 'application/json',
      ...(signature ? { 'webhook-signature': signature } : {}),
    },
    payload: body,
  })

describe('the content webhook', () => {
  it('drops the content cache when the signature matches', async () => {
    const visit = () =>
      t.app.inject({ url: '/terms-and-conditions', headers: { host: 'localhost', ...inertiaHeaders() } })
    expect((await visit()).json().props.title).toBe('Terms and Conditions')
    const [row] = await t.app.db
      .select()
      .from(contentStories)
      .where(and(eq(contentStories.fullSlug, 'terms-and-conditions')))
    await t.app.db
      .update(contentStories)
      .set({ publishedContent: { ...row!.publishedContent!, title: 'Terms of Sale' } })
      .where(eq(contentStories.fullSlug, 'terms-and-conditions'))
    expect((await visit()).json().props.title).toBe('Terms and Conditions')
    const res = await send(payload, webhookSignature(SECRET, payload))
    expect(res.statusCode).toBe(200)
    expect((await visit()).json().props.title).toBe('Terms of Sale')
  })

  it('refuses a missing or wrong signature, and a body changed after signing', async () => {
    expect((await send(payload, undefined)).statusCode).toBe(401)
    expect((await send(payload, 'f'.repeat(40))).statusCode).toBe(401)
    expect(
      (await send(payload.replace('published', 'deleted'), webhookSignature(SECRET, payload))).statusCode,
    ).toBe(401)
    expect((await send(payload, webhookSignature('another-secret-entirely', payload))).statusCode).toBe(401)
  })

  it('answers 400 to a body that is not JSON', async () => {
    expect((await send('{nope', webhookSignature(SECRET, '{nope'))).statusCode).toBe(400)
  })

  it('does not exist when no secret is configured', async () => {
    const plain = await buildTestApp()
    expect(plain.app.hasRoute({ method: 'POST', url: '/content/webhook' })).toBe(false)
    expect(t.app.hasRoute({ method: 'POST', url: '/content/webhook' })).toBe(true)
    await plain.close()
  })
})
