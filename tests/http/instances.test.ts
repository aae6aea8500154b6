/**
 * Two app instances on one PostgreSQL database: what one writes, the other shows within 5 s
 * (ADR 0081), instances starting together on an empty database do not race, and a file uploaded
 * through one is read through the other from the S3-compatible bucket they share (ADR 0175).
 * PostgreSQL only: the embedded database belongs to one process.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { and, eq } from 'drizzle-orm'
import S3rver from 's3rver'
import sharp from 'sharp'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../../src/server/app.ts'
import { loadConfig } from '../../src/server/config.ts'
import { openDatabase, type Database } from '../../src/server/db/client.ts'
import { categories, productGroups, products, sites } from '../../src/server/db/schema.ts'
import { prepareDatabase } from '../../src/server/ops/startup.ts'
import { AdminTokens } from '../../src/server/modules/admin/admin.tokens.ts'
import type { ProductPageProps } from '../../src/shared/product.ts'
import { inertiaHeaders } from '../helpers/app.ts'
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts'
import { Visitor } from '../helpers/visitor.ts'
import { brackets, createProduct } from '../factories/product.ts'

const url = process.env.DATABASE_URL
const onPostgres = describe.skipIf(!url)

/** Polls `read` until `accept` holds, for at most 5 s (the promise of ADR 0081). */
async function within5s<T>(read: () => Promise<T>, accept: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 5000
  for (;;) {
    const value = await read()
    if (accept(value) || Date.now() > deadline) return value
    await new Promise((r) => setTimeout(r, 50))
  }
}

