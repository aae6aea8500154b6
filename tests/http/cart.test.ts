import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cartItems, carts, customers, mailOutbox, promotions, sessions } from '../../src/server/db/schema.ts'
import type { Cart } from '../../src/shared/cart.ts'
import { buildTestApp, type TestApp } from '../helpers/app.ts'
import { Visitor } from '../helpers/visitor.ts'
import { insertCategory, insertGroup, insertSku, siteIdFor } from '../factories/product.ts'
import type { ProductRow } from '../../src/server/modules/catalog/catalog.tables.ts'

let t: TestApp
let siteId: number
let categoryId: number
let builderCategoryId: number
/** 1-9 £10.00, 10-24 £9.00, 25+ £8.00 */
let sign: ProductRow
/** 1+ £2.50 */
let cheap: ProductRow
/** minimum order 5 */
let boxed: ProductRow
let relief: ProductRow
let builderBase: ProductRow

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

const visitor = () => new Visitor(t.app).start()
const line = (listing_id: number, quantity: number, extra: Record<string, unknown> = {}) => ({
  listing_id,
  quantity,
  category_id: categoryId,
  ...extra,
})

async function cartOf(v: Visitor): Promise<Cart> {
  const res = await v.post('/cart/init')
  expect(res.statusCode).toBe(200)
  return res.json() as Cart
}

