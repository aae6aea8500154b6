/**
 * Promotional codes and the money they move (issue 29): one code per basket, enforced by the
 * service and by the pricing of old basket rows; limited codes held by a basket only briefly.
 */
import { and, eq, inArray, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { carts, orders, promotionRedemptions, promotions, promotionUses } from '../../src/server/db/schema.ts'
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

let orderNo = 0
/** Places the basket as the shopper saw it (`seen`), by purchase order. */
function placeOrder(v: Visitor, seen: Cart) {
  orderNo += 1
  return v.post('/checkout/complete', {
    cart_id: seen.id,
    payment_method: 'purchase_order',
    contact: {
      firstName: 'Promo',
      lastName: 'Buyer',
      email: `promo.buyer${orderNo}@example.com`,
      phone: '01632 960 951',
    },
    shipping_address: { address1: '1 Code Street', town: 'Leeds', postcode: 'LS1 1AA', country: 'GB' },
    transactions: [
      { amount: seen.cart_total_price_inc_tax, paymentDetails: {}, paymentProvider: 'purchase_order' },
    ],
    delivery_option: seen.shippingRates.find((r) => r.selected)!.id,
  })
}

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
    const res = await placeOrder(v, priced)
    expect(res.statusCode).toBe(200)
    expect(res.json().order.promotionCodes).toEqual(['SAVE10'])
    expect(res.json().order.totalDiscountCost).toBe(1170)
  })
})

/** A 10% code limited to `limit` uses, new for the test. */
async function limitedCode(code: string, limit: number) {
  const [row] = await t.app.db
    .insert(promotions)
    .values({ siteId, code, kind: 'percentage', value: 10, usageLimit: limit })
    .returning()
  return row!
}

/** Moves the baskets' holds 31 minutes into the past, as if they were taken then. */
async function holdsTakenLongAgo(cartIds: string[]) {
  await t.app.db
    .update(promotionUses)
    .set({
      createdAt: sql`${promotionUses.createdAt} - interval '31 minutes'`,
      expiresAt: sql`${promotionUses.expiresAt} - interval '31 minutes'`,
    })
    .where(inArray(promotionUses.cartId, cartIds))
  for (const id of cartIds) t.app.carts.forgetCart(siteId, id)
}

/** times_used, and what it must equal: every hold row (live or expired) plus every redemption. */
async function countOf(promotionId: number) {
  const [promo] = await t.app.db.select().from(promotions).where(eq(promotions.id, promotionId))
  const held = await t.app.db.select().from(promotionUses).where(eq(promotionUses.promotionId, promotionId))
  const redeemed = await t.app.db
    .select()
    .from(promotionRedemptions)
    .where(eq(promotionRedemptions.promotionId, promotionId))
  return { timesUsed: promo!.timesUsed, rows: held.length + redeemed.length, held, redeemed }
}

async function apply(v: Visitor, code: string): Promise<Cart> {
  const res = await v.post('/cart/update-cart', { promotionCodes: [code] })
  expect(res.statusCode).toBe(200)
  return res.json() as Cart
}

const applied = (cart: Cart, code: string) =>
  cart.promotionCodes.includes(code) && cart.errors.promotionCodes.length === 0

