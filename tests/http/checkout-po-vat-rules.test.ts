/**
 * The PO number and VAT number rules of src/shared/checkout-rules.ts as `POST /checkout/complete`
 * applies them: one maximum for the PO number (the field's message, nothing written), the default
 * from the names, and the VAT number kept only for a delivery to IE.
 */
import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { customers, mailJobs, orders } from '../../src/server/db/schema.ts'
import type { Cart } from '../../src/shared/cart.ts'
import type { OrderData } from '../../src/shared/checkout.ts'
import { PO_NUMBER_MAX } from '../../src/shared/checkout-rules.ts'
import { buildTestApp, type TestApp } from '../helpers/app.ts'
import { Visitor } from '../helpers/visitor.ts'
import { insertCategory, insertGroup, insertSku, siteIdFor } from '../factories/product.ts'

let t: TestApp
let categoryId: number
let skuId: number
let n = 0

beforeAll(async () => {
  t = await buildTestApp()
  const siteId = await siteIdFor(t.app.db)
  categoryId = (await insertCategory(t.app.db, { siteId })).id
  const groupId = (await insertGroup(t.app.db, { siteId, categoryId })).id
  skuId = (await insertSku(t.app.db, { siteId, groupId })).id
})
afterAll(() => t?.close())

async function shopper() {
  const v = await new Visitor(t.app).start()
  const res = await v.post('/cart/add', {
    items: [{ listing_id: skuId, quantity: 2, category_id: categoryId }],
  })
  expect(res.statusCode).toBe(200)
  return { v, cart: res.json() as Cart }
}

const contact = (names: { firstName?: string; lastName?: string } = {}) => ({
  firstName: 'Pat',
  lastName: 'Buyer',
  email: `po-rules${++n}@example.com`,
  phone: '01632 960 902',
  company: '',
  ...names,
})
const address = (country: string, postcode: string) => ({
  company: '',
  address1: '1 Quay Street',
  address2: '',
  town: country === 'IE' ? 'Dublin' : 'Bristol',
  county: '',
  postcode,
  country,
})

function form(cart: Cart, extra: Record<string, unknown> = {}, paymentDetails: Record<string, unknown> = {}) {
  return {
    cart_id: cart.id,
    payment_method: 'purchase_order',
    contact: contact(),
    shipping_address: address('GB', 'BS1 4DJ'),
    showingBillingAddress: false,
    transactions: [
      {
        amount: cart.cart_total_price_inc_tax,
        paymentDetails: { PONumber: '', ...paymentDetails },
        paymentProvider: 'purchase_order',
        message: '',
        authCode: 'empty',
      },
    ],
    delivery_option: cart.shippingRates.find((r) => r.selected)?.id ?? 1,
    ...extra,
  }
}

async function counts() {
  const [o] = await t.app.db.select({ n: sql<number>`count(*)::int` }).from(orders)
  const [c] = await t.app.db.select({ n: sql<number>`count(*)::int` }).from(customers)
  const [j] = await t.app.db.select({ n: sql<number>`count(*)::int` }).from(mailJobs)
  return { orders: o!.n, customers: c!.n, jobs: j!.n }
}

const tooLong = `Please enter no more than ${PO_NUMBER_MAX} characters.`

describe('the PO number at POST /checkout/complete', () => {
  it('refuses one over the maximum with the field’s message and places nothing, however long', async () => {
    const { v, cart } = await shopper()
    const before = await counts()
    // Just over the maximum, over the schema's old limit of 100, and far over it.
    for (const length of [PO_NUMBER_MAX + 1, 101, 150, 5000]) {
      const res = await v.post('/checkout/complete', form(cart, { PONumber: 'P'.repeat(length) }))
      expect(res.statusCode).toBe(422)
      expect(res.json().errors.PONumber).toEqual([tooLong])
      expect(res.json().message).toBe(tooLong)
    }
    // The same number sent only inside the payment details meets the same rule.
    const inDetails = await v.post('/checkout/complete', form(cart, {}, { PONumber: 'P'.repeat(101) }))
    expect(inDetails.statusCode).toBe(422)
    expect(inDetails.json().errors.PONumber).toEqual([tooLong])
    expect(await counts()).toEqual(before)
    expect((await v.post('/cart/init')).json().id).toBe(cart.id)
  })

  it('places an order with a PO number of exactly the maximum, trimmed', async () => {
    const { v, cart } = await shopper()
    const po = 'PO-'.padEnd(PO_NUMBER_MAX, '7')
    const res = await v.post('/checkout/complete', form(cart, { PONumber: `  ${po} ` }))
    expect(res.statusCode).toBe(200)
    const order = res.json().order as OrderData
    expect(order.transactions[0]!.paymentDetails).toEqual({ PONumber: po })
    const [row] = await t.app.db.select().from(orders).where(eq(orders.id, order.id))
    expect(row!.poNumber).toBe(po)
  })

  it('fills a blank PO number with the names joined, cut to the maximum', async () => {
    const { v, cart } = await shopper()
    const names = { firstName: 'Bartholomew-Alexander', lastName: 'Featherstonehaugh-Montgomery-Smythe' }
    const res = await v.post('/checkout/complete', form(cart, { contact: contact(names), PONumber: '   ' }))
    expect(res.statusCode).toBe(200)
    const joined = `${names.firstName} ${names.lastName}`
    expect(joined.length).toBeGreaterThan(PO_NUMBER_MAX)
    const order = res.json().order as OrderData
    expect(order.transactions[0]!.paymentDetails).toEqual({ PONumber: joined.slice(0, PO_NUMBER_MAX) })
  })
})

describe('the VAT number at POST /checkout/complete', () => {
  async function irishShopper() {
    const { v } = await shopper()
    const res = await v.post('/checkout/update-delivery', { countryCode: 'IE', regionCode: 'D02 X285' })
    expect(res.statusCode).toBe(200)
    return { v, cart: res.json().cart as Cart }
  }

  it('keeps the VAT number of an order delivered to IE', async () => {
    const { v, cart } = await irishShopper()
    const res = await v.post(
      '/checkout/complete',
      form(cart, { shipping_address: address('IE', 'D02 X285'), VATNumber: ' IE1234567T ' }),
    )
    expect(res.statusCode).toBe(200)
    const order = res.json().order as OrderData
    expect(order.VATNumber).toBe('IE1234567T')
  })

  it('drops the VAT number of an order delivered elsewhere', async () => {
    const { v, cart } = await shopper()
    const res = await v.post('/checkout/complete', form(cart, { VATNumber: 'IE1234567T' }))
    expect(res.statusCode).toBe(200)
    expect((res.json().order as OrderData).VATNumber).toBeNull()
  })

  it('refuses a VAT number over its maximum with the field’s message and places nothing', async () => {
    const { v, cart } = await irishShopper()
    const before = await counts()
    const res = await v.post(
      '/checkout/complete',
      form(cart, { shipping_address: address('IE', 'D02 X285'), VATNumber: 'I'.repeat(31) }),
    )
    expect(res.statusCode).toBe(422)
    expect(res.json().errors.VATNumber).toEqual(['Please enter no more than 30 characters.'])
    expect(await counts()).toEqual(before)
  })
})