/** Logs the visitor in as customer `customerId` (created if it does not exist yet). */
async function withCustomer(v: Visitor, customerId: number) {
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

describe('adding to the basket', () => {
  it('adds price-grid lines at their bracket prices with VAT per line, and remembers the basket', async () => {
    const v = await visitor()
    const res = await v.post('/cart/add', { items: [line(sign.id, 10), line(cheap.id, 3)] })
    expect(res.statusCode).toBe(200)
    const cart = res.json() as Cart
    expect(cart.id).toMatch(/^[0-9a-f-]{36}$/)
    expect(cart.items.map((i) => [i.product.sku, i.quantity, i.unit_price, i.line_total])).toEqual([
      [sign.sku, 10, 900, 9000],
      [cheap.sku, 3, 250, 750],
    ])
    expect(cart.items[0]!.line_tax).toBe(1800)
    expect(cart.items_total).toBe(9750)
    expect(cart.cart_total_shipping).toBe(595)
    expect(cart.cart_total_tax).toBe(1800 + 150 + 119)
    expect(cart.cart_total_price).toBe(9750 + 595)
    expect(cart.cart_total_price_inc_tax).toBe(9750 + 595 + 2069)
    expect(cart.cart_total_items).toBe(13)
    expect(cart.items_count).toBe(2)
    expect(cart.shortForFreeShipping).toBe(250)
    expect(await cartOf(v)).toEqual(cart)
  })

  it('adds to the quantity of a line that already holds the product', async () => {
    const v = await visitor()
    await v.post('/cart/add', { items: [line(sign.id, 4)] })
    const cart = (await v.post('/cart/add', { items: [line(sign.id, 6)] })).json() as Cart
    expect(cart.items).toHaveLength(1)
    expect(cart.items[0]!.quantity).toBe(10)
    expect(cart.items[0]!.unit_price).toBe(900)
  })

  it('prices a builder line from the chosen selector and option costs', async () => {
    const v = await visitor()
    const res = await v.post('/cart/add', {
      items: [
        {
          listing_id: builderBase.id,
          quantity: 2,
          category_id: builderCategoryId,
          customisation: { options: [102, 201] },
        },
      ],
    })
    expect(res.statusCode).toBe(200)
    const item = (res.json() as Cart).items[0]!
    expect(item.product.price).toBe(2500)
    expect(item.options).toEqual({
      price_ex_tax: 300,
      items: [{ id: 201, title: 'Fixing', name: 'Screws', cost: 300 }],
    })
    expect(item.line_total).toBe(5600)
    expect((res.json() as Cart).customisation_total).toBe(600)
  })

  it('refuses builder options that are not in the category builder', async () => {
    const v = await visitor()
    const res = await v.post('/cart/add', {
      items: [
        {
          listing_id: builderBase.id,
          quantity: 1,
          category_id: builderCategoryId,
          customisation: { options: [999] },
        },
      ],
    })
    expect(res.statusCode).toBe(422)
    expect(res.json().errors['items.0.customisation.options']).toEqual([
      'One of the chosen options does not exist.',
    ])
  })

  it('refuses, with a message and no change, a basket whose total is beyond what is taken online', async () => {
    const groupId = (await insertGroup(t.app.db, { siteId, categoryId })).id
    const dear = await insertSku(t.app.db, {
      siteId,
      groupId,
      priceList: [{ lowerQty: 1, higherQty: null, price: 2_000_000_000, name: '1+' }],
    })
    const v = await visitor()
    const first = await v.post('/cart/add', {
      items: [{ listing_id: cheap.id, quantity: 1, category_id: categoryId }],
    })
    expect(first.statusCode).toBe(200)
    const res = await v.post('/cart/add', {
      items: [{ listing_id: dear.id, quantity: 2, category_id: categoryId }],
    })
    expect(res.statusCode).toBe(422)
    expect(res.json().errors.items).toEqual([
      'This basket is too large to order online. Please contact us to place this order.',
    ])
    const after = (await v.post('/cart/init')).json() as Cart
    expect(after.items.map((i) => i.product.id)).toEqual([cheap.id])
  })

  it('chooses the delivery rate the checkout names by shippingRateId, only among the basket zone’s rates', async () => {
    const v = await visitor()
    const added = (
      await v.post('/cart/add', { items: [{ listing_id: cheap.id, quantity: 1, category_id: categoryId }] })
    ).json() as Cart
    const other = added.shippingRates.find((r) => !r.selected)!
    expect(other, 'the zone has a second rate').toBeDefined()
    const chosen = await v.post('/cart/update-cart', { shippingRateId: other.id })
    expect(chosen.statusCode).toBe(200)
    expect((chosen.json() as Cart).shippingRates.find((r) => r.selected)!.id).toBe(other.id)
    const elsewhere = await t.app.carts.rates(t.app.db, siteId)
    const foreign = elsewhere.find((r) => r.zone !== added.shippingZone)!
    for (const bad of [foreign.id, 0, 'two', 2 ** 40]) {
      const res = await v.post('/cart/update-cart', { shippingRateId: bad })
      expect(res.statusCode).toBe(422)
      expect(res.json().errors.shippingRateId).toEqual(['This delivery option is not available.'])
    }
    const after = (await v.post('/cart/init')).json() as Cart
    expect(after.shippingRates.find((r) => r.selected)!.id).toBe(other.id)
  })

  it('ignores prices and totals sent by the browser', async () => {
    const v = await visitor()
    const res = await v.post('/cart/add', {
      items: [{ ...line(sign.id, 1), price: 1, line_total: 1, unit_price: 1 }],
      cart_total_price: 1,
    })
    expect((res.json() as Cart).items[0]!.line_total).toBe(1000)
  })

  it.each([
    ['a negative quantity', -1, 'The quantity must be at least 1.'],
    ['a zero quantity', 0, 'The quantity must be at least 1.'],
    ['a huge quantity', 10_000, 'The quantity may not be greater than 9999.'],
    ['a fractional quantity', 1.5, 'The quantity must be a whole number.'],
    ['a non-numeric quantity', 'ten', 'The quantity must be a number.'],
    ['a numeric string', '5', 'The quantity must be a number.'],
  ])('answers 422 and changes nothing for %s', async (_name, quantity, message) => {
    const v = await visitor()
    await v.post('/cart/add', { items: [line(sign.id, 1)] })
    const before = await cartOf(v)
    const res = await v.post('/cart/add', { items: [line(sign.id, quantity as number)] })
    expect(res.statusCode).toBe(422)
    expect(res.json().errors['items.0.quantity']).toEqual([message])
    expect(await cartOf(v)).toEqual(before)
  })

  it('answers 422 for an unknown product, another site’s product or an unknown category', async () => {
    const v = await visitor()
    const unknown = await v.post('/cart/add', { items: [line(99_999_999, 1)] })
    expect(unknown.statusCode).toBe(422)
    expect(unknown.json().errors['items.0.listing_id']).toEqual(['This product is not available.'])
    const other = await new Visitor(t.app, '127.0.0.1').start()
    expect(
      (await other.post('/cart/add', { items: [{ listing_id: sign.id, quantity: 1 }] })).statusCode,
    ).toBe(422)
    const badCategory = await v.post('/cart/add', { items: [line(sign.id, 1, { category_id: 99_999_999 })] })
    expect(badCategory.statusCode).toBe(422)
    expect((await cartOf(v)).items).toHaveLength(0)
  })

  it('holds a line to its minimum order quantity', async () => {
    const v = await visitor()
    const res = await v.post('/cart/add', { items: [line(boxed.id, 4)] })
    expect(res.statusCode).toBe(422)
    expect(res.json().errors['items.0.quantity'][0]).toMatch(/minimum order quantity .* is 5/)
  })

  it('refuses more than 9999 of one product across adds', async () => {
    const v = await visitor()
    await v.post('/cart/add', { items: [line(sign.id, 9000)] })
    const res = await v.post('/cart/add', { items: [line(sign.id, 1000)] })
    expect(res.statusCode).toBe(422)
    expect((await cartOf(v)).items[0]!.quantity).toBe(9000)
  })

  it('answers 422 for an empty add and for a body that is not an object', async () => {
    const v = await visitor()
    expect((await v.post('/cart/add', {})).statusCode).toBe(422)
    expect((await v.post('/cart/add', { items: 'all' })).statusCode).toBe(422)
    expect(
      (await v.post('/cart/add', { items: [line(sign.id, 1)].concat(Array(101).fill(line(sign.id, 1))) }))
        .statusCode,
    ).toBe(422)
  })

  it('refuses a call without the CSRF token', async () => {
    const v = await visitor()
    const res = await v.request(
      'POST',
      '/cart/add',
      { items: [line(sign.id, 1)] },
      { 'x-xsrf-token': 'forged' },
    )
    expect(res.statusCode).toBe(419)
  })
})

describe('changing lines', () => {
  it('sets quantities (re-pricing the bracket) and removes a line at quantity 0', async () => {
    const v = await visitor()
    const added = (await v.post('/cart/add', { items: [line(sign.id, 1), line(cheap.id, 1)] })).json() as Cart
    const [a, b] = added.items
    const res = await v.post('/cart/update-items', {
      items: [
        { id: a!.id, quantity: 25 },
        { id: b!.id, quantity: 0 },
      ],
    })
    expect(res.statusCode).toBe(200)
    const cart = res.json() as Cart
    expect(cart.items.map((i) => [i.id, i.quantity, i.unit_price])).toEqual([[a!.id, 25, 800]])
  })

  it('answers 404 for another visitor’s line and changes neither basket', async () => {
    const owner = await visitor()
    const theirs = ((await owner.post('/cart/add', { items: [line(sign.id, 2)] })).json() as Cart).items[0]!
    const intruder = await visitor()
    await intruder.post('/cart/add', { items: [line(cheap.id, 1)] })
    expect(
      (await intruder.post('/cart/update-items', { items: [{ id: theirs.id, quantity: 7 }] })).statusCode,
    ).toBe(404)
    expect((await intruder.delete(`/cart/item/${theirs.id}`)).statusCode).toBe(404)
    expect((await cartOf(owner)).items[0]!.quantity).toBe(2)
    const anonymous = await visitor()
    expect(
      (await anonymous.post('/cart/update-items', { items: [{ id: theirs.id, quantity: 7 }] })).statusCode,
    ).toBe(404)
  })

  it.each([
    ['negative', -3],
    ['huge', 1e9],
    ['fractional', 2.5],
    ['non-numeric', 'abc'],
  ])('answers 422 for a %s quantity and changes nothing', async (_n, quantity) => {
    const v = await visitor()
    const item = ((await v.post('/cart/add', { items: [line(sign.id, 2)] })).json() as Cart).items[0]!
    const res = await v.post('/cart/update-items', { items: [{ id: item.id, quantity }] })
    expect(res.statusCode).toBe(422)
    expect(res.json().errors).toHaveProperty('items.0.quantity')
    expect((await cartOf(v)).items[0]!.quantity).toBe(2)
  })

  it('answers 422 for a quantity under the minimum order and for a line id that is not a number', async () => {
    const v = await visitor()
    const item = ((await v.post('/cart/add', { items: [line(boxed.id, 5)] })).json() as Cart).items[0]!
    expect((await v.post('/cart/update-items', { items: [{ id: item.id, quantity: 3 }] })).statusCode).toBe(
      422,
    )
    expect((await v.post('/cart/update-items', { items: [{ id: 'x', quantity: 3 }] })).statusCode).toBe(422)
    expect((await v.delete('/cart/item/abc')).statusCode).toBe(404)
  })

  it('keeps a child line that follows its parent read-only, and moves it with the parent', async () => {
    const v = await visitor()
    const parent = ((await v.post('/cart/add', { items: [line(sign.id, 2)] })).json() as Cart).items[0]!
    const cartId = (await cartOf(v)).id!
    const [child] = await t.app.db
      .insert(cartItems)
      .values({ cartId, productId: cheap.id, quantity: 2, parentId: parent.id })
      .returning()
    const refused = await v.post('/cart/update-items', { items: [{ id: child!.id, quantity: 5 }] })
    expect(refused.statusCode).toBe(422)
    const cart = (
      await v.post('/cart/update-items', { items: [{ id: parent.id, quantity: 4 }] })
    ).json() as Cart
    expect(cart.items.map((i) => [i.parent, i.quantity])).toEqual([
      [null, 4],
      [parent.id, 4],
    ])
    const removed = (await v.delete(`/cart/item/${parent.id}`)).json() as Cart
    expect(removed.items).toEqual([])
  })

  it('removes a line with DELETE /cart/item/{id} and empties the basket with /cart/clear', async () => {
    const v = await visitor()
    const cart = (await v.post('/cart/add', { items: [line(sign.id, 1), line(cheap.id, 2)] })).json() as Cart
    const after = (await v.delete(`/cart/item/${cart.items[0]!.id}`)).json() as Cart
    expect(after.items.map((i) => i.product.sku)).toEqual([cheap.sku])
    const cleared = await v.post('/cart/clear')
    expect(cleared.statusCode).toBe(200)
    expect((cleared.json() as Cart).items).toEqual([])
    expect((cleared.json() as Cart).cart_total_price_inc_tax).toBe(0)
  })

  it('removes every line of a sign sequence through the named route', async () => {
    const v = await visitor()
    await v.post('/cart/add', {
      items: [
        line(sign.id, 1, {
          sequence_id: 'seq-1',
          printable_sign: { url: '/design-a-sign', signReads: 'FIRE EXIT' },
        }),
        line(cheap.id, 1, {
          sequence_id: 'seq-1',
          printable_sign: { url: '/design-a-sign', signReads: 'FIRE EXIT' },
        }),
        line(sign.id, 2),
      ],
    })
    const before = await cartOf(v)
    // The Edit link is the shop's own: the product's page with the line's id (ADR 0121).
    expect(before.items[0]!.edit_url).toBe(`${before.items[0]!.product.url}?item_id=${before.items[0]!.id}`)
    const res = await v.delete('/cart/sign-sequence/seq-1')
    expect(res.statusCode).toBe(200)
    expect((res.json() as Cart).items.map((i) => i.quantity)).toEqual([2])
    expect((await v.delete('/cart/sign-sequence/seq-1')).statusCode).toBe(404)
  })

  it('loses no update when 20 quantity changes on one basket arrive at once', async () => {
    const v = await visitor()
    const products = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const g = await insertGroup(t.app.db, { siteId, categoryId })
        return insertSku(t.app.db, { siteId, groupId: g.id, sku: `T-CONC-${i}` })
      }),
    )
    const cart = (await v.post('/cart/add', { items: products.map((p) => line(p.id, 1)) })).json() as Cart
    const results = await Promise.all(
      cart.items.map((item, i) =>
        v.post('/cart/update-items', { items: [{ id: item.id, quantity: i + 2 }] }),
      ),
    )
    expect(results.map((r) => r.statusCode)).toEqual(Array(20).fill(200))
    const final = await cartOf(v)
    expect(final.items.map((i) => i.quantity)).toEqual(cart.items.map((_, i) => i + 2))
    const expectedItems = cart.items.reduce((s, _, i) => s + i + 2, 0)
    expect(final.cart_total_items).toBe(expectedItems)
    const [row] = await t.app.db.select().from(carts).where(eq(carts.id, final.id!))
    expect(row!.summaryCount).toBe(expectedItems)
    expect(row!.summaryTotal).toBe(final.cart_total_price_inc_tax)
  })

  it('counts every one of 20 simultaneous adds of the same product', async () => {
    const v = await visitor()
    await v.post('/cart/add', { items: [line(cheap.id, 1)] })
    await Promise.all(Array.from({ length: 20 }, () => v.post('/cart/add', { items: [line(cheap.id, 1)] })))
    expect((await cartOf(v)).items[0]!.quantity).toBe(21)
  })
})