onPostgres('two instances on one PostgreSQL database', () => {
  let testDb: TestDatabase
  let second: Database
  let a: FastifyInstance
  let b: FastifyInstance

  beforeAll(async () => {
    testDb = await createTestDatabase()
    second = await openDatabase({ driver: 'postgres', url: testDb.database.connectionString!, poolSize: 4 })
    const config = loadConfig({ NODE_ENV: 'test', SEED_ON_START: 'false' })
    a = await buildApp(config, { database: testDb.database, migrated: true })
    b = await buildApp(config, { database: second, migrated: true })
    await Promise.all([a.ready(), b.ready()])
  })
  afterAll(async () => {
    await a?.close()
    await b?.close()
    await second?.close()
    await testDb?.dispose()
  })

  const pageHeaders = (app: FastifyInstance) => ({
    ...inertiaHeaders(),
    'x-inertia-version': app.assetVersion,
  })
  const productPage = async (app: FastifyInstance, path: string) => {
    const res = await app.inject({ url: path, headers: { host: 'localhost', ...pageHeaders(app) } })
    expect(res.statusCode).toBe(200)
    return res.json().props as ProductPageProps
  }

  it('shows a price changed through one instance on the other within 5 s', async () => {
    const f = await createProduct(a.db)
    a.catalog.invalidate({ siteId: f.group.siteId, groupIds: [f.group.id] })
    const before = await productPage(b, f.group.url)
    expect(before.product.grids[0]!.rows[0]!.options[0]!.prices).toEqual([1000, 900, 800])

    await a.db
      .update(products)
      .set({
        priceList: [
          { lowerQty: 1, higherQty: 9, price: 1200, name: '1-9' },
          { lowerQty: 10, higherQty: 24, price: 1100, name: '10-24' },
          { lowerQty: 25, higherQty: null, price: 1000, name: '25+' },
        ],
      })
      .where(eq(products.id, f.skus[0]!.id))
    a.catalog.invalidate({ siteId: f.group.siteId, groupIds: [f.group.id] })

    const after = await within5s(
      () => productPage(b, f.group.url),
      (p) => p.product.grids[0]!.rows[0]!.options[0]!.prices[0] === 1200,
    )
    expect(after.product.grids[0]!.rows[0]!.options[0]!.prices).toEqual([1200, 1100, 1000])
  })

  it('shows on the other instance a price imported through the back-office API of one', async () => {
    const f = await createProduct(a.db)
    expect((await productPage(b, f.group.url)).product.grids[0]!.rows[0]!.options[0]!.prices[0]).toBe(1000)
    const { token } = await new AdminTokens(a.db).create('localhost', 'two-instance test')
    const res = await a.inject({
      method: 'PUT',
      url: '/api/admin/v1/catalog/skus',
      headers: { host: 'localhost', authorization: `Bearer ${token}` },
      payload: {
        items: [
          {
            sku: f.skus[0]!.sku,
            priceList: [
              { lowerQty: 1, higherQty: 9, price: 4321, name: '1-9' },
              { lowerQty: 10, higherQty: 24, price: 4000, name: '10-24' },
              { lowerQty: 25, higherQty: null, price: 3900, name: '25+' },
            ],
          },
        ],
      },
    })
    expect(res.statusCode, res.body).toBe(200)
    const after = await within5s(
      () => productPage(b, f.group.url),
      (p) => p.product.grids[0]!.rows[0]!.options[0]!.prices[0] === 4321,
    )
    expect(after.product.grids[0]!.rows[0]!.options[0]!.prices[0]).toBe(4321)
  })

  it("re-indexes the changed product in the other instance's search index", async () => {
    const f = await createProduct(a.db, { group: { name: 'Quokka Warning Placard' } })
    a.catalog.invalidate({ siteId: f.group.siteId, groupIds: [f.group.id] })
    const searcher = await new Visitor(b).start()
    const hits = await within5s(
      async () => {
        await b.searchService.idle()
        const res = await searcher.post('/search/1/indexes/*/queries', {
          requests: [
            { indexName: 'products', query: 'quokka placard', filters: 'type:product AND status:published' },
          ],
        })
        expect(res.statusCode, res.body).toBe(200)
        return res.json().results[0].hits as { name: string }[]
      },
      (h) => h.some((x) => x.name === 'Quokka Warning Placard'),
    )
    expect(hits.map((h) => h.name)).toContain('Quokka Warning Placard')
  })

  it('shows a basket changed on one instance in the header summary of the next page on the other', async () => {
    const f = await createProduct(a.db)
    a.catalog.invalidate({ siteId: f.group.siteId, groupIds: [f.group.id] })
    const onA = await new Visitor(a).start()
    const onB = new Visitor(b)
    const summaryOnB = async () => {
      Object.assign(onB.cookies, onA.cookies)
      const res = await onB.request('GET', '/', undefined, pageHeaders(b))
      expect(res.statusCode).toBe(200)
      return res.json().props.cart as { count: number; total: number }
    }
    const add = async (quantity: number) => {
      const res = await onA.post('/cart/add', {
        items: [{ listing_id: f.skus[0]!.id, quantity, category_id: f.category.id }],
      })
      expect(res.statusCode).toBe(200)
    }
    await add(2)
    expect((await within5s(summaryOnB, (s) => s.count === 2)).count).toBe(2)
    // B has now cached the summary; a change on A must reach it.
    await add(3)
    expect((await within5s(summaryOnB, (s) => s.count === 5)).count).toBe(5)
  })

  it('shows on the Cart page of the other instance a basket changed, and a price changed, through one', async () => {
    const f = await createProduct(a.db)
    a.catalog.invalidate({ siteId: f.group.siteId, groupIds: [f.group.id] })
    const onA = await new Visitor(a).start()
    const onB = new Visitor(b)
    const basketOnB = async () => {
      Object.assign(onB.cookies, onA.cookies)
      const res = await onB.request('GET', '/cart', undefined, pageHeaders(b))
      expect(res.statusCode).toBe(200)
      return res.json().props.basket as { items: { quantity: number; unit_price: number }[] }
    }
    const add = async (quantity: number) => {
      const res = await onA.post('/cart/add', {
        items: [{ listing_id: f.skus[0]!.id, quantity, category_id: f.category.id }],
      })
      expect(res.statusCode).toBe(200)
    }
    await add(2)
    expect((await within5s(basketOnB, (c) => c.items[0]?.quantity === 2)).items[0]!.quantity).toBe(2)
    // B keeps the Cart page's read now (ADR 0115); A's change must reach it.
    await basketOnB()
    await add(3)
    expect((await within5s(basketOnB, (c) => c.items[0]?.quantity === 5)).items[0]!.quantity).toBe(5)

    await a.db
      .update(products)
      .set({ priceList: brackets(1700) })
      .where(eq(products.id, f.skus[0]!.id))
    a.catalog.invalidate({ siteId: f.group.siteId, groupIds: [f.group.id] })
    expect((await within5s(basketOnB, (c) => c.items[0]?.unit_price === 1700)).items[0]!.unit_price).toBe(
      1700,
    )
  })

  it('stops serving on the other instance a session that one instance ended (both cache sessions)', async () => {
    const f = await createProduct(a.db)
    a.catalog.invalidate({ siteId: f.group.siteId, groupIds: [f.group.id] })
    const onA = await new Visitor(a).start()
    const add = await onA.post('/cart/add', {
      items: [{ listing_id: f.skus[0]!.id, quantity: 2, category_id: f.category.id }],
    })
    expect(add.statusCode).toBe(200)
    // The session as it was: B reads it once (and keeps it), showing the basket.
    const oldCookies = { ...onA.cookies }
    const onB = new Visitor(b)
    const summaryOnB = async () => {
      Object.assign(onB.cookies, oldCookies)
      const res = await onB.request('GET', '/', undefined, pageHeaders(b))
      expect(res.statusCode).toBe(200)
      return res.json().props.cart as { count: number; total: number }
    }
    expect((await within5s(summaryOnB, (s) => s.count === 2)).count).toBe(2)
    // Logging in on A rotates the session: the old one is destroyed there and must end on B too.
    const login = await onA.post('/login', {
      email: 'demo@harbour-safety.example',
      password: 'Harbour-demo-2026',
      remember: '',
      redirect: true,
    })
    expect(login.statusCode).toBe(303)
    expect(onA.cookies.shop_session).not.toBe(oldCookies.shop_session)
    expect((await within5s(summaryOnB, (s) => s.count === 0)).count).toBe(0)
  })

  it('applies a redirect rule set on one instance on the other', async () => {
    const [site] = await a.db.select({ id: sites.id }).from(sites).where(eq(sites.host, 'localhost'))
    await a.searchService.setRedirect(site!.id, 'Opening Hours', '/pages/opening-hours')
    const redirect = await within5s(
      async () => b.searchService.redirectFor(site!.id, 'opening hours'),
      (r) => r !== null,
    )
    expect(redirect).toBe('/pages/opening-hours')
    await a.searchService.removeRedirect(site!.id, 'opening hours')
    expect(
      await within5s(
        async () => b.searchService.redirectFor(site!.id, 'opening hours'),
        (r) => r === null,
      ),
    ).toBeNull()
  })

  it('drops the content cache of the other instance when one publishes', async () => {
    let dropped = 0
    b.content.onInvalidate(() => dropped++)
    a.content.invalidate()
    expect(
      await within5s(
        async () => dropped,
        (n) => n > 0,
      ),
    ).toBeGreaterThan(0)
  })
})

