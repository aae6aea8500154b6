import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { and, eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BuilderConfig, PriceBreak } from '../../src/shared/catalog.ts'
import type { Db } from '../../src/server/db/client.ts'
import {
  categories,
  categoryProducts,
  productAlternatives,
  productGroups,
  products,
  sites,
} from '../../src/server/db/schema.ts'
import { seed } from '../../src/server/db/seed/index.ts'
import { DEFAULT_MEDIA_ROOT } from '../../src/server/db/seed/catalog/index.ts'
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts'

let testDb: TestDatabase
let db: Db
beforeAll(async () => {
  testDb = await createTestDatabase()
  db = testDb.database.db
})
afterAll(async () => {
  await testDb?.dispose()
})

async function counts() {
  const [row] = await db
    .select({
      categories: sql<number>`(select count(*)::int from ${categories})`,
      groups: sql<number>`(select count(*)::int from ${productGroups})`,
      skus: sql<number>`(select count(*)::int from ${products})`,
      memberships: sql<number>`(select count(*)::int from ${categoryProducts})`,
      alternatives: sql<number>`(select count(*)::int from ${productAlternatives})`,
    })
    .from(sql`(select 1) as one`)
  return row as {
    categories: number
    groups: number
    skus: number
    memberships: number
    alternatives: number
  }
}

async function siteId(code: string): Promise<number> {
  const [row] = await db.select({ id: sites.id }).from(sites).where(eq(sites.code, code))
  return (row as { id: number }).id
}

