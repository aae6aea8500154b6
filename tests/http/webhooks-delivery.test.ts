/**
 * Outbound webhooks against a real database (PGlite, or PostgreSQL with DATABASE_URL): a local
 * receiver verifies every delivery with the `standardwebhooks` library (not the shop's code),
 * dedupes on webhook-id and records the order and the overlap of what it got. Time is moved with
 * a fake Date (the receiver's check of the timestamp moves with it).
 */
import { and, eq, sql } from 'drizzle-orm'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Db } from '../../src/server/db/client.ts'
import {
  mailJobs,
  queueJobs,
  sites,
  webhookDeliveries,
  webhookEndpoints,
  webhookMessages,
} from '../../src/server/db/schema.ts'
import type { JobQueue } from '../../src/server/jobs/queue.ts'
import { LocalJobQueue } from '../../src/server/jobs/queue.local.ts'
import { PgBossJobQueue } from '../../src/server/jobs/queue.pgboss.ts'
import { KEEP_MESSAGES_MS, WebhookDeliverer } from '../../src/server/modules/webhooks/webhooks.delivery.ts'
import {
  createEndpoint,
  getEndpoint,
  updateEndpoint,
  type EndpointsDeps,
} from '../../src/server/modules/webhooks/webhooks.endpoints.ts'
import { webhookJob, WEBHOOK_JOB_OPTIONS } from '../../src/server/modules/webhooks/webhooks.module.ts'
import { createWebhookEventSink, WEBHOOK_JOB } from '../../src/server/modules/webhooks/webhooks.outbox.ts'
import { RETRY_SCHEDULE_MS, type OrderEventType } from '../../src/server/modules/webhooks/webhooks.policy.ts'
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts'
import { insertOrder, Receiver } from './webhooks.fixture.ts'

let tdb: TestDatabase
let db: Db
let siteId: number
const receiver = new Receiver()
const enqueued: { name: string; payload: unknown; key?: string }[] = []
const stubJobs = {
  enqueue: async (_tx: unknown, name: string, payload?: unknown, o?: { key?: string }) => {
    enqueued.push({ name, payload, ...(o?.key ? { key: o.key } : {}) })
  },
  wake: () => {},
}
const deps: EndpointsDeps = { jobs: () => stubJobs, urlPolicy: { allowLoopbackHttp: true } }
const record = createWebhookEventSink({ jobs: () => stubJobs })
const logged: { level: 'warn' | 'error' | 'info'; msg: string; obj: object }[] = []
const log = {
  warn: (obj: object, msg: string) => void logged.push({ level: 'warn', msg, obj }),
  error: (obj: object, msg: string) => void logged.push({ level: 'error', msg, obj }),
  info: (obj: object, msg: string) => void logged.push({ level: 'info', msg, obj }),
}
const newOrder = () => insertOrder(db, siteId)
const newDeliverer = (extra: Partial<ConstructorParameters<typeof WebhookDeliverer>[1]> = {}) =>
  new WebhookDeliverer(db, {
    jobs: () => stubJobs,
    publicOnly: false,
    requestTimeoutMs: 2_000,
    leaseMs: 10_000,
    ownerAddress: async () => 'owner@example.com',
    random: () => 0.5,
    log,
    ...extra,
  })

/** Records `n` events of one order (versions 1…n), each in a transaction of its own. */
async function recordEvents(n: number, type: 'order.updated' | 'order.placed' = 'order.updated') {
  const order = await newOrder()
  for (let v = 1; v <= n; v++) {
    await db.transaction((tx) =>
      record(tx, { type, orderId: order.id, orderNumber: order.number, version: v, data: { step: v } }),
    )
  }
  return order
}

async function newEndpoint(eventTypes?: OrderEventType[]) {
  const { endpoint, secret } = await createEndpoint(db, deps, siteId, {
    url: receiver.url,
    ...(eventTypes ? { eventTypes } : {}),
  })
  receiver.secret = secret
  return endpoint.id
}