describe('the whole-cart update', () => {
  it('changes the despatch type and the zone, and refuses ones that do not exist', async () => {
    const v = await visitor()
    await v.post('/cart/add', { items: [line(sign.id, 1)] })
    const nextDay = (await v.post('/cart/update-cart', { despatch_type: 'next_day' })).json() as Cart
    expect(nextDay.despatch_type).toBe('next_day')
    expect(nextDay.cart_total_shipping).toBe(1295)
    expect(nextDay.shortForFreeShipping).toBeNull()
    expect(nextDay.shippingRates.find((r) => r.selected)?.despatch_type).toBe('next_day')
    const islands = (
      await v.post('/cart/update-cart', { shippingZone: 'Highlands and Islands' })
    ).json() as Cart
    expect(islands.cart_total_shipping).toBe(1495)
    expect((await v.post('/cart/update-cart', { despatch_type: 'rocket' })).statusCode).toBe(422)
    expect((await v.post('/cart/update-cart', { shippingZone: 'Moon' })).statusCode).toBe(422)
  })

  it('zero-rates eligible lines when the buyer claims VAT relief with a declaration', async () => {
    const v = await visitor()
    await v.post('/cart/add', { items: [line(relief.id, 1), line(sign.id, 1)] })
    expect((await v.post('/cart/update-cart', { ApplyVATRelief: true })).statusCode).toBe(422)
    const cart = (
      await v.post('/cart/update-cart', {
        vatRelief: { name: 'Ada Lovelace', condition: 'Arthritis', confirmed: true },
      })
    ).json() as Cart
    expect(cart.ApplyVATRelief).toBe(true)
    expect(cart.items.map((i) => i.line_tax)).toEqual([0, 200])
    expect((await v.post('/cart/update-cart', { ApplyVATRelief: 'yes' })).statusCode).toBe(422)
  })
})

