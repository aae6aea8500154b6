/**
 * VAT relief at checkout (spec §3 show_vat_relief / ApplyVATRelief, §7 `POST /cart/update-cart`
 * with DeliveryOption, country, postcode and vatRelief, §9 limits): eligible lines are zero-rated
 * only under a valid declaration, within the per-order limits, and the order keeps the declaration.
 */
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { carts, orders } from '../../src/server/db/schema.ts'
import type { Cart } from '../../src/shared/cart.ts'
import type { OrderData } from '../../src/shared/checkout.ts'
import { VAT_RELIEF_TEXT } from '../../src/shared/vat-relief.ts'
import { buildTestApp, type TestApp } from '../helpers/app.ts'
import { Visitor } from '../helpers/visitor.ts'
import { insertCategory, insertGroup, insertSku, siteIdFor } from '../factories/product.ts'

let t: TestApp
let categoryId: number
/** £10.00 ex VAT each (1-9) */
let sign: number
let wheelchair: number
let pads: number
let underwear: number

beforeAll(async () => {
  t = await buildTestApp()
  const db = t.app.db
  const siteId = await siteIdFor(db)
  categoryId = (await insertCategory(db, { siteId })).id
  const plain = await insertGroup(db, { siteId, categoryId })
  sign = (await insertSku(db, { siteId, groupId: plain.id })).id
  const chairs = await insertGroup(db, { siteId, categoryId, vatReliefEligible: true })
  wheelchair = (await insertSku(db, { siteId, groupId: chairs.id })).id
  const padGroup = await insertGroup(db, {
    siteId,
    categoryId,
    vatReliefEligible: true,
    vatReliefKind: 'pads',
  })
  pads = (await insertSku(db, { siteId, groupId: padGroup.id })).id
  const pants = await insertGroup(db, {
    siteId,
    categoryId,
    vatReliefEligible: true,
    vatReliefKind: 'underwear',
  })
  underwear = (await insertSku(db, { siteId, groupId: pants.id })).id
})
afterAll(() => t?.close())

const declaration = { name: 'Ada Lovelace', condition: 'Multiple sclerosis', confirmed: true }

async function basket(lines: [number, number][], host = 'localhost') {
  const v = await new Visitor(t.app, host).start()
  const res = await v.post('/cart/add', {
    items: lines.map(([listing_id, quantity]) => ({ listing_id, quantity, category_id: categoryId })),
  })
  expect(res.statusCode).toBe(200)
  return { v, cart: res.json() as Cart }
}

const claim = (v: Visitor, vatRelief: unknown, extra: Record<string, unknown> = {}) =>
  v.post('/cart/update-cart', {
    DeliveryOption: 'standard',
    country: 'GB',
    postcode: 'PL1 2AA',
    vatRelief,
    ...extra,
  })

describe('the VAT relief declaration (POST /cart/update-cart with vatRelief)', () => {
  it('is offered only when the basket holds eligible goods on a site that charges VAT', async () => {
    expect((await basket([[sign, 1]])).cart.show_vat_relief).toBe(false)
    expect(
      (
        await basket([
          [sign, 1],
          [wheelchair, 1],
        ])
      ).cart.show_vat_relief,
    ).toBe(true)
  })

  it('zero-rates only the eligible lines under a valid declaration, and withdrawing it re-prices with VAT', async () => {
    const { v, cart } = await basket([
      [wheelchair, 1],
      [sign, 1],
    ])
    expect(cart.items.map((i) => i.line_tax)).toEqual([200, 200])
    const res = await claim(v, declaration)
    expect(res.statusCode).toBe(200)
    const relieved = res.json() as Cart
    expect(relieved.ApplyVATRelief).toBe(true)
    expect(relieved.items.map((i) => i.line_tax)).toEqual([0, 200])
    expect(relieved.cart_total_price_inc_tax).toBe(cart.cart_total_price_inc_tax - 200)
    expect(relieved.vat_relief_declaration).toEqual({ name: 'Ada Lovelace', condition: 'Multiple sclerosis' })
    expect(relieved.shippingZone).toBe('UK Mainland')

    const withdrawn = (await claim(v, false)).json() as Cart
    expect(withdrawn.ApplyVATRelief).toBe(false)
    expect(withdrawn.vat_relief_declaration).toBeNull()
    expect(withdrawn.items.map((i) => i.line_tax)).toEqual([200, 200])
  })

  it('refuses a declaration without a name, a condition or the confirmation, under each field, and changes nothing', async () => {
    const { v } = await basket([[wheelchair, 1]])
    const res = await claim(v, { name: ' ', condition: '', confirmed: false })
    expect(res.statusCode).toBe(422)
    expect(res.json().errors).toEqual({
      'vatRelief.name': [VAT_RELIEF_TEXT.nameRequired],
      'vatRelief.condition': [VAT_RELIEF_TEXT.conditionRequired],
      'vatRelief.confirmed': [VAT_RELIEF_TEXT.confirmRequired],
    })
    const long = await claim(v, { ...declaration, name: 'x'.repeat(101) })
    expect(long.json().errors).toEqual({ 'vatRelief.name': [VAT_RELIEF_TEXT.tooLong(100)] })
    const [row] = await t.app.db
      .select()
      .from(carts)
      .where(eq(carts.id, (await v.post('/cart/update-cart', {})).json().id))
    expect(row!.applyVatRelief).toBe(false)
    expect(row!.vatReliefDeclaration).toBeNull()
  })

  it('refuses ApplyVATRelief without a declaration: nothing is zero-rated on a bare flag', async () => {
    const { v } = await basket([[wheelchair, 1]])
    const res = await v.post('/cart/update-cart', { ApplyVATRelief: true })
    expect(res.statusCode).toBe(422)
    expect(res.json().errors).toEqual({ vatRelief: [VAT_RELIEF_TEXT.declarationRequired] })
    expect(((await v.post('/cart/update-cart', {})).json() as Cart).items[0]!.line_tax).toBe(200)
  })

  it('refuses relief for a basket with nothing eligible', async () => {
    const { v } = await basket([[sign, 2]])
    const res = await claim(v, declaration)
    expect(res.statusCode).toBe(422)
    expect(res.json().errors).toEqual({ vatRelief: [VAT_RELIEF_TEXT.nothingEligible] })
  })

  it('keeps to the limits per order: 200 pads, 10 pairs of underwear', async () => {
    const { v } = await basket([
      [pads, 200],
      [underwear, 10],
    ])
    expect((await claim(v, declaration)).statusCode).toBe(200)
    const over = await basket([
      [pads, 1],
      [underwear, 11],
    ])
    const res = await claim(over.v, declaration)
    expect(res.statusCode).toBe(422)
    expect(res.json().errors).toEqual({ vatRelief: [VAT_RELIEF_TEXT.overLimit('underwear')] })
    expect(VAT_RELIEF_TEXT.overLimit('underwear')).toBe(
      'VAT relief covers at most 10 pairs of underwear in one order.',
    )
  })

  it('ends the relief when the basket later goes past a limit, and restores it when it comes back', async () => {
    const { v } = await basket([[pads, 200]])
    const relieved = (await claim(v, declaration)).json() as Cart
    expect(relieved.ApplyVATRelief).toBe(true)
    const line = relieved.items[0]!.id
    const over = (await v.post('/cart/update-items', { items: [{ id: line, quantity: 201 }] })).json() as Cart
    expect(over.ApplyVATRelief).toBe(false)
    expect(over.items[0]!.line_tax).toBeGreaterThan(0)
    const back = (await v.post('/cart/update-items', { items: [{ id: line, quantity: 150 }] })).json() as Cart
    expect(back.ApplyVATRelief).toBe(true)
    expect(back.items[0]!.line_tax).toBe(0)
  })

  it('checks the country against the site list and the delivery option against the zone', async () => {
    const { v } = await basket([[wheelchair, 1]])
    expect((await claim(v, declaration, { country: 'ZZ' })).statusCode).toBe(422)
    expect((await claim(v, declaration, { DeliveryOption: 'rocket' })).json().errors).toHaveProperty(
      'despatch_type',
    )
  })
})

