/**
 * The global rate limit counts what costs the shop work, not the static files a page pulls in.
 */
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../../src/server/app.ts'
import { loadConfig } from '../../src/server/config.ts'
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts'

describe('the global rate limit and the static files', () => {
  const LIMIT = 3
  let testDb: TestDatabase
  let app: FastifyInstance
  beforeAll(async () => {
    testDb = await createTestDatabase()
    const config = loadConfig({
      NODE_ENV: 'test',
      SEED_ON_START: 'false',
      RATE_LIMIT_PER_MINUTE: String(LIMIT),
      ...(testDb.database.connectionString ? { DATABASE_URL: testDb.database.connectionString } : {}),
    })
    app = await buildApp(config, { database: testDb.database, migrated: true, startJobs: false })
    await app.ready()
  })
  afterAll(async () => {
    await app?.close()
    await testDb?.dispose()
  })

  const get = (url: string, client: string) =>
    app.inject({ url, headers: { host: 'localhost' }, remoteAddress: client })

  it('serves the public files to a client far past the limit, and still counts its page requests', async () => {
    const files = []
    for (let i = 0; i < LIMIT * 4; i++) files.push((await get('/favicon.svg', '198.51.100.20')).statusCode)
    expect(files).toEqual(Array(LIMIT * 4).fill(200))
    const pages = []
    for (let i = 0; i < LIMIT + 1; i++) pages.push((await get('/robots.txt', '198.51.100.20')).statusCode)
    expect(pages).toEqual([...Array(LIMIT).fill(200), 429])
  })
})
