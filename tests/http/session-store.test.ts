import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sessions } from '../../src/server/db/schema.ts'
import { DatabaseSessionStore, RedisSessionStore } from '../../src/server/plugins/session.ts'
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts'

const future = () => new Date(Date.now() + 60_000).toISOString()

describe('database session store', () => {
  let testDb: TestDatabase
  let store: DatabaseSessionStore
  beforeAll(async () => {
    testDb = await createTestDatabase()
    store = new DatabaseSessionStore(testDb.database.db, 3600)
  })
  afterAll(() => testDb?.dispose())

  it('keeps, replaces and forgets a session', async () => {
    await store.set('s1', { cookie: { expires: future() }, a: 1 })
    expect(await store.get('s1')).toMatchObject({ a: 1 })
    await store.set('s1', { cookie: { expires: future() }, a: 2 })
    expect(await store.get('s1')).toMatchObject({ a: 2 })
    await store.destroy('s1')
    expect(await store.get('s1')).toBeNull()
  })

  it('treats an expired session as gone and sweeps it away', async () => {
    await store.set('old', { cookie: { expires: new Date(Date.now() - 1000).toISOString() }, a: 1 })
    expect(await store.get('old')).toBeNull()
    await store.set('old2', { cookie: { expires: new Date(Date.now() - 1000).toISOString() } })
    await store.set('live', { cookie: { expires: future() } })
    await store.sweep()
    const ids = (await testDb.database.db.select({ id: sessions.id }).from(sessions)).map((r) => r.id)
    expect(ids).toContain('live')
    expect(ids).not.toContain('old2')
  })
})

// Runs when a Redis server is named (CI sets TEST_REDIS_URL to the machine's Redis).
const redisUrl = process.env.TEST_REDIS_URL
describe.runIf(redisUrl)('redis session store', () => {
  let redis: Redis
  let store: RedisSessionStore
  const prefix = `test:sess:${process.pid}:`
  beforeAll(() => {
    redis = new Redis(redisUrl!)
    store = new RedisSessionStore(redis, 3600, prefix)
  })
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`)
    if (keys.length) await redis.del(...keys)
    await redis.quit()
  })

  it('keeps a session with the cookie expiry as the key expiry, and forgets it', async () => {
    await store.set('r1', { cookie: { expires: future() }, flash: { error: 'x' } })
    expect(await store.get('r1')).toMatchObject({ flash: { error: 'x' } })
    const ttl = await redis.pttl(`${prefix}r1`)
    expect(ttl).toBeGreaterThan(50_000)
    expect(ttl).toBeLessThanOrEqual(60_000)
    await store.destroy('r1')
    expect(await store.get('r1')).toBeNull()
  })
})
