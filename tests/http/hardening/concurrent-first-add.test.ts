/**
 * One basket per visitor whatever the timing: ten simultaneous first 'Add to Basket' calls (a
 * double-click on the first add does it) keep all ten items in one basket. Run on PostgreSQL
 * with DATABASE_URL (the row locks and the unique owner key are what make it hold).
 */
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { carts } from '../../../src/server/db/schema.ts'
import type { Cart } from '../../../src/shared/cart.ts'
import { buildTestApp, type TestApp } from '../../helpers/app.ts'
import { Visitor } from '../../helpers/visitor.ts'
import { insertCategory, insertGroup, insertSku, siteIdFor } from '../../factories/product.ts'
import type { ProductRow } from '../../../src/server/modules/catalog/catalog.tables.ts'

let t: TestApp
let siteId: number
let sku: ProductRow
let other: ProductRow

beforeAll(async () => {
  t = await buildTestApp()
  const db = t.app.db
  siteId = await siteIdFor(db)
  const category = await insertCategory(db, { siteId })
  const group = await insertGroup(db, { siteId, categoryId: category.id })
  sku = await insertSku(db, { siteId, groupId: group.id })
  other = await insertSku(db, { siteId, groupId: group.id })
})
afterAll(() => t?.close())

const add = (v: Visitor, id: number) => v.post('/cart/add', { items: [{ listing_id: id, quantity: 1 }] })

describe('simultaneous first adds', () => {
  it('ten at once from a visitor with no basket keep ten items in one basket', async () => {
    const before = await t.app.db.select({ id: carts.id }).from(carts).where(eq(carts.siteId, siteId))
    const v = await new Visitor(t.app).start()
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => add(v, i % 2 ? sku.id : other.id)))
    for (const r of results) expect(r.statusCode).toBe(200)
    const after = await t.app.db.select({ id: carts.id }).from(carts).where(eq(carts.siteId, siteId))
    expect(after.length - before.length).toBe(1)
    const now = (await v.post('/cart/init', {})).json() as Cart
    expect(now.items.reduce((n, i) => n + i.quantity, 0)).toBe(10)
  })

  it('ten at once from a visitor who already has a session keep ten items', async () => {
    const v = await new Visitor(t.app).start()
    await v.post('/cart/clear', {})
    await add(v, sku.id)
    await v.post('/cart/clear', {})
    const results = await Promise.all(Array.from({ length: 10 }, () => add(v, sku.id)))
    for (const r of results) expect(r.statusCode).toBe(200)
    const now = (await v.post('/cart/init', {})).json() as Cart
    expect(now.items.reduce((n, i) => n + i.quantity, 0)).toBe(10)
  })

  it('two visitors never share a basket', async () => {
    const a = await new Visitor(t.app).start()
    const b = await new Visitor(t.app).start()
    await Promise.all([add(a, sku.id), add(b, sku.id), add(a, sku.id)])
    const ca = (await a.post('/cart/init', {})).json() as Cart
    const cb = (await b.post('/cart/init', {})).json() as Cart
    expect(ca.items.reduce((n, i) => n + i.quantity, 0)).toBe(2)
    expect(cb.items.reduce((n, i) => n + i.quantity, 0)).toBe(1)
  })
})