describe('holding a use of a limited code', () => {
  it('holds a use for 30 minutes from applying the code', async () => {
    await limitedCode('HOLD30', 5)
    const { v, cart } = await basket(5)
    expect(applied(await apply(v, 'HOLD30'), 'HOLD30')).toBe(true)
    const result = (await t.app.db.execute(
      sql`select extract(epoch from ${promotionUses.expiresAt} - now()) as left from ${promotionUses} where ${promotionUses.cartId} = ${cart.id}`,
    )) as unknown as { rows: { left: string | number }[] }
    const left = Number(result.rows[0]!.left)
    expect(left).toBeGreaterThan(29 * 60)
    expect(left).toBeLessThanOrEqual(30 * 60)
  })

  it('gives the uses of holds older than 30 minutes to other baskets, and the old baskets lose the code', async () => {
    const promo = await limitedCode('HOLD2', 2)
    const a = await basket(5)
    const b = await basket(5)
    const c = await basket(5)
    expect(applied(await apply(a.v, 'HOLD2'), 'HOLD2')).toBe(true)
    expect(applied(await apply(b.v, 'HOLD2'), 'HOLD2')).toBe(true)
    expect((await apply(c.v, 'HOLD2')).errors.promotionCodes).toEqual([
      { message: 'This promotional code has reached its usage limit', code: 'HOLD2' },
    ])

    await holdsTakenLongAgo([a.cart.id!, b.cart.id!])
    const won = await apply(c.v, 'HOLD2')
    expect(applied(won, 'HOLD2')).toBe(true)
    expect(won.cart_total_discount).toBe(500)
    const after = await countOf(promo.id)
    expect(after.timesUsed).toBe(1)
    expect(after.held.map((h) => h.cartId)).toEqual([c.cart.id])

    const d = await basket(5)
    expect(applied(await apply(d.v, 'HOLD2'), 'HOLD2')).toBe(true)
    // A's hold expired and both uses are held again: A keeps the code, shown as not applicable, unpriced.
    const lost = (await a.v.post('/cart/init')).json() as Cart
    expect(lost.promotionCodes).toEqual(['HOLD2'])
    expect(lost.errors.promotionCodes).toEqual([
      { message: 'Promo code is not valid or applicable to your cart', code: 'HOLD2' },
    ])
    expect(lost.cart_total_discount).toBe(0)
    expect((await a.v.visit('/cart')).json().props.basket.cart_total_discount).toBe(0)
    expect(await countOf(promo.id)).toMatchObject({ timesUsed: 2, rows: 2 })

    // A use comes free: A takes it the next time its basket is priced.
    await d.v.post('/cart/update-cart', { promotionCodes: [] })
    const back = (await a.v.post('/cart/init')).json() as Cart
    expect(applied(back, 'HOLD2')).toBe(true)
    expect(back.cart_total_discount).toBe(500)
    expect(await countOf(promo.id)).toMatchObject({ timesUsed: 2, rows: 2 })
  })

  it('lets a buyer have a code that throwaway baskets took half an hour ago, and counts every use once', async () => {
    const promo = await limitedCode('FIVEONLY', 5)
    const throwaway = []
    for (let i = 0; i < 5; i++) {
      const b = await basket(1)
      expect(applied(await apply(b.v, 'FIVEONLY'), 'FIVEONLY')).toBe(true)
      throwaway.push(b)
    }
    const buyer = await basket(5)
    expect(applied(await apply(buyer.v, 'FIVEONLY'), 'FIVEONLY')).toBe(false)

    await holdsTakenLongAgo(throwaway.map((b) => b.cart.id!))
    const seen = await apply(buyer.v, 'FIVEONLY')
    expect(applied(seen, 'FIVEONLY')).toBe(true)
    const res = await placeOrder(buyer.v, seen)
    expect(res.statusCode).toBe(200)
    expect(res.json().order.promotionCodes).toEqual(['FIVEONLY'])
    const placed = await countOf(promo.id)
    expect(placed.redeemed).toHaveLength(1)
    expect(placed.held).toEqual([])
    expect(placed.timesUsed).toBe(1)

    // The throwaway baskets come back: four uses are left for five of them.
    const again = []
    for (const b of throwaway) again.push((await b.v.post('/cart/init')).json() as Cart)
    expect(again.filter((c) => applied(c, 'FIVEONLY'))).toHaveLength(4)
    expect(await countOf(promo.id)).toMatchObject({ timesUsed: 5, rows: 5 })
  })

  it('takes an expired hold again when the order is placed, if a use is left', async () => {
    const promo = await limitedCode('ONEPLACE', 1)
    const { v } = await basket(5)
    const seen = await apply(v, 'ONEPLACE')
    expect(applied(seen, 'ONEPLACE')).toBe(true)
    await holdsTakenLongAgo([seen.id!])
    const res = await placeOrder(v, seen)
    expect(res.statusCode).toBe(200)
    expect(res.json().order.totalDiscountCost).toBe(500)
    expect(await countOf(promo.id)).toMatchObject({ timesUsed: 1, rows: 1, held: [] })
  })

  it('refuses the order of a basket whose hold expired and whose last use another basket took', async () => {
    const promo = await limitedCode('ONELOST', 1)
    const late = await basket(5)
    const seen = await apply(late.v, 'ONELOST')
    expect(applied(seen, 'ONELOST')).toBe(true)
    await holdsTakenLongAgo([seen.id!])
    const other = await basket(5)
    expect(applied(await apply(other.v, 'ONELOST'), 'ONELOST')).toBe(true)

    const res = await placeOrder(late.v, seen)
    expect(res.statusCode).toBe(409)
    expect(res.json().cart.errors.promotionCodes).toEqual([
      { message: 'Promo code is not valid or applicable to your cart', code: 'ONELOST' },
    ])
    expect(await t.app.db.select().from(orders).where(eq(orders.cartRef, seen.id!))).toEqual([])
    expect(await countOf(promo.id)).toMatchObject({ timesUsed: 1, rows: 1 })
  })

  it('gives the last use to exactly one of 20 baskets applying at once, counting an expired hold as free', async () => {
    const promo = await limitedCode('LAST3', 3)
    const holders = [await basket(1), await basket(1), await basket(1)]
    for (const h of holders) expect(applied(await apply(h.v, 'LAST3'), 'LAST3')).toBe(true)
    await holdsTakenLongAgo([holders[0]!.cart.id!])
    const racers = []
    for (let i = 0; i < 20; i++) racers.push(await basket(1))
    const results = await Promise.all(
      racers.map((r) => r.v.post('/cart/update-cart', { promotionCodes: ['LAST3'] })),
    )
    expect(results.map((r) => r.statusCode).every((s) => s === 200)).toBe(true)
    const winners = results.filter((r) => applied(r.json() as Cart, 'LAST3'))
    expect(winners).toHaveLength(1)
    const after = await countOf(promo.id)
    expect(after.timesUsed).toBe(3)
    expect(after.rows).toBe(3)
    expect(after.held.map((h) => h.cartId)).not.toContain(holders[0]!.cart.id)
  })
})