describe('the demo catalogue seed', () => {
  it('holds at least 500 product groups and 2,000 SKUs, most of them on the GBP site', async () => {
    const c = await counts()
    expect(c.groups).toBeGreaterThanOrEqual(500)
    expect(c.skus).toBeGreaterThanOrEqual(2000)
    const harbour = await db.$count(productGroups, eq(productGroups.siteId, await siteId('harbour')))
    expect(harbour).toBeGreaterThan(c.groups / 2)
  })

  it('has a top-level category for every catalogue link in the site navigation', async () => {
    const rows = await db.select({ id: sites.id, settings: sites.settings }).from(sites)
    const expected = [
      '/safety-signs',
      '/furniture',
      '/shelters',
      '/print-and-sign',
      '/mobility',
      '/incontinence',
    ]
    const found: string[] = []
    for (const site of rows) {
      for (const link of (site.settings.navigation ?? []) as { label: string; url: string }[]) {
        if (link.url === '/about-us') continue // a content page
        const [category] = await db
          .select({ parentId: categories.parentId })
          .from(categories)
          .where(
            and(eq(categories.siteId, site.id), eq(categories.url, link.url), eq(categories.published, true)),
          )
        expect(category, link.url).toBeDefined()
        expect(category?.parentId, link.url).toBeNull()
        found.push(link.url)
      }
    }
    expect(found.sort()).toEqual(expected.sort())
  })

  it('changes nothing when it runs a second time', async () => {
    const before = await counts()
    const idsBefore = await db
      .select({ id: products.id, sku: products.sku })
      .from(products)
      .orderBy(products.id)
    const groupBefore = await db
      .select({ id: productGroups.id, uuid: productGroups.uuid, minPrice: productGroups.minPrice })
      .from(productGroups)
      .orderBy(productGroups.id)
    await seed(db)
    expect(await counts()).toEqual(before)
    expect(
      await db.select({ id: products.id, sku: products.sku }).from(products).orderBy(products.id),
    ).toEqual(idsBefore)
    expect(
      await db
        .select({ id: productGroups.id, uuid: productGroups.uuid, minPrice: productGroups.minPrice })
        .from(productGroups)
        .orderBy(productGroups.id),
    ).toEqual(groupBefore)
  })

  it('stores on each group the lowest published unit price of its SKUs', async () => {
    const groups = await db
      .select({ id: productGroups.id, minPrice: productGroups.minPrice })
      .from(productGroups)
    const skus = await db
      .select({ groupId: products.groupId, published: products.published, priceList: products.priceList })
      .from(products)
    const lowest = new Map<number, number>()
    for (const sku of skus) {
      if (!sku.published) continue
      for (const b of sku.priceList)
        lowest.set(sku.groupId, Math.min(lowest.get(sku.groupId) ?? Infinity, b.price))
    }
    for (const g of groups) {
      expect(g.minPrice, `group ${g.id}`).toBe(lowest.get(g.id))
      expect(g.minPrice).toBeGreaterThan(0)
    }
  })

  it('gives every SKU 2 to 5 contiguous brackets with falling prices and an open-ended last one', async () => {
    const skus = await db.select({ sku: products.sku, priceList: products.priceList }).from(products)
    for (const { sku, priceList } of skus) {
      const list = priceList as PriceBreak[]
      expect(list.length, sku).toBeGreaterThanOrEqual(2)
      expect(list.length, sku).toBeLessThanOrEqual(5)
      expect(list[0]?.lowerQty, sku).toBe(1)
      expect(list.at(-1)?.higherQty, sku).toBeNull()
      for (let i = 1; i < list.length; i++) {
        const [prev, cur] = [list[i - 1] as PriceBreak, list[i] as PriceBreak]
        expect(cur.lowerQty, sku).toBe((prev.higherQty as number) + 1)
        expect(cur.price, sku).toBeLessThan(prev.price)
      }
    }
  })

  it('keeps product urls apart from category urls on each site', async () => {
    const clashes = await db
      .select({ url: productGroups.url })
      .from(productGroups)
      .innerJoin(
        categories,
        and(eq(categories.siteId, productGroups.siteId), eq(categories.url, productGroups.url)),
      )
    expect(clashes).toEqual([])
  })

  it('uses all four product layouts, shelters with the shelters layout', async () => {
    const rows = await db
      .select({ layout: productGroups.layout, n: sql<number>`count(*)::int` })
      .from(productGroups)
      .groupBy(productGroups.layout)
    expect(rows.map((r) => r.layout).sort()).toEqual([
      'Default',
      'DefaultPGUnderLD',
      'MediaLeft',
      'SheltersLayout',
    ])
    const shelters = await db
      .select({ layout: productGroups.layout })
      .from(productGroups)
      .where(sql`${productGroups.url} like '/shelters/%'`)
    expect(new Set(shelters.map((s) => s.layout))).toEqual(new Set(['SheltersLayout']))
  })

  it('gives at least three categories a builder whose size items point at real SKUs', async () => {
    const rows = await db
      .select({ url: categories.url, builder: categories.builder })
      .from(categories)
      .where(sql`${categories.builder} is not null`)
    expect(rows.length).toBeGreaterThanOrEqual(3)
    const ids = new Set((await db.select({ id: products.id }).from(products)).map((p) => p.id))
    for (const { url, builder } of rows) {
      const config = builder as BuilderConfig
      expect(config.selectors[0]?.name, url).toBe('Size')
      expect(config.options.length, url).toBeGreaterThan(0)
      for (const item of config.selectors[0]?.items ?? [])
        expect(ids.has(item.product_id as number), url).toBe(true)
    }
  })

  it('has every image and document the catalogue refers to under var/media (or public/media)', async () => {
    const rows = await db
      .select({ media: productGroups.media, files: productGroups.files })
      .from(productGroups)
    const locations = rows.flatMap((r) => [
      ...r.media.map((m) => m.file_location),
      ...r.files.map((f) => f.file_location),
    ])
    expect(locations.length).toBeGreaterThan(500)
    const missing = [...new Set(locations)].filter(
      (l) =>
        !existsSync(join(DEFAULT_MEDIA_ROOT, l.replace(/^\/media\//, ''))) &&
        !existsSync(join(import.meta.dirname, '../../public', l)),
    )
    expect(missing).toEqual([])
  })
})
