import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { buildApp, type AppDependencies } from '../../src/server/app.ts'
import type { Database } from '../../src/server/db/client.ts'
import { loadConfig } from '../../src/server/config.ts'
import { buildTestApp, inertiaHeaders, type TestApp } from '../helpers/app.ts'
import { createTestDatabase } from '../helpers/database.ts'
import { EmbeddedSearchEngine } from '../../src/server/modules/search/search.engine.ts'

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp({ metricsToken: 'metrics-token-0123456789' })
})
afterAll(async () => {
  await t?.close()
})

/**
 * An app of its own on a database of its own, not waited on for the search index (buildTestApp
 * waits), closed after `use` whatever it throws.
 */
async function withOwnApp(
  deps: Omit<AppDependencies, 'database' | 'migrated'>,
  use: (app: FastifyInstance, database: Database) => Promise<void>,
) {
  const testDb = await createTestDatabase()
  const app = await buildApp(loadConfig({ NODE_ENV: 'test', SEED_ON_START: 'false' }), {
    ...deps,
    database: testDb.database,
    migrated: true,
  })
  try {
    await use(app, testDb.database)
  } finally {
    await app.close()
    await testDb.dispose()
  }
}

const metrics = () =>
  t.app.inject({ url: '/metrics', headers: { authorization: 'Bearer metrics-token-0123456789' } })

describe('health and readiness', () => {
  it('answers /healthz while the process is alive', async () => {
    const res = await t.app.inject({ url: '/healthz' })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ status: 'ok' })
  })

  it('answers /readyz with each dependency checked', async () => {
    const res = await t.app.inject({ url: '/readyz' })
    expect(res.statusCode).toBe(200)
    const body = res.json()
    expect(body.status).toBe('ready')
    expect(body.checks.database).toEqual({ ok: true })
    expect(body.checks.search).toEqual({ ok: true })
  })

  it('is not ready when the database does not answer', async () => {
    await withOwnApp({}, async (app, database) => {
      await app.ready()
      const ping = database.ping
      database.ping = () => Promise.reject(new Error('connection refused'))
      const res = await app.inject({ url: '/readyz' })
      database.ping = ping
      expect(res.statusCode).toBe(503)
      expect(res.json().checks.database).toEqual({ ok: false, error: 'connection refused' })
    })
  })

  it('starts the first search index build once the first answer has gone', async () => {
    // Only the first answer can start it within this test.
    await withOwnApp({ firstIndexBuildWithinMs: 600_000 }, async (app) => {
      await app.ready()
      await new Promise((resolve) => setTimeout(resolve, 50))
      await app.searchService.idle()
      expect(app.searchService.lastBuild).toBeNull()
      expect((await app.inject({ url: '/healthz' })).statusCode).toBe(200)
      await vi.waitFor(() => expect(app.searchService.lastBuild).not.toBeNull(), { timeout: 20_000 })
      expect((await app.inject({ url: '/readyz' })).statusCode).toBe(200)
    })
  })

  it('starts the first search index build a set time after it is ready when no request comes', async () => {
    await withOwnApp({ firstIndexBuildWithinMs: 20 }, async (app) => {
      await app.ready()
      expect(app.searchService.lastBuild).toBeNull()
      await vi.waitFor(() => expect(app.searchService.lastBuild).not.toBeNull(), { timeout: 20_000 })
    })
  })

  it('listens before the search index is built: not ready until then, and a search made meanwhile waits for the real results', async () => {
    // The first build of the products index is held back until the test lets it go.
    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    class HeldEngine extends EmbeddedSearchEngine {
      override async replaceAll(...args: Parameters<EmbeddedSearchEngine['replaceAll']>) {
        if (args[1] === 'products') await held
        return super.replaceAll(...args)
      }
    }
    await withOwnApp({ searchEngine: new HeldEngine() }, async (app) => {
      try {
        await app.ready()
        const early = await app.inject({ url: '/readyz' })
        expect(early.statusCode).toBe(503)
        expect(early.json().checks.search).toEqual({ ok: false, error: 'the search index is not built yet' })
        // Other pages answer at once.
        expect((await app.inject({ url: '/', headers: { host: 'localhost' } })).statusCode).toBe(200)

        let answered = false
        const search = app
          .inject({ url: '/search?q=sign', headers: inertiaHeaders({ host: 'localhost' }) })
          .then((res) => {
            answered = true
            return res
          })
        await new Promise((resolve) => setTimeout(resolve, 50))
        expect(answered).toBe(false)

        release()
        const res = await search
        expect(res.statusCode).toBe(200)
        expect(res.json().props.listing.pagination.total_results).toBeGreaterThan(0)
        await app.searchService.idle()
        const ready = await app.inject({ url: '/readyz' })
        expect(ready.statusCode).toBe(200)
        expect(ready.json().checks.search).toEqual({ ok: true })
      } finally {
        release()
      }
    })
  })
})

describe('metrics', () => {
  it('refuses /metrics without the configured token', async () => {
    expect((await t.app.inject({ url: '/metrics' })).statusCode).toBe(401)
    expect(
      (await t.app.inject({ url: '/metrics', headers: { authorization: 'Bearer wrong' } })).statusCode,
    ).toBe(401)
  })

  it('counts requests and their latency per route pattern, not per URL', async () => {
    await t.app.inject({ url: '/cart', headers: { host: 'localhost', ...inertiaHeaders() } })
    await t.app.inject({ url: '/no-such-page-1', headers: { host: 'localhost', accept: 'application/json' } })
    const res = await metrics()
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toMatch(/text\/plain/)
    expect(res.body).toMatch(/http_requests_total\{method="GET",route="\/cart",status="\d+"\} 1/)
    expect(res.body).toMatch(/http_request_duration_seconds_bucket\{le="[^"]+",method="GET",route="\/cart"\}/)
    expect(res.body).not.toContain('no-such-page-1')
  })

  it('reports cache hit rates, job lag and Node process figures', async () => {
    await t.app.inject({ url: '/', headers: { host: 'localhost', ...inertiaHeaders() } })
    await t.app.inject({ url: '/', headers: { host: 'localhost', ...inertiaHeaders() } })
    const body = (await metrics()).body
    expect(body).toMatch(/cache_requests\{cache="content",result="hit"\} [1-9]/)
    expect(body).toMatch(/job_lag_seconds\{job="basket-sweep"\} 0/)
    expect(body).toContain('process_cpu_user_seconds_total')
  })
})

describe('graceful shutdown', () => {
  it('answers a request in flight when closing starts, and refuses new ones', async () => {
    const testDb = await createTestDatabase()
    const app = await buildApp(loadConfig({ NODE_ENV: 'test', SEED_ON_START: 'false' }), {
      database: testDb.database,
      migrated: true,
    })
    let release!: () => void
    const held = new Promise<void>((r) => (release = r))
    let arrived!: () => void
    const started = new Promise<void>((r) => (arrived = r))
    app.get('/test/slow', async () => {
      arrived()
      await held
      return { done: true }
    })
    await app.listen({ host: '127.0.0.1', port: 0 })
    const address = app.server.address()
    const port = typeof address === 'object' && address ? address.port : 0
    const inFlight = fetch(`http://127.0.0.1:${port}/test/slow`)
    await started
    // Readiness goes first, so the load balancer stops sending; requests are still answered.
    app.markDraining()
    expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(503)
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200)
    const closing = app.close()
    await new Promise((r) => setTimeout(r, 50))
    release()
    const res = await inFlight
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ done: true })
    await closing
    await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow()
    await testDb.dispose()
  })
})