describe('promotional codes', () => {
  async function basket(quantity = 5) {
    const v = await visitor()
    await v.post('/cart/add', { items: [line(sign.id, quantity)] })
    return v
  }

  it('applies a percentage code, case-insensitively, and removes it with an empty list', async () => {
    const v = await basket()
    const applied = (await v.post('/cart/update-cart', { promotionCodes: ['save10'] })).json() as Cart
    expect(applied.promotionCodes).toEqual(['SAVE10'])
    expect(applied.errors.promotionCodes).toEqual([])
    expect(applied.cart_total_discount).toBe(500)
    expect(applied.cart_total_discount_inc_tax).toBe(600)
    expect(applied.items[0]!.line_total).toBe(4500)
    const removed = (await v.post('/cart/add', { promotionCodes: [] })).json() as Cart
    expect(removed.promotionCodes).toEqual([])
    expect(removed.cart_total_discount).toBe(0)
  })

  it('reports an unknown, expired or under-spent code with its message and code', async () => {
    const v = await basket(1)
    for (const code of ['NOPE', 'EXPIRED5', 'TENOFF']) {
      const cart = (await v.post('/cart/update-cart', { promotionCodes: [code] })).json() as Cart
      expect(cart.promotionCodes).toEqual([])
      expect(cart.errors.promotionCodes).toEqual([
        { message: 'Promo code is not valid or applicable to your cart', code },
      ])
    }
  })

  it('refuses a code of 51 characters with the spec’s message, and keeps 50', async () => {
    const v = await basket()
    const res = await v.post('/cart/update-cart', { promotionCodes: ['X'.repeat(51)] })
    expect(res.statusCode).toBe(422)
    expect(res.json().errors['promotionCodes.0']).toEqual([
      'Promotional Code must be less than 50 characters',
    ])
    expect((await v.post('/cart/update-cart', { promotionCodes: ['X'.repeat(50)] })).statusCode).toBe(200)
  })

  it('ignores a blank code', async () => {
    const v = await basket()
    const cart = (await v.post('/cart/update-cart', { promotionCodes: ['   '] })).json() as Cart
    expect(cart.promotionCodes).toEqual([])
    expect(cart.errors.promotionCodes).toEqual([])
  })

  it('gives free delivery, and a fixed amount off above its minimum spend', async () => {
    const v = await basket(5)
    const free = (await v.post('/cart/update-cart', { promotionCodes: ['FREEDEL'] })).json() as Cart
    expect(free.cart_total_shipping).toBe(0)
    expect(free.shortForFreeShipping).toBe(0)
    const fixed = (await v.post('/cart/update-cart', { promotionCodes: ['TENOFF'] })).json() as Cart
    expect(fixed.cart_total_discount).toBe(1000)
    expect(fixed.cart_total_shipping).toBe(595)
  })

  it('adds the free gift while the code applies and takes it away when it no longer does', async () => {
    const v = await basket(5)
    const cart = (await v.post('/cart/update-cart', { promotionCodes: ['FREEGIFT'] })).json() as Cart
    const gift = cart.items.find((i) => i.IsFreeGift)!
    expect(gift.line_total).toBe(0)
    expect((await v.post('/cart/update-items', { items: [{ id: gift.id, quantity: 3 }] })).statusCode).toBe(
      422,
    )
    const below = (
      await v.post('/cart/update-items', { items: [{ id: cart.items[0]!.id, quantity: 1 }] })
    ).json() as Cart
    expect(below.items.some((i) => i.IsFreeGift)).toBe(false)
    expect(below.errors.promotionCodes).toEqual([
      { message: 'Promo code is not valid or applicable to your cart', code: 'FREEGIFT' },
    ])
  })

  it('keeps codes per site', async () => {
    const v = await new Visitor(t.app, '127.0.0.1').start()
    const cart = (await v.post('/cart/update-cart', { promotionCodes: ['TENOFF'] })).json() as Cart
    expect(cart.errors.promotionCodes[0]?.code).toBe('TENOFF')
  })

  it('accepts exactly 10 of 100 baskets redeeming a code limited to 10 uses at once', async () => {
    await t.app.db
      .insert(promotions)
      .values({ siteId, code: 'TEN-ONLY', kind: 'percentage', value: 5, usageLimit: 10 })
    const visitors = []
    for (let i = 0; i < 100; i++) visitors.push(await basket(1))
    const results = await Promise.all(
      visitors.map((v) => v.post('/cart/update-cart', { promotionCodes: ['TEN-ONLY'] })),
    )
    expect(results.every((r) => r.statusCode === 200)).toBe(true)
    const accepted = results.filter((r) => (r.json() as Cart).promotionCodes.includes('TEN-ONLY'))
    expect(accepted).toHaveLength(10)
    const refused = results.filter((r) => !(r.json() as Cart).promotionCodes.includes('TEN-ONLY'))
    expect((refused[0]!.json() as Cart).errors.promotionCodes).toEqual([
      { message: 'This promotional code has reached its usage limit', code: 'TEN-ONLY' },
    ])
    const [promo] = await t.app.db
      .select()
      .from(promotions)
      .where(and(eq(promotions.siteId, siteId), eq(promotions.code, 'TEN-ONLY')))
    expect(promo!.timesUsed).toBe(10)
    // Removing the code gives its use back.
    const holder = visitors[results.indexOf(accepted[0]!)]!
    await holder.post('/cart/update-cart', { promotionCodes: [] })
    const [after] = await t.app.db.select().from(promotions).where(eq(promotions.id, promo!.id))
    expect(after!.timesUsed).toBe(9)
  })
})

