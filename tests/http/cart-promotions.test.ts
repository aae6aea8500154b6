/**
 * Promotional codes and the money they move (issue 29): one code per basket, enforced by the
 * service and by the pricing of old basket rows; limited codes held by a basket only briefly.
 */
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { carts, promotions, promotionUses } from '../../src/server/db/schema.ts'
import type { Cart } from '../../src/shared/cart.ts'
import { CartValidationError } from '../../src/server/modules/cart/cart.errors.ts'
import { buildTestApp, type TestApp } from '../helpers/app.ts'
import { Visitor } from '../helpers/visitor.ts'
import { insertCategory, insertGroup, insertSku, siteIdFor } from '../factories/product.ts'
import type { ProductRow } from '../../src/server/modules/catalog/catalog.tables.ts'

let t: TestApp
let siteId: number
let categoryId: number
/** 1-9 £10.00, 10-24 £9.00, 25+ £8.00 */
let sign: ProductRow

beforeAll(async () => {
  t = await buildTestApp()
  const db = t.app.db
  siteId = await siteIdFor(db)
  categoryId = (await insertCategory(db, { siteId })).id
  const group = await insertGroup(db, { siteId, categoryId })
  sign = await insertSku(db, { siteId, groupId: group.id })
})
afterAll(() => t?.close())

/** A visitor whose basket holds `quantity` of the £10 sign (5: £50.00 of goods). */
async function basket(quantity = 5): Promise<{ v: Visitor; cart: Cart }> {
  const v = await new Visitor(t.app).start()
  const res = await v.post('/cart/add', {
    items: [{ listing_id: sign.id, quantity, category_id: categoryId }],
  })
  expect(res.statusCode).toBe(200)
  return { v, cart: res.json() as Cart }
}

async function promotion(code: string) {
  const [row] = await t.app.db
    .select()
    .from(promotions)
    .where(and(eq(promotions.siteId, siteId), eq(promotions.code, code)))
  return row!
}

async function usesOf(cartId: string) {
  return t.app.db.select().from(promotionUses).where(eq(promotionUses.cartId, cartId))
}

const FIVE = ['SAVE10', 'TENOFF', 'FREEDEL', 'LIMITED15', 'FREEGIFT']