describe('placing an order under VAT relief', () => {
  it('charges the zero-rated total and keeps the declaration with the order', async () => {
    const { v } = await basket([
      [wheelchair, 2],
      [sign, 1],
    ])
    const cart = (await claim(v, declaration)).json() as Cart
    const res = await v.post('/checkout/complete', {
      cart_id: cart.id,
      payment_method: 'purchase_order',
      contact: {
        firstName: 'Ada',
        lastName: 'Lovelace',
        email: 'ada.relief@example.com',
        phone: '01632 960 222',
        company: '',
      },
      shipping_address: { address1: '1 Analytical Row', town: 'London', postcode: 'SW1A 1AA', country: 'GB' },
      showingBillingAddress: false,
      transactions: [
        {
          amount: cart.cart_total_price_inc_tax,
          paymentDetails: {},
          paymentProvider: 'purchase_order',
          authCode: 'empty',
        },
      ],
      delivery_option: cart.shippingRates.find((r) => r.selected)!.id,
    })
    expect(res.statusCode).toBe(200)
    const order = (res.json() as { order: OrderData }).order
    expect(order.items.map((i) => i.line_vat)).toEqual([0, 200])
    const [row] = await t.app.db.select().from(orders).where(eq(orders.id, order.id))
    expect(row!.applyVatRelief).toBe(true)
    expect(row!.vatReliefDeclaration).toMatchObject({ name: 'Ada Lovelace', condition: 'Multiple sclerosis' })
    expect(row!.totalIncVat).toBe(cart.cart_total_price_inc_tax)
  })

  it('does not zero-rate or keep a declaration on an order whose basket went past a limit', async () => {
    const { v } = await basket([[pads, 200]])
    const relieved = (await claim(v, declaration)).json() as Cart
    const cart = (
      await v.post('/cart/update-items', { items: [{ id: relieved.items[0]!.id, quantity: 201 }] })
    ).json() as Cart
    const res = await v.post('/checkout/complete', {
      cart_id: cart.id,
      payment_method: 'purchase_order',
      contact: {
        firstName: 'Bo',
        lastName: 'Over',
        email: 'bo.over@example.com',
        phone: '01632 960 223',
        company: '',
      },
      shipping_address: { address1: '2 Limit Lane', town: 'Leeds', postcode: 'LS1 4AP', country: 'GB' },
      showingBillingAddress: false,
      transactions: [
        {
          amount: cart.cart_total_price_inc_tax,
          paymentDetails: {},
          paymentProvider: 'purchase_order',
          authCode: 'empty',
        },
      ],
      delivery_option: cart.shippingRates.find((r) => r.selected)!.id,
    })
    expect(res.statusCode).toBe(200)
    const [row] = await t.app.db
      .select()
      .from(orders)
      .where(eq(orders.id, (res.json() as { order: OrderData }).order.id))
    expect(row!.applyVatRelief).toBe(false)
    expect(row!.vatReliefDeclaration).toBeNull()
    expect(row!.vat).toBeGreaterThan(0)
  })
})