describe('sharing and saving', () => {
  it('e-mails each recipient a link that loads a shared copy of the basket', async () => {
    const v = await visitor()
    const cart = (await v.post('/cart/add', { items: [line(sign.id, 3)] })).json() as Cart
    const res = await v.post('/cart/share', {
      emails: 'a@example.com, b@example.com',
      name: "Mary O'Neil-Smith",
      cart_id: cart.id,
    })
    expect(res.statusCode).toBe(200)
    const mails = await t.app.db.select().from(mailOutbox)
    const sent = mails.filter((m) => m.to[0] === 'a@example.com' || m.to[0] === 'b@example.com')
    expect(sent).toHaveLength(2)
    expect(sent[0]!.subject).toBe("Mary O'Neil-Smith has shared a basket with you")
    const link = /http:\/\/localhost\/cart\/shared\/[\w-]+/.exec(sent[0]!.text)![0]
    const friend = await visitor()
    // The friend has a basket of their own: opening the link (a GET) only asks.
    const own = (await friend.post('/cart/add', { items: [line(cheap.id, 2)] })).json() as Cart
    const open = await friend.visit(new URL(link).pathname)
    expect(open.json().component).toBe('Cart')
    expect(open.json().props.sharedOffer).toEqual({ action: new URL(link).pathname, count: 3 })
    expect((await cartOf(friend)).id).toBe(own.id)
    // 'Keep my basket' is a link back to /cart: nothing changed. 'Replace my basket' posts.
    const replace = await friend.post(new URL(link).pathname, {})
    expect(replace.statusCode).toBe(303)
    expect(replace.headers.location).toBe('/cart')
    const copy = await cartOf(friend)
    expect(copy.shared).toBe(true)
    expect(copy.id).not.toBe(cart.id)
    expect(copy.items.map((i) => [i.product.sku, i.quantity])).toEqual([[sign.sku, 3]])
    // The copy is the friend's own: changing it leaves the original alone.
    const changed = (
      await friend.post('/cart/update-items', { items: [{ id: copy.items[0]!.id, quantity: 9 }] })
    ).json() as Cart
    expect((await cartOf(v)).items[0]!.quantity).toBe(3)
    const page = await friend.visit('/cart')
    expect(page.json().component).toBe('Cart')
    expect(page.json().props.basket.shared).toBe(true)
    expect(page.json().props.cart).toEqual({ count: 9, total: changed.cart_total_price_inc_tax })
    // Their own basket was kept and comes back.
    expect(page.json().props.restorePrevious).toBe('/cart/previous/restore')
    await friend.post('/cart/previous/restore', {})
    const restored = await cartOf(friend)
    expect(restored.id).toBe(own.id)
    expect(restored.items.map((i) => [i.product.sku, i.quantity])).toEqual([[cheap.sku, 2]])
  })

  it('validates the share form and refuses another visitor’s basket', async () => {
    const v = await visitor()
    await v.post('/cart/add', { items: [line(sign.id, 1)] })
    const bad = await v.post('/cart/share', { emails: 'a@example.com, nope', name: 'Bob <script>' })
    expect(bad.statusCode).toBe(422)
    expect(Object.keys(bad.json().errors).sort()).toEqual(['emails', 'name'])
    const other = await visitor()
    const otherCart = (await other.post('/cart/add', { items: [line(sign.id, 1)] })).json() as Cart
    expect(
      (await v.post('/cart/share', { emails: 'a@example.com', name: 'Bob', cart_id: otherCart.id }))
        .statusCode,
    ).toBe(404)
    const empty = await visitor()
    expect((await empty.post('/cart/share', { emails: 'a@example.com', name: 'Bob' })).statusCode).toBe(404)
  })

  it('sends an unknown share link to the basket with an error', async () => {
    const v = await visitor()
    const res = await v.request('GET', '/cart/shared/AAAAAAAAAAAAAAAAAAAAAA', undefined, {
      accept: 'text/html',
    })
    expect(res.statusCode).toBe(302)
    const page = await v.visit('/cart')
    expect(page.json().flash.cartError).toBe('This shared basket link is not valid or no longer exists.')
  })

  it('saves a basket only for a logged-in customer, under the session’s customer id', async () => {
    const v = await visitor()
    await v.post('/cart/add', { items: [line(sign.id, 2)] })
    const guest = await v.post('/cart/save', { basketName: 'Site office' })
    expect(guest.statusCode).toBe(401)
    await withCustomer(v, 42)
    expect((await v.visit('/cart')).json().props.canSave).toBe(true)
    expect((await v.post('/cart/save', { basketName: 'Site office!' })).statusCode).toBe(422)
    const res = await v.post('/cart/save', { basketName: "Site office 2 - Bob's", customer_id: 7 })
    expect(res.statusCode).toBe(200)
    const [saved] = await t.app.db.select().from(carts).where(eq(carts.id, res.json().id))
    expect(saved).toMatchObject({ kind: 'saved', customerId: 42, basketName: "Site office 2 - Bob's" })
  })
})

