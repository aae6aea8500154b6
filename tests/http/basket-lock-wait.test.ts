/**
 * A basket change reads the basket's lines in the same round trip as it locks the basket
 * (ADR 0111: the pool pipelines the two statements). The read must still see the basket as the
 * previous lock holder left it, or a change arriving mid-way would price stale lines: a lost
 * quantity, or a second line of a product another request had just added. Here another
 * transaction holds the basket's lock and has changed its lines; an add that arrives meanwhile
 * waits for it and answers with both changes. Run on PostgreSQL (DATABASE_URL): PGlite runs one
 * transaction at a time, so nothing can arrive while a lock is held.
 */
import { and, eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cartItems, carts } from '../../src/server/db/schema.ts'
import type { ProductRow } from '../../src/server/modules/catalog/catalog.tables.ts'
import type { Cart } from '../../src/shared/cart.ts'
import { insertCategory, insertGroup, insertSku, siteIdFor } from '../factories/product.ts'
import { buildTestApp, type TestApp } from '../helpers/app.ts'
import { Visitor } from '../helpers/visitor.ts'

const onPostgres = describe.skipIf(!process.env.DATABASE_URL)

let t: TestApp
let kept: ProductRow
let added: ProductRow
let categoryId: number

onPostgres('a basket change that arrives while another holds the basket', () => {
  beforeAll(async () => {
    t = await buildTestApp()
    const db = t.app.db
    const siteId = await siteIdFor(db)
    const category = await insertCategory(db, { siteId })
    categoryId = category.id
    const group = await insertGroup(db, { siteId, categoryId: category.id })
    kept = await insertSku(db, { siteId, groupId: group.id })
    added = await insertSku(db, { siteId, groupId: group.id })
  })
  afterAll(() => t?.close())

  /** Resolves once some statement of the test database waits for a lock. */
  async function someoneWaitsForALock(): Promise<void> {
    for (;;) {
      const res = await t.app.db.execute(sql`
        select count(*)::int as waiting from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock'`)
      const rows = (res as unknown as { rows: { waiting: number }[] }).rows
      if (rows[0]!.waiting > 0) return
      await new Promise((r) => setTimeout(r, 10))
    }
  }

  it('waits for the lock and answers with the lines as the holder left them: no lost quantity, no second line', async () => {
    const v = await new Visitor(t.app).start()
    const first = (
      await v.post('/cart/add', { items: [{ listing_id: kept.id, quantity: 1 }] })
    ).json() as Cart
    const cartId = first.id!
    let release!: () => void
    const released = new Promise<void>((r) => (release = r))
    let locked!: () => void
    const isLocked = new Promise<void>((r) => (locked = r))

    // Another change of the same basket, mid-way: it holds the lock, has set the kept line to 5
    // and added a line of the other product, and has not committed yet.
    const holder = t.app.db.transaction(async (tx) => {
      await tx.select({ id: carts.id }).from(carts).where(eq(carts.id, cartId)).for('update')
      await tx
        .update(cartItems)
        .set({ quantity: 5 })
        .where(and(eq(cartItems.cartId, cartId), eq(cartItems.productId, kept.id)))
      await tx.insert(cartItems).values({ cartId, productId: added.id, categoryId, quantity: 2 })
      locked()
      await released
    })
    await isLocked
    const add = v.post('/cart/add', {
      items: [
        { listing_id: kept.id, quantity: 1 },
        { listing_id: added.id, quantity: 1 },
      ],
    })
    await someoneWaitsForALock()
    release()
    await holder
    const res = await add
    expect(res.statusCode).toBe(200)

    const quantities = (cart: Cart) =>
      cart.items.map((i) => [i.product.id, i.quantity]).sort((a, b) => a[0]! - b[0]!)
    const expected = [
      [kept.id, 6],
      [added.id, 3],
    ].sort((a, b) => a[0]! - b[0]!)
    expect(quantities(res.json() as Cart)).toEqual(expected)
    expect(quantities((await v.post('/cart/init', {})).json() as Cart)).toEqual(expected)
    expect((res.json() as Cart).cart_total_items).toBe(9)
  })
})
