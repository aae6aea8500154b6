import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { carts, customers } from '../../src/server/db/schema.ts'
import type { Cart } from '../../src/shared/cart.ts'
import { buildTestApp, type TestApp } from '../helpers/app.ts'
import { Visitor } from '../helpers/visitor.ts'
import { insertCategory, insertGroup, insertSku, siteIdFor } from '../factories/product.ts'

const DEMO = { email: 'demo@harbour-safety.example', password: 'Harbour-demo-2026' }

let t: TestApp
let categoryId: number
let skuId: number

beforeAll(async () => {
  t = await buildTestApp()
  const siteId = await siteIdFor(t.app.db)
  categoryId = (await insertCategory(t.app.db, { siteId })).id
  const group = await insertGroup(t.app.db, { siteId, categoryId })
  skuId = (await insertSku(t.app.db, { siteId, groupId: group.id })).id
})
afterAll(() => t?.close())

describe('the basket at login and logout', () => {
  it('keeps the basket a visitor started and gives it to the customer who logs in', async () => {
    const v = await new Visitor(t.app).start()
    const added = (
      await v.post('/cart/add', { items: [{ listing_id: skuId, quantity: 3, category_id: categoryId }] })
    ).json() as Cart
    expect(added.items).toHaveLength(1)

    const login = await v.post('/login', { ...DEMO, remember: '', redirect: true })
    expect(login.statusCode).toBe(303)

    const after = (await v.post('/cart/init')).json() as Cart
    expect(after.id).toBe(added.id)
    expect(after.items.map((i) => i.quantity)).toEqual([3])
    const [customer] = await t.app.db.select().from(customers).where(eq(customers.email, DEMO.email))
    const [row] = await t.app.db
      .select()
      .from(carts)
      .where(eq(carts.id, String(added.id)))
    expect(row!.customerId).toBe(customer!.id)
  })

  it('does not leave the customer’s basket in the browser after logging out', async () => {
    const v = await new Visitor(t.app).start()
    await v.post('/cart/add', { items: [{ listing_id: skuId, quantity: 2, category_id: categoryId }] })
    await v.post('/login', { ...DEMO, remember: '', redirect: true })
    const logout = await v.post('/logout')
    expect(logout.statusCode).toBeLessThan(400)
    const page = (await v.visit('/')).json()
    expect(page.props.cart).toEqual({ count: 0, total: 0 })
  })
})