describe('the Cart page and the header summary', () => {
  it('keeps an anonymous visitor without a basket free of sessions', async () => {
    const v = await visitor()
    const res = await v.visit('/cart')
    expect(res.json().component).toBe('Cart')
    expect(res.json().props.cart).toEqual({ count: 0, total: 0 })
    expect(res.json().props.basket.items).toEqual([])
    expect(res.json().props.suggestions.length).toBeGreaterThan(0)
    expect(v.cookies.shop_session).toBeUndefined()
  })

  it('shows the basket count and total in the header after a change', async () => {
    const v = await visitor()
    const cart = (await v.post('/cart/add', { items: [line(sign.id, 2)] })).json() as Cart
    const page = (await v.visit('/')).json()
    expect(page.props.cart).toEqual({ count: 2, total: cart.cart_total_price_inc_tax })
  })

  it('answers an unknown host with the site setup page, and its cart calls with 404', async () => {
    const page = await t.app.inject({
      url: '/cart',
      headers: { host: 'nowhere.example', accept: 'text/html' },
    })
    expect(page.statusCode).toBe(404)
    expect(page.body).toContain('SiteSetup')
    const v = await new Visitor(t.app, 'nowhere.example').start()
    const res = await v.post('/cart/init')
    expect(res.statusCode).toBe(404)
    expect(res.json()).toEqual({ message: 'Not Found' })
  })
})

