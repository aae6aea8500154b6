/**
 * A search index every instance shares (Algolia) is rebuilt once for all of them (ADR 0250): two
 * instances hear the same whole-site catalogue change (the admin reindex) and each queues the
 * `search-reindex` job under the site's key; the records are pushed once. The embedded index,
 * each process's own, is rebuilt by each instance. Real database, the in-process queue driver.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { queueJobs, sites } from '../../src/server/db/schema.ts'
import { LocalJobQueue } from '../../src/server/jobs/queue.local.ts'
import { CatalogService } from '../../src/server/modules/catalog/catalog.service.ts'
import type { IndexRecord } from '../../src/server/modules/search/engine.ts'
import { EmbeddedSearchEngine, type SearchEngine } from '../../src/server/modules/search/search.engine.ts'
import { SearchService } from '../../src/server/modules/search/search.service.ts'
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts'

let tdb: TestDatabase
beforeAll(async () => {
  tdb = await createTestDatabase()
})
afterAll(() => tdb?.dispose())

const log = { info() {}, warn() {}, error() {}, debug() {} } as never

/** A stand-in for one hosted index: records every full replacement it is asked for. */
function sharedIndex() {
  const replaced: { siteId: number; records: number }[] = []
  const engine: SearchEngine = {
    kind: 'algolia',
    search: async () => [],
    // Suggestions are replaced per instance from its own reads; the products index is the shared one.
    replaceAll: async (siteId: number, index: string, records: IndexRecord[]) =>
      void (index === 'products' && replaced.push({ siteId, records: records.length })),
    save: async () => {},
    remove: async () => {},
    sendClicks: async () => {},
    close: async () => {},
  }
  return { engine, replaced }
}

/** One app instance's search side: its catalogue, its search service and its queue. */
function instance(engine: SearchEngine) {
  const db = tdb.database.db
  const catalog = new CatalogService(db)
  const search = new SearchService(db, engine, catalog, log)
  const jobs = new LocalJobQueue(db, { pollMs: 50 })
  jobs.work('search-reindex', (p) => search.rebuildSharedIndex((p as { siteId: number }).siteId), {
    timeoutMs: 10_000,
  })
  if (engine.kind !== 'embedded')
    search.queueSharedRebuildsWith((siteId) =>
      jobs.enqueue(db, 'search-reindex', { siteId }, { key: `site:${siteId}` }),
    )
  return { catalog, search, jobs }
}

const reindexJobs = async () =>
  (await tdb.database.db.select().from(queueJobs).where(eq(queueJobs.name, 'search-reindex'))).length

describe('the search-reindex job', () => {
  it('pushes a shared index once when two instances hear the same whole-site change', async () => {
    const [site] = await tdb.database.db.select({ id: sites.id }).from(sites).limit(1)
    const shared = sharedIndex()
    const a = instance(shared.engine)
    const b = instance(shared.engine)
    // The admin reindex on one instance, and the same change heard by the other over the bus.
    a.catalog.invalidate({ siteId: site!.id })
    b.catalog.invalidate({ siteId: site!.id })
    await Promise.all([a.search.idle(), b.search.idle()])
    expect(shared.replaced).toEqual([])
    await a.jobs.start()
    await b.jobs.start()
    a.jobs.wake()
    b.jobs.wake()
    await expect.poll(() => shared.replaced.length, { timeout: 10_000 }).toBe(1)
    await new Promise((r) => setTimeout(r, 500))
    await Promise.all([a.jobs.stop(), b.jobs.stop()])
    expect(shared.replaced).toHaveLength(1)
    expect(shared.replaced[0]).toMatchObject({ siteId: site!.id })
    expect(shared.replaced[0]!.records).toBeGreaterThan(0)
    await Promise.all([a.search.close(), b.search.close()])
  })

  it('leaves each instance to rebuild its own embedded index, with no job', async () => {
    const [site] = await tdb.database.db.select({ id: sites.id }).from(sites).limit(1)
    const jobsBefore = await reindexJobs()
    const engines = [new EmbeddedSearchEngine(), new EmbeddedSearchEngine()]
    const [a, b] = engines.map((e) => instance(e))
    expect(a!.search.sharesRebuilds).toBe(false)
    a!.catalog.invalidate({ siteId: site!.id })
    b!.catalog.invalidate({ siteId: site!.id })
    await Promise.all([a!.search.idle(), b!.search.idle()])
    const found = await Promise.all(
      engines.map(async (e) => (await e.search(site!.id, [{ index: 'products', query: '' }]))[0]!.nbHits),
    )
    expect(found[0]).toBeGreaterThan(0)
    expect(found[1]).toBe(found[0])
    expect(await reindexJobs()).toBe(jobsBefore)
    await Promise.all([a!.search.close(), b!.search.close()])
  })
})