onPostgres('instances starting together', () => {
  it('migrate and seed an empty database once, under the startup lock', async () => {
    const { default: pg } = await import('pg')
    const name = `shop_t_${process.pid}_start`
    const admin = new pg.Client({ connectionString: url })
    await admin.connect()
    await admin.query(`drop database if exists "${name}" with (force)`)
    await admin.query(`create database "${name}"`)
    const target = new URL(url!)
    target.pathname = `/${name}`
    const dbs = await Promise.all(
      [0, 1].map(() => openDatabase({ driver: 'postgres', url: target.toString(), poolSize: 2 })),
    )
    try {
      await Promise.all(dbs.map((d) => prepareDatabase(d, { seed: true, log: () => {} })))
      const rows = await dbs[0]!.db.select({ host: sites.host }).from(sites)
      expect(rows.length).toBeGreaterThan(0)
      expect(new Set(rows.map((r) => r.host)).size).toBe(rows.length)
    } finally {
      for (const d of dbs) await d.close()
      await admin.query(`drop database if exists "${name}" with (force)`)
      await admin.end()
    }
  })
})

onPostgres('two instances keep uploads in one bucket, each with a folder of its own', () => {
  let testDb: TestDatabase
  let second: Database
  let a: FastifyInstance
  let b: FastifyInstance
  let dir: string
  let s3: S3rver

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'shop-instances-'))
    s3 = new S3rver({
      address: '127.0.0.1',
      port: 0,
      silent: true,
      directory: join(dir, 's3'),
      configureBuckets: [{ name: 'shop-uploads', configs: [] }],
    })
    const { port } = await s3.run()
    testDb = await createTestDatabase()
    second = await openDatabase({ driver: 'postgres', url: testDb.database.connectionString!, poolSize: 4 })
    // Configured as a deployment would be, through the environment; each its own upload folder.
    const config = (folder: string) =>
      loadConfig({
        NODE_ENV: 'test',
        SEED_ON_START: 'false',
        UPLOAD_STORE: 's3',
        S3_ENDPOINT: `http://127.0.0.1:${port}`,
        S3_BUCKET: 'shop-uploads',
        S3_ACCESS_KEY_ID: 'S3RVER',
        S3_SECRET_ACCESS_KEY: 'S3RVER',
        S3_PREFIX: 'shop/',
        UPLOAD_DIR: join(dir, folder),
      })
    a = await buildApp(config('a'), { database: testDb.database, migrated: true, startJobs: false })
    b = await buildApp(config('b'), { database: second, migrated: true, startJobs: false })
    await Promise.all([a.ready(), b.ready()])
  })
  afterAll(async () => {
    await a?.close()
    await b?.close()
    await second?.close()
    await testDb?.dispose()
    await s3?.close()
    await rm(dir, { recursive: true, force: true })
  })

  it('reads through one instance the workwear logo uploaded through the other, and its preview', async () => {
    const [polo] = await a.db
      .select({ categoryId: categories.id, garmentId: productGroups.id })
      .from(categories)
      .innerJoin(sites, eq(sites.id, categories.siteId))
      .innerJoin(productGroups, eq(productGroups.categoryId, categories.id))
      .where(
        and(
          eq(sites.host, 'localhost'),
          eq(categories.url, '/personalised-workwear'),
          eq(productGroups.name, 'Polo shirt'),
        ),
      )
    const logo = await sharp({ create: { width: 64, height: 32, channels: 3, background: '#0a7' } })
      .png()
      .toBuffer()
    const onA = await new Visitor(a).start()
    const saved = await onA.post(`/custom-workwear/${polo!.categoryId}`, {
      garment: polo!.garmentId,
      colour: 'Navy',
      sizes: { M: 2 },
      positions: ['left-chest'],
      text: '',
      logo: { type: 'image/png', data: logo.toString('base64'), name: 'logo.png' },
    })
    expect(saved.statusCode, saved.body).toBe(200)
    const sessionId = (saved.json() as { session_id: string }).session_id

    const onB = new Visitor(b)
    Object.assign(onB.cookies, onA.cookies)
    const read = await onB.request('GET', `/custom-workwear/logo/${sessionId}`)
    expect(read.statusCode).toBe(200)
    expect(read.headers['content-type']).toBe('image/png')
    expect(await sharp(read.rawPayload).metadata()).toMatchObject({ width: 64, height: 32 })
    const preview = await onB.request('GET', `/custom-workwear/preview/${sessionId}.svg`)
    expect(preview.body).toContain('<image href="data:image/png;base64,')

    // Nothing went to either instance's own folder: the bucket is the only place it is kept.
    for (const folder of ['a', 'b']) {
      expect(await readdir(join(dir, folder)).catch(() => [])).toEqual([])
    }
  })
})
