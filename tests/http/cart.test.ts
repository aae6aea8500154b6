import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { cartItems, carts } from '../../src/server/db/schema.ts'
import type { Cart } from '../../src/shared/cart.ts'
import { Visitor } from '../helpers/visitor.ts'
import { insertGroup, insertSku } from '../factories/product.ts'
import {
  t,
  siteId,
  categoryId,
  builderCategoryId,
  sign,
  cheap,
  boxed,
  relief,
  builderBase,
  visitor,
  line,
  cartOf,
  useCartFixture,
} from './cart.fixture.ts'

useCartFixture()

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