async function deliveries(endpointId: string) {
  return db
    .select({ d: webhookDeliveries, version: webhookMessages.orderVersion })
    .from(webhookDeliveries)
    .innerJoin(webhookMessages, eq(webhookMessages.id, webhookDeliveries.messageId))
    .where(eq(webhookDeliveries.endpointId, endpointId))
    .orderBy(webhookDeliveries.messageSeq)
}

const versionsOf = async (endpointId: string, ids: string[]) => {
  const byId = new Map((await deliveries(endpointId)).map((r) => [r.d.messageId, r.version]))
  return ids.map((id) => byId.get(id))
}

beforeAll(async () => {
  tdb = await createTestDatabase()
  db = tdb.database.db
  const [site] = await db.select({ id: sites.id }).from(sites).where(eq(sites.host, 'localhost'))
  siteId = site!.id
  await receiver.start()
})
afterAll(async () => {
  await receiver.stop()
  await tdb?.dispose()
})
beforeEach(async () => {
  await db.delete(webhookEndpoints)
  receiver.reset()
  enqueued.length = 0
  logged.length = 0
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(new Date())
})
afterEach(() => {
  vi.useRealTimers()
})

const advance = (ms: number) => vi.setSystemTime(new Date(Date.now() + ms))

describe('recording an event', () => {
  it('writes the message, a delivery per subscribed endpoint and its job only when the transaction commits', async () => {
    const subscribed = await newEndpoint(['order.placed'])
    const other = await newEndpoint(['order.shipped'])
    const jobs = new LocalJobQueue(db)
    const recordForReal = createWebhookEventSink({ jobs: () => jobs })
    const order = await newOrder()
    const event = {
      type: 'order.placed' as const,
      orderId: order.id,
      orderNumber: order.number,
      version: 1,
      data: {},
    }

    await expect(
      db.transaction(async (tx) => {
        await recordForReal(tx, event)
        throw new Error('the order change failed')
      }),
    ).rejects.toThrow('the order change failed')
    const jobsFor = () => db.select().from(queueJobs).where(eq(queueJobs.name, WEBHOOK_JOB))
    expect(await db.select().from(webhookMessages).where(eq(webhookMessages.orderId, order.id))).toEqual([])
    expect(await deliveries(subscribed)).toEqual([])
    expect(await jobsFor()).toEqual([])
    expect(await newDeliverer().sweep()).toBe(0)
    await newDeliverer().deliverEndpoint(subscribed)
    expect(receiver.requests).toEqual([])

    await db.transaction((tx) => recordForReal(tx, event))
    expect(await deliveries(subscribed)).toHaveLength(1)
    expect(await deliveries(other)).toEqual([])
    expect((await jobsFor()).map((j) => [j.key, j.payload])).toEqual([
      [`endpoint:${subscribed}`, { endpointId: subscribed }],
    ])
    await db.delete(queueJobs).where(eq(queueJobs.name, WEBHOOK_JOB))
  })

  it('sends nothing to a disabled endpoint, nor to another site', async () => {
    const off = await newEndpoint()
    await updateEndpoint(db, deps, siteId, off, { enabled: false })
    const [otherSite] = await db.select({ id: sites.id }).from(sites).where(eq(sites.host, '127.0.0.1'))
    const { endpoint: elsewhere } = await createEndpoint(db, deps, otherSite!.id, { url: receiver.url })
    await recordEvents(1)
    expect(await deliveries(off)).toEqual([])
    expect(await deliveries(elsewhere.id)).toEqual([])
  })
})