describe('a limited code under mixed traffic', () => {
  it('never has more baskets holding it than its limit while baskets apply, remove and come back at once', async () => {
    const promo = await limitedCode('MIXED5', 5)
    const holders = []
    for (let i = 0; i < 5; i++) {
      const h = await basket(1)
      expect(applied(await apply(h.v, 'MIXED5'), 'MIXED5')).toBe(true)
      holders.push(h)
    }
    const expired = holders.slice(0, 3)
    const leaving = holders.slice(3)
    await holdsTakenLongAgo(expired.map((h) => h.cart.id!))
    const racers = []
    for (let i = 0; i < 30; i++) racers.push(await basket(1))
    const results = await Promise.all([
      ...racers.map((r) => r.v.post('/cart/update-cart', { promotionCodes: ['MIXED5'] })),
      ...expired.map((h) => h.v.post('/cart/init')),
      ...leaving.map((h) => h.v.post('/cart/update-cart', { promotionCodes: [] })),
    ])
    expect(results.map((r) => r.statusCode).every((s) => s === 200)).toBe(true)
    // Everyone asks again once things settled: what each basket holds now.
    const now = await Promise.all(
      [...racers, ...expired].map(async (b) => (await b.v.post('/cart/init')).json() as Cart),
    )
    const holding = now.filter((c) => applied(c, 'MIXED5'))
    const count = await countOf(promo.id)
    expect(count.timesUsed).toBe(count.rows)
    expect(count.timesUsed).toBeLessThanOrEqual(5)
    expect(holding.length).toBe(count.held.length)
    expect(holding.length).toBe(5)
  })
})
