/**
 * Rate limits counted in PostgreSQL (ADR 0176): one count per client and route shared by every
 * instance on the database, each request counted exactly once however many arrive together.
 * The counter runs on both databases; the two-instance tests need PostgreSQL (DATABASE_URL).
 */
import rateLimit from '@fastify/rate-limit'
import { eq, sql } from 'drizzle-orm'
import Fastify, { type FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../../src/server/app.ts'
import { loadConfig } from '../../src/server/config.ts'
import { openDatabase, type Database } from '../../src/server/db/client.ts'
import { rateLimitCounts } from '../../src/server/db/schema.ts'
import {
  PostgresRateLimitCounter,
  postgresRateLimitStore,
} from '../../src/server/plugins/rate-limit-store.ts'
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts'

const url = process.env.DATABASE_URL
const MINUTE = 60_000

describe('the PostgreSQL rate-limit counter', () => {
  let testDb: TestDatabase
  let counter: PostgresRateLimitCounter
  beforeAll(async () => {
    testDb = await createTestDatabase()
    counter = new PostgresRateLimitCounter(testDb.database.db)
  })
  afterAll(() => testDb?.dispose())

  /** Moves a key's window end into the past, as if its minute had gone by. */
  const endWindow = (key: string) =>
    testDb.database.db
      .update(rateLimitCounts)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(rateLimitCounts.key, key))

  it('counts the requests of one key within its window and says how long the window has left', async () => {
    const first = await counter.hit('count-a', MINUTE)
    expect(first.current).toBe(1)
    expect(first.ttl).toBeGreaterThan(MINUTE - 5000)
    expect(first.ttl).toBeLessThanOrEqual(MINUTE)
    expect((await counter.hit('count-a', MINUTE)).current).toBe(2)
    const third = await counter.hit('count-a', MINUTE)
    expect(third.current).toBe(3)
    // The window does not move on: a later request ends no later than the first one's window.
    expect(third.ttl).toBeLessThanOrEqual(first.ttl)
    expect((await counter.hit('count-b', MINUTE)).current).toBe(1)
  })

  it('turns off the wait for the disk for its own statement only: the connection keeps its setting', async () => {
    await counter.hit('quick', MINUTE)
    // The embedded database has one connection, so this reads the very one the count ran on.
    const result = await testDb.database.db.execute(
      sql`select current_setting('synchronous_commit') as value`,
    )
    expect((result as unknown as { rows: { value: string }[] }).rows[0]!.value).toBe('on')
  })

  it('starts again from one once the window has ended', async () => {
    await counter.hit('reopen', MINUTE)
    await counter.hit('reopen', MINUTE)
    await endWindow('reopen')
    const next = await counter.hit('reopen', MINUTE)
    expect(next.current).toBe(1)
    expect(next.ttl).toBeGreaterThan(MINUTE - 5000)
  })

  it('reads a count without counting, and reads nothing in an ended window', async () => {
    await counter.hit('peek', MINUTE)
    await counter.hit('peek', MINUTE)
    expect((await counter.read('peek')).current).toBe(2)
    expect((await counter.read('peek')).current).toBe(2)
    expect(await counter.read('never-seen')).toEqual({ current: 0, ttl: 0 })
    await endWindow('peek')
    expect(await counter.read('peek')).toEqual({ current: 0, ttl: 0 })
  })

  it('sweeps the rows of ended windows and keeps the open ones', async () => {
    await counter.hit('sweep-old', MINUTE)
    await counter.hit('sweep-open', MINUTE)
    await endWindow('sweep-old')
    expect(await counter.sweep()).toBeGreaterThanOrEqual(1)
    const keys = (await testDb.database.db.select({ key: rateLimitCounts.key }).from(rateLimitCounts)).map(
      (r) => r.key,
    )
    expect(keys).not.toContain('sweep-old')
    expect(keys).toContain('sweep-open')
  })

  it('counts every one of a burst exactly once: each count from 1 to n is answered once', async () => {
    const n = 120
    const answers = await Promise.all(Array.from({ length: n }, () => counter.hit('burst', MINUTE)))
    expect(answers.map((a) => a.current).sort((x, y) => x - y)).toEqual(
      Array.from({ length: n }, (_, i) => i + 1),
    )
  })

  it('keeps a very long key to a bounded row, still counted apart from its neighbours', async () => {
    const long = `GET /x:${'a'.repeat(5000)}`
    expect((await counter.hit(long, MINUTE)).current).toBe(1)
    expect((await counter.hit(long, MINUTE)).current).toBe(2)
    expect((await counter.hit(`${long}b`, MINUTE)).current).toBe(1)
    const [longest] = await testDb.database.db
      .select({ length: sql<number>`max(length(${rateLimitCounts.key}))::int` })
      .from(rateLimitCounts)
    expect(longest!.length).toBeLessThanOrEqual(200)
  })
})