describe('delivering', () => {
  it('signs every message so that the standardwebhooks library verifies it, with the type, order number and version', async () => {
    const ep = await newEndpoint()
    const order = await recordEvents(1, 'order.placed')
    const run = await newDeliverer().deliverEndpoint(ep)
    expect(run).toMatchObject({ delivered: 1, failed: 0, stopped: 'idle' })
    expect(receiver.requests).toEqual([
      { id: expect.stringMatching(/^msg_/), type: 'order.placed', orderNumber: order.number, verified: true },
    ])
    const [row] = await deliveries(ep)
    expect(row!.d).toMatchObject({ status: 'delivered', attempts: 1, lastStatusCode: 204 })
  })

  it('sends an endpoint its messages in the order they were recorded, one at a time', async () => {
    const ep = await newEndpoint()
    await recordEvents(6)
    receiver.delayMs = 20
    await newDeliverer().deliverEndpoint(ep)
    expect(await versionsOf(ep, receiver.accepted)).toEqual([1, 2, 3, 4, 5, 6])
    expect(receiver.maxInFlight).toBe(1)
  })

  it('retries a delivery whose answer was lost, with the same webhook-id, so the receiver can drop the repeat', async () => {
    const ep = await newEndpoint()
    await recordEvents(2)
    const deliverer = newDeliverer()
    receiver.mode = 'drop'
    expect(await deliverer.deliverEndpoint(ep)).toMatchObject({ delivered: 0, failed: 1, stopped: 'waiting' })
    receiver.mode = 'ok'
    // Not before its back-off (5 s): the second message waits behind the first.
    expect((await deliverer.deliverEndpoint(ep)).stopped).toBe('waiting')
    advance(RETRY_SCHEDULE_MS[0]! * 1.2)
    expect(await deliverer.deliverEndpoint(ep)).toMatchObject({ delivered: 2, stopped: 'idle' })
    const ids = receiver.requests.map((r) => r.id)
    expect(ids).toHaveLength(3)
    expect(ids[0]).toBe(ids[1])
    expect(receiver.accepted).toHaveLength(2)
    expect(await versionsOf(ep, receiver.accepted)).toEqual([1, 2])
    const rows = await deliveries(ep)
    expect(rows.map((r) => [r.d.status, r.d.attempts])).toEqual([
      ['delivered', 2],
      ['delivered', 1],
    ])
  })

  it('does not send again before the lease ends a delivery whose request timed out (the receiver may still be at it)', async () => {
    const ep = await newEndpoint()
    await recordEvents(1)
    const deliverer = newDeliverer({ requestTimeoutMs: 200, leaseMs: 10_000 })
    receiver.delayMs = 600
    expect(await deliverer.deliverEndpoint(ep)).toMatchObject({ failed: 1, stopped: 'waiting' })
    expect((await deliveries(ep))[0]!.d.lastError).toBe('no answer within 200 ms')
    await new Promise((r) => setTimeout(r, 700))
    receiver.delayMs = 0
    advance(6_000)
    expect((await deliverer.deliverEndpoint(ep)).stopped).toBe('waiting')
    advance(5_000)
    expect(await deliverer.deliverEndpoint(ep)).toMatchObject({ delivered: 1, stopped: 'idle' })
    expect(new Set(receiver.requests.map((r) => r.id)).size).toBe(1)
  })

  it('delivers everything, in order and once each, to an endpoint that was down for an hour', async () => {
    const ep = await newEndpoint()
    await recordEvents(3)
    const deliverer = newDeliverer()
    const start = Date.now()
    receiver.mode = 'down'
    // The sweep and the jobs run every minute of the outage and of the three hours after it.
    for (let minute = 0; minute <= 180; minute++) {
      vi.setSystemTime(start + minute * 60_000)
      if (minute === 60) receiver.mode = 'ok'
      enqueued.length = 0
      await deliverer.sweep()
      for (const job of enqueued)
        await webhookJob(() => deliverer)(job.payload, { signal: new AbortController().signal, attempt: 1 })
    }
    // Down: attempts at 0, 5 s, ~5 min and ~35 min, all of the first message; then ~2 h 35 min.
    const beforeUp = receiver.requests.filter((r) => r.id === receiver.requests[0]!.id)
    expect(beforeUp.length).toBe(5)
    expect(new Set(receiver.requests.slice(0, 4).map((r) => r.id)).size).toBe(1)
    expect(receiver.requests.every((r) => r.verified)).toBe(true)
    expect(receiver.accepted).toHaveLength(3)
    expect(await versionsOf(ep, receiver.accepted)).toEqual([1, 2, 3])
    expect(receiver.requests).toHaveLength(4 + 3)
    const endpoint = await getEndpoint(db, siteId, ep)
    expect(endpoint).toMatchObject({
      enabled: true,
      failingSince: null,
      consecutiveFailures: 0,
      undelivered: 0,
    })
  })

  it('disables an endpoint that failed through the whole schedule, logs an error, e-mails the owner, and resumes in order once enabled', async () => {
    const ep = await newEndpoint()
    await recordEvents(2)
    const deliverer = newDeliverer()
    receiver.mode = 'down'
    for (let attempt = 1; attempt <= RETRY_SCHEDULE_MS.length + 1; attempt++) {
      const [head] = await deliveries(ep)
      vi.setSystemTime(head!.d.nextAttemptAt)
      expect((await deliverer.deliverEndpoint(ep)).stopped).toBe('waiting')
    }
    const endpoint = await getEndpoint(db, siteId, ep)
    expect(endpoint).toMatchObject({
      enabled: false,
      consecutiveFailures: RETRY_SCHEDULE_MS.length + 1,
      undelivered: 2,
    })
    expect(endpoint.disabledReason).toMatch(/attempts in a row since/)
    expect(logged.filter((l) => l.level === 'error').map((l) => l.msg)).toEqual([
      'webhook endpoint disabled: it keeps failing',
    ])
    const mails = await db
      .select()
      .from(mailJobs)
      .where(sql`${mailJobs.dedupeKey} like ${`webhook-disabled:${ep}:%`}`)
    expect(mails).toHaveLength(1)
    expect(mails[0]!.message).toMatchObject({
      to: ['owner@example.com'],
      subject: `Webhook endpoint disabled: ${receiver.url}`,
    })
    // Disabled: nothing more is sent, however long it waits.
    advance(7 * 86_400_000)
    expect((await deliverer.deliverEndpoint(ep)).stopped).toBe('disabled')
    expect(await deliverer.sweep()).toBe(0)
    const tried = receiver.requests.length
    expect(tried).toBe(RETRY_SCHEDULE_MS.length + 1)

    receiver.mode = 'ok'
    enqueued.length = 0
    await updateEndpoint(db, deps, siteId, ep, { enabled: true })
    expect(enqueued).toEqual([{ name: WEBHOOK_JOB, payload: { endpointId: ep }, key: `endpoint:${ep}` }])
    expect(await deliverer.deliverEndpoint(ep)).toMatchObject({ delivered: 2, stopped: 'idle' })
    expect(await versionsOf(ep, receiver.accepted)).toEqual([1, 2])
    expect(await getEndpoint(db, siteId, ep)).toMatchObject({
      enabled: true,
      disabledReason: null,
      failingSince: null,
    })
  })

  it('disables at once an endpoint that answers 410 Gone', async () => {
    const ep = await newEndpoint()
    await recordEvents(1)
    receiver.mode = 'gone'
    await newDeliverer().deliverEndpoint(ep)
    expect(await getEndpoint(db, siteId, ep)).toMatchObject({
      enabled: false,
      disabledReason: expect.stringMatching(/410 Gone/),
    })
  })

  it('abandons the backlog instead when enabled with skipBacklog', async () => {
    const ep = await newEndpoint()
    await updateEndpoint(db, deps, siteId, ep, { enabled: false })
    await db.update(webhookEndpoints).set({ enabled: true }).where(eq(webhookEndpoints.id, ep))
    await recordEvents(2)
    await updateEndpoint(db, deps, siteId, ep, { enabled: false })
    await updateEndpoint(db, deps, siteId, ep, { enabled: true, skipBacklog: true })
    expect((await deliveries(ep)).map((r) => r.d.status)).toEqual(['abandoned', 'abandoned'])
    await newDeliverer().deliverEndpoint(ep)
    expect(receiver.requests).toEqual([])
  })

  it.runIf(!!process.env.DATABASE_URL)(
    'is not held up by an order transaction that is still open after recording an event for the endpoint',
    async () => {
      const ep = await newEndpoint()
      await recordEvents(1)
      const order = await newOrder()
      let release!: () => void
      const gate = new Promise<void>((r) => (release = r))
      let recorded!: () => void
      const inside = new Promise<void>((r) => (recorded = r))
      const open = db.transaction(async (tx) => {
        await record(tx, {
          type: 'order.updated',
          orderId: order.id,
          orderNumber: order.number,
          version: 9,
          data: {},
        })
        recorded()
        await gate
      })
      await inside
      try {
        const run = await Promise.race([
          newDeliverer().deliverEndpoint(ep),
          new Promise<'blocked'>((r) => setTimeout(() => r('blocked'), 3000)),
        ])
        expect(run).toMatchObject({ delivered: 1, stopped: 'idle' })
      } finally {
        release()
        await open
      }
      expect(await newDeliverer().deliverEndpoint(ep)).toMatchObject({ delivered: 1 })
      expect(await versionsOf(ep, receiver.accepted)).toEqual([1, 9])
    },
  )
  it.runIf(!!process.env.DATABASE_URL)(
    'lets two order transactions that each record two events for two endpoints, in opposite orders, both commit',
    async () => {
      const [lo, hi] = [await newEndpoint(['order.shipped']), await newEndpoint(['order.cancelled'])].sort()
      await db
        .update(webhookEndpoints)
        .set({ eventTypes: ['order.shipped'] })
        .where(eq(webhookEndpoints.id, lo!))
      await db
        .update(webhookEndpoints)
        .set({ eventTypes: ['order.cancelled'] })
        .where(eq(webhookEndpoints.id, hi!))
      const jobs = new LocalJobQueue(db)
      const rec = createWebhookEventSink({ jobs: () => jobs })
      const [o1, o2] = [await newOrder(), await newOrder()]
      const ev = (o: { id: number; number: number }, type: 'order.shipped' | 'order.cancelled') => ({
        type,
        orderId: o.id,
        orderNumber: o.number,
        version: 1,
        data: {},
      })
      let firstDone!: () => void
      const first = new Promise<void>((r) => (firstDone = r))
      let secondDone!: () => void
      const second = new Promise<void>((r) => (secondDone = r))
      const t1 = db.transaction(async (tx) => {
        await rec(tx, ev(o1, 'order.cancelled')) // the higher endpoint's key
        firstDone()
        await Promise.race([second, new Promise((r) => setTimeout(r, 1500))])
        await rec(tx, ev(o1, 'order.shipped')) // then the lower's
      })
      const t2 = (async () => {
        await first
        return db.transaction(async (tx) => {
          await rec(tx, ev(o2, 'order.shipped')) // the lower endpoint's key
          secondDone()
          await rec(tx, ev(o2, 'order.cancelled')) // then the higher's
        })
      })()
      const outcomes = await Promise.allSettled([t1, t2])
      expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled'])
      expect(await deliveries(lo!)).toHaveLength(2)
      expect(await deliveries(hi!)).toHaveLength(2)
      await db.delete(queueJobs).where(eq(queueJobs.name, WEBHOOK_JOB))
    },
  )
})

