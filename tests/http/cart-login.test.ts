import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { carts, customers, sessions } from '../../src/server/db/schema.ts'
import type { Cart } from '../../src/shared/cart.ts'
import { buildTestApp, type TestApp } from '../helpers/app.ts'
import { Visitor } from '../helpers/visitor.ts'
import { insertCategory, insertGroup, insertSku, siteIdFor } from '../factories/product.ts'

const DEMO = { email: 'demo@harbour-safety.example', password: 'Harbour-demo-2026' }

let t: TestApp
let categoryId: number
let skuId: number
let wheelchairId: number

beforeAll(async () => {
  t = await buildTestApp()
  const siteId = await siteIdFor(t.app.db)
  categoryId = (await insertCategory(t.app.db, { siteId })).id
  const group = await insertGroup(t.app.db, { siteId, categoryId })
  skuId = (await insertSku(t.app.db, { siteId, groupId: group.id })).id
  const chairs = await insertGroup(t.app.db, { siteId, categoryId, vatReliefEligible: true })
  wheelchairId = (await insertSku(t.app.db, { siteId, groupId: chairs.id })).id
})

async function loggedInWithBasket(lines: [number, number][]) {
  const v = await new Visitor(t.app).start()
  const added = (
    await v.post('/cart/add', {
      items: lines.map(([listing_id, quantity]) => ({ listing_id, quantity, category_id: categoryId })),
    })
  ).json() as Cart
  expect((await v.post('/login', { ...DEMO, remember: '', redirect: false })).statusCode).toBeLessThan(400)
  return { v, added }
}

const cartRow = async (id: unknown) =>
  (
    await t.app.db
      .select()
      .from(carts)
      .where(eq(carts.id, String(id)))
  )[0]!
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

  it('keeps the basket in the browser after the checkout’s logout, as a visitor’s basket the guest can buy from', async () => {
    const { v, added } = await loggedInWithBasket([[skuId, 2]])
    const before = v.sessionId()
    expect((await cartRow(added.id)).customerId).not.toBeNull()

    const logout = await v.post('/logout', { redirect: false })
    expect(logout.statusCode).toBeLessThan(400)
    expect(v.sessionId()).not.toBe(before)

    // Logged out, and the same basket is the session's, no longer the customer's.
    const page = (await v.visit('/')).json()
    expect(page.props.auth.customer).toBeNull()
    expect(page.props.cart.count).toBe(2)
    const after = (await v.post('/cart/init')).json() as Cart
    expect(after.id).toBe(added.id)
    expect(after.items.map((i) => i.quantity)).toEqual([2])
    expect(after.customer_id).toBeNull()
    expect((await cartRow(added.id)).customerId).toBeNull()

    // The guest goes on changing it.
    const changed = await v.post('/cart/update-cart', { items: [{ id: after.items[0]!.id, quantity: 3 }] })
    expect(changed.statusCode).toBe(200)
    expect((changed.json() as Cart).items.map((i) => i.quantity)).toEqual([3])
  })

  it('drops a VAT relief declaration from the basket kept at the checkout’s logout', async () => {
    const { v, added } = await loggedInWithBasket([[wheelchairId, 1]])
    const claimed = await v.post('/cart/update-cart', {
      vatRelief: { name: 'Ada Lovelace', condition: 'Multiple sclerosis', confirmed: true },
    })
    expect(claimed.statusCode).toBe(200)
    expect((claimed.json() as Cart).ApplyVATRelief).toBe(true)

    await v.post('/logout', { redirect: false })
    const after = (await v.post('/cart/init')).json() as Cart
    expect(after.id).toBe(added.id)
    expect(after.ApplyVATRelief).toBe(false)
    const row = await cartRow(added.id)
    expect(row.applyVatRelief).toBe(false)
    expect(row.vatReliefDeclaration).toBeNull()
    // The header summary is the re-priced basket's, VAT included again.
    const page = (await v.visit('/')).json()
    expect(page.props.cart.total).toBe(after.cart_total_price_inc_tax)
  })

  it('keeps nothing else of the customer’s session at the checkout’s logout', async () => {
    const { v } = await loggedInWithBasket([[skuId, 1]])
    await v.post('/logout', { redirect: false })
    const [session] = await t.app.db.select().from(sessions).where(eq(sessions.id, v.sessionId()!))
    const data = session?.data ?? {}
    // (The Inertia flag that clears the browser's history of personal pages is the logout's own.)
    expect(Object.keys(data).filter((k) => k !== 'cookie' && !k.startsWith('inertia.'))).toEqual(['cartId'])
  })

  it('does not keep a basket that belongs to another customer at the checkout’s logout', async () => {
    const { v, added } = await loggedInWithBasket([[skuId, 1]])
    // The session's basket has been taken over by someone else in the meantime.
    await t.app.db
      .update(carts)
      .set({ customerId: 999_999 })
      .where(eq(carts.id, String(added.id)))
    t.app.carts.forgetAll()
    await v.post('/logout', { redirect: false })
    const page = (await v.visit('/')).json()
    expect(page.props.cart).toEqual({ count: 0, total: 0 })
    expect((await cartRow(added.id)).customerId).toBe(999_999)
  })
})
