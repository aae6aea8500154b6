/**
 * Webhook endpoints through the back-office API (`app.inject`, a real database): registration
 * with the secret shown once, checks on what is sent, another site's token, enabling and
 * disabling, rotation, and a test message delivered by the app's own job queue to a receiver that
 * verifies it with the standardwebhooks library.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AdminTokens } from '../../src/server/modules/admin/admin.tokens.ts'
import { buildTestApp, type TestApp } from '../helpers/app.ts'

let t: TestApp
let token: string
let otherSiteToken: string
let server: Server
let receiverUrl = ''
const received: { id: string; body: string; headers: Record<string, string> }[] = []

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      received.push({
        id: String(req.headers['webhook-id']),
        body: Buffer.concat(chunks).toString('utf8'),
        headers: req.headers as Record<string, string>,
      })
      res.writeHead(200).end('ok')
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`
  t = await buildTestApp()
  const tokens = new AdminTokens(t.app.db)
  ;({ token } = await tokens.create('localhost', 'erp'))
  ;({ token: otherSiteToken } = await tokens.create('127.0.0.1', 'other brand'))
})
afterAll(async () => {
  await t?.close()
  await new Promise<void>((r) => server.close(() => r()))
})

const api = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, payload?: unknown, bearer = token) =>
  t.app.inject({
    method,
    url: `/api/admin/v1${path}`,
    headers: { host: 'localhost', authorization: `Bearer ${bearer}` },
    ...(payload === undefined ? {} : { payload: payload as object }),
  })

async function until(check: () => boolean, ms = 15_000) {
  const end = Date.now() + ms
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting')
    await new Promise((r) => setTimeout(r, 50))
  }
}

async function eventually<T>(read: () => Promise<T>, ok: (v: T) => boolean, ms = 10_000): Promise<T> {
  const end = Date.now() + ms
  for (;;) {
    const v = await read()
    if (ok(v) || Date.now() > end) return v
    await new Promise((r) => setTimeout(r, 50))
  }
}

describe('webhook endpoints in the back-office API', () => {
  it('registers an endpoint and shows its secret in that answer only', async () => {
    const res = await api('POST', '/webhook-endpoints', {
      url: receiverUrl,
      eventTypes: ['order.placed', 'order.shipped'],
    })
    expect(res.statusCode).toBe(201)
    const { endpoint, secret } = res.json()
    expect(secret).toMatch(/^whsec_/)
    expect(endpoint).toMatchObject({
      url: receiverUrl,
      eventTypes: ['order.placed', 'order.shipped'],
      enabled: true,
      undelivered: 0,
    })
    const one = await api('GET', `/webhook-endpoints/${endpoint.id}`)
    expect(one.statusCode).toBe(200)
    expect(one.body).not.toContain(secret)
    expect(one.json().secretHint).toBe(`whsec_…${secret.slice(-4)}`)
    const list = await api('GET', '/webhook-endpoints')
    expect(list.json().items.map((e: { id: string }) => e.id)).toContain(endpoint.id)
    expect(list.body).not.toContain(secret)
  })

  it('refuses, with a message per field and nothing stored, a URL that is not https, an unknown event type and unknown fields', async () => {
    const before = (await api('GET', '/webhook-endpoints')).json().items.length
    const http = await api('POST', '/webhook-endpoints', { url: 'http://erp.example.com/hooks' })
    expect(http.statusCode).toBe(422)
    expect(http.json()).toMatchObject({
      errors: [
        {
          field: 'url',
          message: 'The URL must use https (plain http only to this machine, in development and tests).',
        },
      ],
    })
    const type = await api('POST', '/webhook-endpoints', { url: receiverUrl, eventTypes: ['order.exploded'] })
    expect(type.statusCode).toBe(422)
    expect(type.json().errors[0].field).toMatch(/eventTypes/)
    const extra = await api('POST', '/webhook-endpoints', { url: receiverUrl, secret: 'whsec_mine' })
    expect(extra.statusCode).toBe(422)
    const nul = await api('POST', '/webhook-endpoints', { url: receiverUrl, description: 'a\u0000b' })
    expect(nul.statusCode).toBe(422)
    expect((await api('GET', '/webhook-endpoints')).json().items).toHaveLength(before)
  })

  it("answers 404 for another site's endpoint, whatever the call", async () => {
    const { endpoint } = (await api('POST', '/webhook-endpoints', { url: receiverUrl })).json()
    const other = (method: 'GET' | 'PATCH' | 'DELETE' | 'POST', path: string, body?: unknown) =>
      t.app.inject({
        method,
        url: `/api/admin/v1${path}`,
        headers: { host: '127.0.0.1', authorization: `Bearer ${otherSiteToken}` },
        ...(body === undefined ? {} : { payload: body as object }),
      })
    for (const [method, path, body] of [
      ['GET', `/webhook-endpoints/${endpoint.id}`],
      ['PATCH', `/webhook-endpoints/${endpoint.id}`, { enabled: false }],
      ['DELETE', `/webhook-endpoints/${endpoint.id}`],
      ['POST', `/webhook-endpoints/${endpoint.id}/rotate-secret`],
      ['GET', `/webhook-endpoints/${endpoint.id}/deliveries`],
      ['POST', `/webhook-endpoints/${endpoint.id}/test`],
    ] as const) {
      const res = await other(method, path, body)
      expect(res.statusCode, `${method} ${path} ${res.body}`).toBe(404)
    }
    expect((await api('GET', `/webhook-endpoints/${endpoint.id}`)).json().enabled).toBe(true)
  })

  it('disables and enables an endpoint, says who disabled it, and refuses skipBacklog without enabling', async () => {
    const { endpoint } = (await api('POST', '/webhook-endpoints', { url: receiverUrl })).json()
    const off = await api('PATCH', `/webhook-endpoints/${endpoint.id}`, { enabled: false })
    expect(off.json()).toMatchObject({
      enabled: false,
      disabledReason: 'Disabled by a person, through the API.',
    })
    const odd = await api('PATCH', `/webhook-endpoints/${endpoint.id}`, { skipBacklog: true })
    expect(odd.statusCode).toBe(422)
    const test = await api('POST', `/webhook-endpoints/${endpoint.id}/test`)
    expect(test.statusCode).toBe(422)
    expect(test.json().message).toBe('The endpoint is disabled: enable it before testing it.')
    const on = await api('PATCH', `/webhook-endpoints/${endpoint.id}`, {
      enabled: true,
      eventTypes: ['order.cancelled'],
    })
    expect(on.json()).toMatchObject({ enabled: true, disabledReason: null, eventTypes: ['order.cancelled'] })
  })

  it('sends a test message through the job queue, signed with the new secret and, during the overlap, the old one', async () => {
    const created = (await api('POST', '/webhook-endpoints', { url: receiverUrl })).json()
    const rotated = await api('POST', `/webhook-endpoints/${created.endpoint.id}/rotate-secret`, {
      overlapHours: 1,
    })
    expect(rotated.statusCode).toBe(200)
    const { secret, previousSecretValidUntil } = rotated.json()
    expect(secret).not.toBe(created.secret)
    expect(previousSecretValidUntil).toEqual(expect.any(String))

    const sent = await api('POST', `/webhook-endpoints/${created.endpoint.id}/test`)
    expect(sent.statusCode).toBe(202)
    const { messageId } = sent.json()
    await until(() => received.some((r) => r.id === messageId))
    const got = received.find((r) => r.id === messageId)!
    expect(new Webhook(secret).verify(got.body, got.headers)).toMatchObject({ type: 'webhook.test' })
    expect(new Webhook(created.secret).verify(got.body, got.headers)).toMatchObject({ type: 'webhook.test' })

    // The receiver answered; the delivery is recorded as delivered right after.
    const row = await eventually(
      async () => (await api('GET', `/webhook-endpoints/${created.endpoint.id}/deliveries`)).json().items[0],
      (r: { status?: string } | undefined) => r?.status === 'delivered',
    )
    expect(row).toMatchObject({
      messageId,
      type: 'webhook.test',
      attempts: 1,
      status: 'delivered',
      lastStatusCode: 200,
    })
  })

  it('removes an endpoint (then 404), and refuses a bad deliveries query with 422', async () => {
    const { endpoint } = (await api('POST', '/webhook-endpoints', { url: receiverUrl })).json()
    expect((await api('GET', `/webhook-endpoints/${endpoint.id}/deliveries?status=lost`)).statusCode).toBe(
      422,
    )
    expect((await api('GET', `/webhook-endpoints/${endpoint.id}/deliveries?limit=0`)).statusCode).toBe(422)
    expect((await api('DELETE', `/webhook-endpoints/${endpoint.id}`)).statusCode).toBe(204)
    expect((await api('GET', `/webhook-endpoints/${endpoint.id}`)).statusCode).toBe(404)
    expect((await api('DELETE', `/webhook-endpoints/${endpoint.id}`)).statusCode).toBe(404)
  })
})