describe('a count the database cannot take', () => {
  it('lets the request through and reports the failure, as the app registers the store', async () => {
    const down = new Error('connect ECONNREFUSED 127.0.0.1:5432')
    const counter = { hit: () => Promise.reject(down), read: () => Promise.reject(down) }
    const seen: Error[] = []
    const app = Fastify()
    await app.register(rateLimit, {
      global: true,
      max: 1,
      timeWindow: MINUTE,
      store: postgresRateLimitStore(counter as unknown as PostgresRateLimitCounter, (err) => seen.push(err)),
      skipOnError: true,
    })
    app.get('/', async () => 'ok')
    try {
      const answers = [await app.inject('/'), await app.inject('/')]
      expect(answers.map((r) => r.statusCode)).toEqual([200, 200])
      expect(seen).toEqual([down, down])
    } finally {
      await app.close()
    }
  })

  it('refuses the options it does not implement rather than ignoring them', () => {
    const Store = postgresRateLimitStore({} as PostgresRateLimitCounter)
    expect(() => new Store({ continueExceeding: true })).toThrow(/continueExceeding/)
    expect(() => new Store({ exponentialBackoff: true })).toThrow(/exponentialBackoff/)
  })
})

describe.skipIf(!url)('two instances on one PostgreSQL database share their rate limits', () => {
  let testDb: TestDatabase
  let second: Database
  let a: FastifyInstance
  let b: FastifyInstance
  const LIMIT = 20

  beforeAll(async () => {
    testDb = await createTestDatabase()
    second = await openDatabase({ driver: 'postgres', url: testDb.database.connectionString!, poolSize: 4 })
    // What a deployment with DATABASE_URL and no REDIS_URL gets.
    const config = loadConfig({
      NODE_ENV: 'test',
      SEED_ON_START: 'false',
      DATABASE_URL: testDb.database.connectionString!,
      RATE_LIMIT_PER_MINUTE: String(LIMIT),
    })
    expect(config.rateLimitStore).toBe('postgres')
    a = await buildApp(config, { database: testDb.database, migrated: true, startJobs: false })
    b = await buildApp(config, { database: second, migrated: true, startJobs: false })
    await Promise.all([a.ready(), b.ready()])
  })
  afterAll(async () => {
    await a?.close()
    await b?.close()
    await second?.close()
    await testDb?.dispose()
  })

  const get = (app: FastifyInstance, client: string) =>
    app.inject({ url: '/robots.txt', headers: { host: 'localhost' }, remoteAddress: client })

  it('reaches the limit across both instances: requests alternating between them are counted together', async () => {
    const statuses: number[] = []
    for (let i = 0; i < LIMIT + 2; i++) statuses.push((await get(i % 2 ? b : a, '198.51.100.1')).statusCode)
    expect(statuses.slice(0, LIMIT)).toEqual(Array(LIMIT).fill(200))
    // Each instance has answered only half the limit itself; the shared count refuses the next.
    expect(statuses.slice(LIMIT)).toEqual([429, 429])
    const refused = await get(a, '198.51.100.1')
    expect(refused.statusCode).toBe(429)
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0)
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60)
    // Another client keeps its own count.
    expect((await get(b, '198.51.100.2')).statusCode).toBe(200)
  })

  it('lets exactly the limit through when a burst arrives at both instances at once (no lost counts)', async () => {
    const burst = await Promise.all(
      Array.from({ length: LIMIT * 2 }, (_, i) => get(i % 2 ? b : a, '198.51.100.3')),
    )
    const statuses = burst.map((r) => r.statusCode)
    expect(statuses.filter((s) => s === 200)).toHaveLength(LIMIT)
    expect(statuses.filter((s) => s === 429)).toHaveLength(LIMIT)
  })

  it('counts a route with its own limit apart from the global one', async () => {
    // /robots.txt used up this client's global count; the media route has its own.
    for (let i = 0; i < LIMIT + 1; i++) await get(a, '198.51.100.4')
    expect((await get(b, '198.51.100.4')).statusCode).toBe(429)
    const image = await b.inject({
      url: '/media/missing.png',
      headers: { host: 'localhost' },
      remoteAddress: '198.51.100.4',
    })
    expect(image.statusCode).toBe(404)
  })
})
