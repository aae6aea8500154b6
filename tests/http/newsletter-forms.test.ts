import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { contentStories, formSubmissions, newsletterSubscribers, sites } from '../../src/server/db/schema.ts'
import type { NotifySiteContact } from '../../src/server/modules/content/content.routes.ts'
import { buildApp } from '../../src/server/app.ts'
import { loadConfig } from '../../src/server/config.ts'
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts'
import { cookieHeader, cookiesFrom } from '../helpers/app.ts'
import type { FastifyInstance } from 'fastify'

let app: FastifyInstance
let testDb: TestDatabase
const notify = vi.fn<NotifySiteContact>(async () => {})

beforeAll(async () => {
  testDb = await createTestDatabase()
  app = await buildApp(loadConfig({ NODE_ENV: 'test', SEED_ON_START: 'false' }), {
    database: testDb.database,
    migrated: true,
    notifySiteContact: notify,
  })
  await app.ready()
})
afterAll(async () => {
  await app?.close()
  await testDb?.dispose()
})

async function session(host = 'localhost') {
  const first = await app.inject({ url: '/', headers: { host, accept: 'text/html' } })
  const cookies = cookiesFrom(first)
  return {
    cookie: cookieHeader(cookies),
    'x-xsrf-token': decodeURIComponent(cookies['XSRF-TOKEN']!),
    host,
    accept: 'application/json',
  }
}

async function blockUid(siteCode: string, slug: string, component: string): Promise<string> {
  const [site] = await app.db.select({ id: sites.id }).from(sites).where(eq(sites.code, siteCode))
  const [row] = await app.db
    .select()
    .from(contentStories)
    .where(and(eq(contentStories.siteId, site!.id), eq(contentStories.fullSlug, slug)))
  const body = row!.publishedContent!.body as { _uid: string; component: string }[]
  return body.find((b) => b.component === component)!._uid
}

describe('POST /newsletter/subscribe', () => {
  it('stores the subscriber with the consent time, site and wording', async () => {
    const headers = await session()
    const block = await blockUid('harbour', 'home', 'newsletter')
    const res = await app.inject({
      method: 'POST',
      url: '/newsletter/subscribe',
      headers,
      payload: { firstName: 'Ann', email: 'Ann@Example.com', block, source: '/' },
    })
    expect(res.statusCode).toBe(200)
    const [row] = await app.db
      .select()
      .from(newsletterSubscribers)
      .where(eq(newsletterSubscribers.email, 'ann@example.com'))
    expect(row!.firstName).toBe('Ann')
    expect(row!.consentText).toBe(
      'I agree to receive marketing e-mails from Harbour Safety Supplies. I can unsubscribe at any time.',
    )
    expect(row!.consentAt).toBeInstanceOf(Date)
    expect(row!.source).toBe('/')
  })

  it('signing up again updates the row instead of adding one', async () => {
    const headers = await session()
    for (const firstName of ['Bo', 'Bob']) {
      await app.inject({
        method: 'POST',
        url: '/newsletter/subscribe',
        headers,
        payload: { firstName, email: 'bob@example.com' },
      })
    }
    const rows = await app.db
      .select()
      .from(newsletterSubscribers)
      .where(eq(newsletterSubscribers.email, 'bob@example.com'))
    expect(rows).toHaveLength(1)
    expect(rows[0]!.firstName).toBe('Bob')
  })

  it('requires a valid email', async () => {
    const headers = await session()
    const missing = await app.inject({
      method: 'POST',
      url: '/newsletter/subscribe',
      headers,
      payload: { email: '' },
    })
    expect(missing.statusCode).toBe(422)
    expect(missing.json().errors).toEqual({ email: 'Please enter your email address.' })
    const bad = await app.inject({
      method: 'POST',
      url: '/newsletter/subscribe',
      headers,
      payload: { email: 'not-an-email' },
    })
    expect(bad.json().errors).toEqual({ email: 'Please enter a valid email address.' })
  })

  it('requires the first name only when the block says firstNameRequired', async () => {
    const headers = await session()
    const required = await blockUid('harbour', 'home', 'newsletter')
    const res = await app.inject({
      method: 'POST',
      url: '/newsletter/subscribe',
      headers,
      payload: { email: 'c@example.com', firstName: ' ', block: required },
    })
    expect(res.statusCode).toBe(422)
    expect(res.json().errors).toEqual({ firstName: 'Please enter your first name.' })
    const usHeaders = await session('127.0.0.1')
    const optional = await blockUid('northgate', 'home', 'newsletter')
    const ok = await app.inject({
      method: 'POST',
      url: '/newsletter/subscribe',
      headers: usHeaders,
      payload: { email: 'c@example.com', block: optional },
    })
    expect(ok.statusCode).toBe(200)
  })

  it('rejects wrong types and oversized values with field messages, never a 500', async () => {
    const headers = await session()
    const res = await app.inject({
      method: 'POST',
      url: '/newsletter/subscribe',
      headers,
      payload: { email: ['a@b.com'], firstName: 'x'.repeat(500) },
    })
    expect(res.statusCode).toBe(422)
    expect(Object.keys(res.json().errors).sort()).toEqual(['email', 'firstName'])
  })

  it('refuses a request without the CSRF token', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/newsletter/subscribe',
      headers: { host: 'localhost', accept: 'application/json' },
      payload: { email: 'd@example.com' },
    })
    expect(res.statusCode).toBe(419)
  })
})

describe('POST /forms/:id', () => {
  it('stores a submission and notifies the site contact once', async () => {
    const headers = await session()
    notify.mockClear()
    const res = await app.inject({
      method: 'POST',
      url: '/forms/contact',
      headers,
      payload: { name: 'Dee', email: 'dee@example.com', phone: '', message: 'Do you stock ladders?' },
    })
    expect(res.statusCode).toBe(200)
    expect(res.json().message).toBe('Thank you for your message. We reply within one working day.')
    const rows = await app.db.select().from(formSubmissions).where(eq(formSubmissions.formId, 'contact'))
    expect(rows.at(-1)!.data).toEqual({
      name: 'Dee',
      email: 'dee@example.com',
      phone: '',
      message: 'Do you stock ladders?',
    })
    expect(notify).toHaveBeenCalledTimes(1)
    expect(notify.mock.calls[0]![0]).toMatchObject({
      to: 'sales@harbour-safety.example',
      subject: 'Contact us: new submission',
    })
  })

  it('answers 422 with a message per field and stores nothing', async () => {
    const headers = await session()
    const before = (await app.db.select().from(formSubmissions)).length
    const res = await app.inject({
      method: 'POST',
      url: '/forms/contact',
      headers,
      payload: { name: '', email: 'nope', phone: 'abc', message: 'x'.repeat(3000) },
    })
    expect(res.statusCode).toBe(422)
    expect(res.json().errors).toEqual({
      name: 'Your name is required.',
      email: 'Email address must be a valid email address.',
      phone: 'Phone number must be a valid phone number.',
      message: 'Message must be at most 2000 characters.',
    })
    expect((await app.db.select().from(formSubmissions)).length).toBe(before)
  })

  it('answers 404 for a form that does not exist', async () => {
    const headers = await session()
    const res = await app.inject({ method: 'POST', url: '/forms/nope', headers, payload: {} })
    expect(res.statusCode).toBe(404)
  })
})
