/**
 * The basket tests' shop: one app with a category of signs at three prices, a product with a
 * minimum order, one eligible for VAT relief and a builder category. `useCartFixture()` builds it
 * before the file's tests and closes it after; the bindings below are filled in by then.
 */
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, expect } from 'vitest'
import { customers, sessions } from '../../src/server/db/schema.ts'
import type { Cart } from '../../src/shared/cart.ts'
import { buildTestApp, type TestApp } from '../helpers/app.ts'
import { Visitor } from '../helpers/visitor.ts'
import { insertCategory, insertGroup, insertSku, siteIdFor } from '../factories/product.ts'
import type { ProductRow } from '../../src/server/modules/catalog/catalog.tables.ts'

export let t: TestApp
export let siteId: number
export let categoryId: number
export let builderCategoryId: number
/** 1-9 £10.00, 10-24 £9.00, 25+ £8.00 */
export let sign: ProductRow
/** 1+ £2.50 */
export let cheap: ProductRow
/** minimum order 5 */
export let boxed: ProductRow
export let relief: ProductRow
export let builderBase: ProductRow

export function useCartFixture(): void {
  beforeAll(async () => {
    t = await buildTestApp()
    const db = t.app.db
    siteId = await siteIdFor(db)
    const category = await insertCategory(db, { siteId })
    categoryId = category.id
    const group = await insertGroup(db, { siteId, categoryId })
    sign = await insertSku(db, { siteId, groupId: group.id })
    cheap = await insertSku(db, {
      siteId,
      groupId: group.id,
      priceList: [{ lowerQty: 1, higherQty: null, price: 250, name: '1+' }],
    })
    boxed = await insertSku(db, { siteId, groupId: group.id, minimumOrder: 5 })
    const reliefGroup = await insertGroup(db, { siteId, categoryId, vatReliefEligible: true })
    relief = await insertSku(db, { siteId, groupId: reliefGroup.id })
    const builderCategory = await insertCategory(db, {
      siteId,
      builder: {
        selectors: [
          {
            name: 'Size',
            items: [
              { id: 101, name: 'A4', cost: 1500, product_id: null },
              { id: 102, name: 'A3', cost: 2500, product_id: null },
            ],
          },
        ],
        options: [{ name: 'Fixing', items: [{ id: 201, name: 'Screws', cost: 300, product_id: null }] }],
      },
    })
    builderCategoryId = builderCategory.id
    const builderGroup = await insertGroup(db, { siteId, categoryId: builderCategory.id })
    builderBase = await insertSku(db, { siteId, groupId: builderGroup.id })
  })
  afterAll(() => t?.close())
}

export const visitor = () => new Visitor(t.app).start()
export const line = (listing_id: number, quantity: number, extra: Record<string, unknown> = {}) => ({
  listing_id,
  quantity,
  category_id: categoryId,
  ...extra,
})

export async function cartOf(v: Visitor): Promise<Cart> {
  const res = await v.post('/cart/init')
  expect(res.statusCode).toBe(200)
  return res.json() as Cart
}

/** Logs the visitor in as customer `customerId` (created if it does not exist yet). */
export async function withCustomer(v: Visitor, customerId: number) {
  await t.app.db
    .insert(customers)
    .values({
      id: customerId,
      siteId,
      email: `customer${customerId}@example.com`,
      firstName: 'Test',
      lastName: `Customer ${customerId}`,
    })
    .onConflictDoNothing()
  const id = v.sessionId()!
  const [row] = await t.app.db.select().from(sessions).where(eq(sessions.id, id))
  await t.app.db
    .update(sessions)
    .set({ data: { ...(row!.data as Record<string, unknown>), customerId } })
    .where(eq(sessions.id, id))
  // Written behind the app's back, as another instance would: the app is told, as the bus would.
  t.app.sessionCache.forget(id)
}