describe('attaching a basket at login', () => {
  it('gives the session’s basket to the customer, never one that is someone else’s', async () => {
    const v = await visitor()
    const cart = (await v.post('/cart/add', { items: [line(sign.id, 1)] })).json() as Cart
    expect(await t.app.carts.attachToCustomer(siteId, cart.id!, 5)).toBe(true)
    expect((await cartOf(v)).customer_id).toBe(5)
    expect(await t.app.carts.attachToCustomer(siteId, cart.id!, 6)).toBe(false)
    expect(await t.app.carts.attachToCustomer(siteId, 'not-a-cart', 6)).toBe(false)
  })
})

describe('sweeping abandoned baskets', () => {
  it('deletes old session baskets and share copies, gives back their code uses, and keeps saved ones', async () => {
    const [promo] = await t.app.db
      .insert(promotions)
      .values({ siteId, code: 'SWEEP5', kind: 'percentage', value: 5, usageLimit: 3 })
      .returning()
    const old = await visitor()
    const oldCart = (
      await old.post('/cart/add', { items: [line(sign.id, 5)], promotionCodes: ['SWEEP5'] })
    ).json() as Cart
    expect(oldCart.promotionCodes).toEqual(['SWEEP5'])
    const fresh = await visitor()
    const freshCart = (await fresh.post('/cart/add', { items: [line(sign.id, 1)] })).json() as Cart
    const keeper = await visitor()
    await keeper.post('/cart/add', { items: [line(sign.id, 1)] })
    await withCustomer(keeper, 77)
    const saved = (await keeper.post('/cart/save', { basketName: 'Keep me' })).json() as { id: string }
    const longAgo = new Date(Date.now() - 90 * 86_400_000)
    await t.app.db.update(carts).set({ updatedAt: longAgo }).where(eq(carts.id, oldCart.id!))
    await t.app.db.update(carts).set({ updatedAt: longAgo }).where(eq(carts.id, saved.id))

    expect(await t.app.carts.sweep(31 * 86_400)).toBeGreaterThanOrEqual(1)
    const ids = (await t.app.db.select({ id: carts.id }).from(carts)).map((c) => c.id)
    expect(ids).not.toContain(oldCart.id)
    expect(ids).toContain(freshCart.id)
    expect(ids).toContain(saved.id)
    const [after] = await t.app.db.select().from(promotions).where(eq(promotions.id, promo!.id))
    expect(after!.timesUsed).toBe(0)
    expect((await cartOf(old)).items).toEqual([])
  })
})
