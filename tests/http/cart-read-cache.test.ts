/**
 * The Cart page's kept reads (ADR 0115): a basket shown again sends no statement, and whatever
 * changes it (the visitor's own writes, the catalogue, a login, an order) is shown at once.
 */
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { carts, products } from '../../src/server/db/schema.ts'
import { withQueryTally, type QueryTally } from '../../src/server/db/query-count.ts'
import type { Cart } from '../../src/shared/cart.ts'
import { buildTestApp, type TestApp } from '../helpers/app.ts'
import { Visitor } from '../helpers/visitor.ts'
import { brackets, createProduct, type ProductFixture } from '../factories/product.ts'

let t: TestApp
let f: ProductFixture

beforeAll(async () => {
  t = await buildTestApp()
  f = await createProduct(t.app.db)
  t.app.catalog.invalidate({ siteId: f.siteId, groupIds: [f.group.id] })
})
afterAll(() => t?.close())

async function basketWith(quantity: number): Promise<Visitor> {
  const v = await new Visitor(t.app).start()
  const res = await v.post('/cart/add', {
    items: [{ listing_id: f.skus[0]!.id, quantity, category_id: f.category.id }],
  })
  expect(res.statusCode, res.body).toBe(200)
  return v
}

/** The Cart page's basket and the statements its request sent. */
async function cartPage(v: Visitor): Promise<{ cart: Cart; statements: number }> {
  const tally: QueryTally = { count: 0 }
  const res = await withQueryTally(tally, () => v.visit('/cart'))
  expect(res.statusCode, res.body).toBe(200)
  return { cart: res.json().props.basket as Cart, statements: tally.count }
}

describe('the Cart page’s kept reads of a basket', () => {
  it('shows a basket again without a statement, and the visitor’s own change at once', async () => {
    const v = await basketWith(2)
    expect((await cartPage(v)).cart.items[0]!.quantity).toBe(2)
    const again = await cartPage(v)
    expect(again.statements).toBe(0)
    expect(again.cart.items[0]!.quantity).toBe(2)

    const line = again.cart.items[0]!.id
    expect((await v.post('/cart/update-items', { items: [{ id: line, quantity: 7 }] })).statusCode).toBe(200)
    const changed = await cartPage(v)
    expect(changed.statements).toBeGreaterThan(0)
    expect(changed.cart.items[0]!.quantity).toBe(7)

    expect((await v.post('/cart/clear')).statusCode).toBe(200)
    expect((await cartPage(v)).cart.items).toEqual([])
  })

  it('shows a new catalogue price on a basket it showed a moment ago, as soon as the catalogue changes', async () => {
    const g = await createProduct(t.app.db)
    t.app.catalog.invalidate({ siteId: g.siteId, groupIds: [g.group.id] })
    const v = await new Visitor(t.app).start()
    await v.post('/cart/add', {
      items: [{ listing_id: g.skus[0]!.id, quantity: 1, category_id: g.category.id }],
    })
    await cartPage(v)
    expect((await cartPage(v)).cart.items[0]!.unit_price).toBe(1000)

    await t.app.db
      .update(products)
      .set({ priceList: brackets(1500) })
      .where(eq(products.id, g.skus[0]!.id))
    t.app.catalog.invalidate({ siteId: g.siteId, groupIds: [g.group.id] })
    expect((await cartPage(v)).cart.items[0]!.unit_price).toBe(1500)
  })

  it('shows what the basket holds now when a read overlapped a change (the overlapping read is not kept)', async () => {
    const v = await basketWith(1)
    const { cart } = await cartPage(v)
    // A view and a change at once: whichever the view saw, the next view shows the change.
    const [, change] = await Promise.all([
      v.visit('/cart'),
      v.post('/cart/update-items', { items: [{ id: cart.items[0]!.id, quantity: 4 }] }),
    ])
    expect(change.statusCode).toBe(200)
    expect((await cartPage(v)).cart.items[0]!.quantity).toBe(4)
  })

  it('shows an empty basket once the sweep has removed a basket it showed a moment ago', async () => {
    const v = await basketWith(3)
    await cartPage(v)
    // Shown from the kept read.
    const { cart, statements } = await cartPage(v)
    expect(statements).toBe(0)
    expect(cart.items).toHaveLength(1)
    // Left alone for two days, as the sweep's abandoned baskets are.
    await t.app.db
      .update(carts)
      .set({ updatedAt: new Date(Date.now() - 2 * 86_400_000) })
      .where(eq(carts.id, cart.id!))
    expect(await t.app.carts.sweep(86_400)).toBeGreaterThan(0)
    const after = await cartPage(v)
    expect(after.cart.items).toEqual([])
  })
})
