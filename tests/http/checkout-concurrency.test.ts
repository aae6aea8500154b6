/**
 * Fifty submits of one basket at once (a shopper hammering Complete Order, two tabs, retries):
 * exactly one order, one acknowledgement, one redemption. Meaningful on PostgreSQL (run with
 * DATABASE_URL), where the submits really overlap; PGlite serialises them.
 */
import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mailJobs, mailOutbox, orders, promotionRedemptions } from '../../src/server/db/schema.ts'
import type { Cart } from '../../src/shared/cart.ts'
import { buildTestApp, type TestApp } from '../helpers/app.ts'
import { Visitor } from '../helpers/visitor.ts'
import { insertCategory, insertGroup, insertSku, siteIdFor } from '../factories/product.ts'

let t: TestApp
let categoryId: number
let skuId: number

beforeAll(async () => {
  t = await buildTestApp()
  const siteId = await siteIdFor(t.app.db)
  categoryId = (await insertCategory(t.app.db, { siteId })).id
  const groupId = (await insertGroup(t.app.db, { siteId, categoryId })).id
  skuId = (await insertSku(t.app.db, { siteId, groupId })).id
})
afterAll(() => t?.close())

describe('placing one basket fifty times at once', () => {
  it('makes exactly one order, one acknowledgement e-mail and one redemption', async () => {
    const v = await new Visitor(t.app).start()
    await v.post('/cart/add', { items: [{ listing_id: skuId, quantity: 4, category_id: categoryId }] })
    const cart = (await v.post('/cart/update-cart', { promotionCodes: ['LIMITED15'] })).json() as Cart
    expect(cart.promotionCodes).toEqual(['LIMITED15'])
    const email = 'fifty.times@example.com'
    const payload = {
      cart_id: cart.id,
      payment_method: 'purchase_order',
      contact: { firstName: 'Fifty', lastName: 'Times', email, phone: '01632 960 950' },
      shipping_address: { address1: '50 Race Street', town: 'Leeds', postcode: 'LS1 1AA', country: 'GB' },
      transactions: [
        { amount: cart.cart_total_price_inc_tax, paymentDetails: {}, paymentProvider: 'purchase_order' },
      ],
      delivery_option: cart.shippingRates.find((r) => r.selected)!.id,
    }
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => v.post('/checkout/complete', payload)),
    )
    const statuses = responses.map((r) => r.statusCode)
    expect(statuses.filter((s) => s === 200)).toHaveLength(50)
    const numbers = new Set(responses.map((r) => r.json().order.OrderNumber))
    expect(numbers.size).toBe(1)

    const placed = await t.app.db
      .select()
      .from(orders)
      .where(eq(orders.cartRef, String(cart.id)))
    expect(placed).toHaveLength(1)
    const order = placed[0]!
    const redemptions = await t.app.db
      .select()
      .from(promotionRedemptions)
      .where(eq(promotionRedemptions.orderId, order.id))
    expect(redemptions).toHaveLength(1)
    const jobs = await t.app.db
      .select()
      .from(mailJobs)
      .where(eq(mailJobs.dedupeKey, `order:${order.id}:acknowledgement`))
    expect(jobs).toHaveLength(1)

    // Several workers at once still send it once.
    await Promise.all([t.app.mailQueue.runOnce(), t.app.mailQueue.runOnce(), t.app.mailQueue.kick()])
    await t.app.mailQueue.kick()
    const sent = await t.app.db
      .select()
      .from(mailOutbox)
      .where(sql`${mailOutbox.to} @> ${JSON.stringify([email])}::jsonb`)
    expect(sent).toHaveLength(1)
  })
})