describe('keeping messages', () => {
  it('deletes, after 30 days, the messages nobody is owed any more, and keeps the undelivered ones', async () => {
    const up = await newEndpoint()
    await recordEvents(2)
    await newDeliverer().deliverEndpoint(up)
    const down = await newEndpoint()
    receiver.mode = 'down'
    await recordEvents(1)
    await newDeliverer().deliverEndpoint(down)
    const owed = (await deliveries(down))[0]!.d.messageId
    const delivered = (await deliveries(up)).map((r) => r.d.messageId).filter((id) => id !== owed)
    expect(delivered).toHaveLength(2)
    expect(await newDeliverer().prune()).toBe(0)
    advance(KEEP_MESSAGES_MS + 60_000)
    await newDeliverer().prune()
    const left = new Set((await db.select({ id: webhookMessages.id }).from(webhookMessages)).map((r) => r.id))
    expect(delivered.filter((id) => left.has(id))).toEqual([])
    expect(left.has(owed)).toBe(true)
    expect(await deliveries(up)).toHaveLength(1)
  })
})

describe('two instances', () => {
  it('never send one message twice at once, nor out of order, when their deliverers race', async () => {
    const ep = await newEndpoint()
    await recordEvents(8)
    receiver.delayMs = 30
    const [a, b] = [newDeliverer(), newDeliverer()]
    await Promise.all([
      a.deliverEndpoint(ep),
      b.deliverEndpoint(ep),
      a.deliverEndpoint(ep),
      b.deliverEndpoint(ep),
    ])
    // A run that found the endpoint busy stops; what is left goes on the next run.
    while ((await a.deliverEndpoint(ep)).delivered > 0);
    expect(receiver.maxInFlight).toBe(1)
    expect(receiver.requests).toHaveLength(8)
    expect(await versionsOf(ep, receiver.accepted)).toEqual([1, 2, 3, 4, 5, 6, 7, 8])
  })

  const drivers: [string, () => JobQueue, boolean][] = [
    ['the in-process driver', () => new LocalJobQueue(db, { pollMs: 50 }), true],
    [
      'pg-boss',
      () =>
        new PgBossJobQueue({
          connectionString: tdb.database.connectionString!,
          pollingIntervalSeconds: 0.5,
        }),
      !!process.env.DATABASE_URL,
    ],
  ]
  it.each(drivers)(
    'deliver each message once, in order, through two job queues (%s) on one database',
    async (_label, make, enabled) => {
      if (!enabled) return
      vi.useRealTimers()
      const queues: JobQueue[] = []
      for (let i = 0; i < 2; i++) {
        const q = make()
        const deliverer = newDeliverer({ jobs: () => q })
        q.work(
          WEBHOOK_JOB,
          webhookJob(() => deliverer),
          WEBHOOK_JOB_OPTIONS,
        )
        queues.push(q)
      }
      const ep = await newEndpoint()
      receiver.delayMs = 10
      const recordQueued = createWebhookEventSink({ jobs: () => queues[0]! })
      const order = await newOrder()
      await Promise.all(queues.map((q) => q.start()))
      try {
        for (let v = 1; v <= 10; v++) {
          await db.transaction((tx) =>
            recordQueued(tx, {
              type: 'order.updated',
              orderId: order.id,
              orderNumber: order.number,
              version: v,
              data: {},
            }),
          )
          queues[v % 2]!.wake()
        }
        const end = Date.now() + 20_000
        while (receiver.accepted.length < 10 && Date.now() < end) {
          await new Promise((r) => setTimeout(r, 50))
          // The sweep, as the scheduled run does it, for a message queued while a run was ending.
          if (receiver.accepted.length < 10) await newDeliverer({ jobs: () => queues[1]! }).sweep()
        }
      } finally {
        await Promise.all(queues.map((q) => q.stop()))
      }
      expect(receiver.maxInFlight).toBe(1)
      expect(receiver.requests).toHaveLength(10)
      expect(await versionsOf(ep, receiver.accepted)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
      const left = await db
        .select()
        .from(webhookDeliveries)
        .where(and(eq(webhookDeliveries.endpointId, ep), sql`${webhookDeliveries.status} <> 'delivered'`))
      expect(left).toEqual([])
    },
  )
})