describe('one promotional code per basket', () => {
  it('refuses a whole-cart update naming five codes with one message, and changes nothing', async () => {
    const { v, cart } = await basket(13)
    const limitedBefore = (await promotion('LIMITED15')).timesUsed
    const res = await v.post('/cart/update-cart', { promotionCodes: FIVE })
    expect(res.statusCode).toBe(422)
    expect(res.json()).toEqual({
      message: 'Only one promotional code can be used.',
      errors: { promotionCodes: ['Only one promotional code can be used.'] },
    })
    const after = (await v.post('/cart/init')).json() as Cart
    expect(after.promotionCodes).toEqual([])
    expect(after.cart_total_discount).toBe(0)
    expect(after.cart_total_price_inc_tax).toBe(cart.cart_total_price_inc_tax)
    expect(after.items.some((i) => i.IsFreeGift)).toBe(false)
    expect((await promotion('LIMITED15')).timesUsed).toBe(limitedBefore)
    expect(await usesOf(cart.id!)).toEqual([])
  })

  it('refuses two codes sent with an add, and adds nothing', async () => {
    const { v, cart } = await basket(5)
    const res = await v.post('/cart/add', {
      items: [{ listing_id: sign.id, quantity: 1, category_id: categoryId }],
      promotionCodes: ['SAVE10', 'freedel'],
    })
    expect(res.statusCode).toBe(422)
    expect(res.json().errors.promotionCodes).toEqual(['Only one promotional code can be used.'])
    const after = (await v.post('/cart/init')).json() as Cart
    expect(after.items.map((i) => i.quantity)).toEqual([5])
    expect(after.promotionCodes).toEqual([])
    expect(after.cart_total_price_inc_tax).toBe(cart.cart_total_price_inc_tax)
  })

  it('counts one code typed twice, or beside blanks, as one code', async () => {
    const { v } = await basket(5)
    const res = await v.post('/cart/update-cart', { promotionCodes: ['save10', ' SAVE10 ', '  '] })
    expect(res.statusCode).toBe(200)
    expect((res.json() as Cart).promotionCodes).toEqual(['SAVE10'])
  })

  it('refuses several codes in the service itself, whoever calls it', async () => {
    const { cart } = await basket(5)
    const site = (await t.app.sites.forHost('localhost'))!
    const ctx = { site, cartId: cart.id, baseUrl: 'http://localhost' }
    await expect(t.app.carts.updateCart(ctx, { promotionCodes: ['SAVE10', 'TENOFF'] })).rejects.toThrow(
      CartValidationError,
    )
    await expect(t.app.carts.add(ctx, [], ['SAVE10', 'FREEDEL'])).rejects.toThrow(CartValidationError)
    const [row] = await t.app.db.select().from(carts).where(eq(carts.id, cart.id!))
    expect(row!.promotionCodes).toEqual([])
  })

  it('replaces the applied code with the next one applied, giving back the first one’s use', async () => {
    const { v, cart } = await basket(5)
    const before = (await promotion('LIMITED15')).timesUsed
    const limited = (await v.post('/cart/update-cart', { promotionCodes: ['LIMITED15'] })).json() as Cart
    expect(limited.promotionCodes).toEqual(['LIMITED15'])
    expect(limited.cart_total_discount).toBe(750)
    expect((await promotion('LIMITED15')).timesUsed).toBe(before + 1)
    const replaced = (await v.post('/cart/update-cart', { promotionCodes: ['SAVE10'] })).json() as Cart
    expect(replaced.promotionCodes).toEqual(['SAVE10'])
    expect(replaced.cart_total_discount).toBe(500)
    expect((await promotion('LIMITED15')).timesUsed).toBe(before)
    expect(await usesOf(cart.id!)).toEqual([])
  })

  it('prices only the earliest code of a basket row stored with several, and drops the rest at the next change', async () => {
    const { v, cart } = await basket(13)
    // £117.00 of goods, as a basket row written before the limit held them.
    await t.app.db.update(carts).set({ promotionCodes: FIVE }).where(eq(carts.id, cart.id!))
    t.app.carts.forgetCart(siteId, cart.id!)
    const shown = (await v.post('/cart/init')).json() as Cart
    expect(shown.promotionCodes).toEqual(['SAVE10'])
    expect(shown.cart_total_discount).toBe(1170)
    // Delivery is charged (FREEDEL is not in force) and no gift is given (FREEGIFT is not).
    expect(shown.cart_total_shipping).toBe(cart.cart_total_shipping)
    expect(shown.items.some((i) => i.IsFreeGift)).toBe(false)
    const page = (await v.visit('/cart')).json()
    expect(page.props.basket.promotionCodes).toEqual(['SAVE10'])
    expect(page.props.basket.cart_total_discount).toBe(1170)

    const changed = (
      await v.post('/cart/update-items', { items: [{ id: cart.items[0]!.id, quantity: 14 }] })
    ).json() as Cart
    expect(changed.promotionCodes).toEqual(['SAVE10'])
    expect(changed.items.some((i) => i.IsFreeGift)).toBe(false)
    const [row] = await t.app.db.select().from(carts).where(eq(carts.id, cart.id!))
    expect(row!.promotionCodes).toEqual(['SAVE10'])
  })

  it('places an order from an old several-code basket row with the one code in force', async () => {
    const { v, cart } = await basket(13)
    await t.app.db
      .update(carts)
      .set({ promotionCodes: ['SAVE10', 'TENOFF'] })
      .where(eq(carts.id, cart.id!))
    t.app.carts.forgetCart(siteId, cart.id!)
    const priced = (await v.post('/cart/init')).json() as Cart
    const res = await v.post('/checkout/complete', {
      cart_id: cart.id,
      payment_method: 'purchase_order',
      contact: { firstName: 'Old', lastName: 'Row', email: 'old.row@example.com', phone: '01632 960 951' },
      shipping_address: { address1: '1 Old Street', town: 'Leeds', postcode: 'LS1 1AA', country: 'GB' },
      transactions: [
        { amount: priced.cart_total_price_inc_tax, paymentDetails: {}, paymentProvider: 'purchase_order' },
      ],
      delivery_option: priced.shippingRates.find((r) => r.selected)!.id,
    })
    expect(res.statusCode).toBe(200)
    expect(res.json().order.promotionCodes).toEqual(['SAVE10'])
    expect(res.json().order.totalDiscountCost).toBe(1170)
  })
})
