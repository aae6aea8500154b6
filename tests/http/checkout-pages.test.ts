import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { customerMarketing, orderFeedback, orders } from '../../src/server/db/schema.ts'
import type { Cart } from '../../src/shared/cart.ts'
import type { CheckoutCompletePageProps, CheckoutPageProps, OrderData } from '../../src/shared/checkout.ts'
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
  const cart = (
    await v.post('/cart/add', { items: [{ listing_id: skuId, quantity: 3, category_id: categoryId }] })
  ).json() as Cart
  return { v, cart }
}

async function placed(email = `page${++n}@example.com`) {
  const { v, cart } = await shopper()
  const res = await v.post('/checkout/complete', {
    cart_id: cart.id,
    payment_method: 'purchase_order',
    contact: { firstName: 'Paige', lastName: 'Placer', email, phone: '01632 960 321' },
    shipping_address: { address1: '1 Harbour Way', town: 'Plymouth', postcode: 'PL1 2AA', country: 'GB' },
    transactions: [
      { amount: cart.cart_total_price_inc_tax, paymentDetails: {}, paymentProvider: 'purchase_order' },
    ],
    delivery_option: cart.shippingRates.find((r) => r.selected)!.id,
  })
  expect(res.statusCode).toBe(200)
  return { v, order: res.json().order as OrderData }
}

describe('the Checkout page', () => {
  it('sends an empty basket to /cart', async () => {
    const v = await new Visitor(t.app).start()
    const res = await v.visit('/checkout')
    expect([302, 303]).toContain(res.statusCode)
    expect(res.headers.location).toBe('/cart')
  })

  it('shows the basket, the site’s payment methods, countries and freephone number', async () => {
    const { v } = await shopper()
    const res = await v.visit('/checkout')
    expect(res.statusCode).toBe(200)
    const page = res.json()
    expect(page.component).toBe('Checkout')
    const props = page.props as CheckoutPageProps
    expect(props.basket.items).toHaveLength(1)
    expect(props.paymentMethods.map((m) => m.id)).toEqual(['purchase_order'])
    expect(props.freephoneNumber).toBe('0800 960 0123')
    expect(props.countries.map((c) => c.code)).toContain('IE')
    expect(props.customer).toBeNull()
  })
})

describe('POST /checkout/update-delivery', () => {
  it('picks the zone from the country and postcode and answers cart and shippingRates', async () => {
    const { v } = await shopper()
    const highland = await v.post('/checkout/update-delivery', { countryCode: 'GB', regionCode: 'HS1 2AA' })
    expect(highland.statusCode).toBe(200)
    const body = highland.json() as { cart: Cart; shippingRates: Cart['shippingRates'] }
    expect(body.cart.shippingZone).toBe('Highlands and Islands')
    expect(body.shippingRates.find((r) => r.selected)!.name).toBe('Standard delivery (5-7 working days)')
    const ireland = await v.post('/checkout/update-delivery', { countryCode: 'IE', regionCode: 'D02' })
    expect(ireland.json().cart.shippingZone).toBe('Ireland and Europe')
    const nowhere = await v.post('/checkout/update-delivery', { countryCode: 'JP', regionCode: '100' })
    expect(nowhere.statusCode).toBe(422)
    expect(nowhere.json().message).toBe('We do not deliver to this country.')
    const paypal = await v.post('/checkout/update-delivery', { countryCode: null, regionCode: null })
    expect(paypal.json().cart.shippingZone).toBe('Ireland and Europe')
  })
})

describe('GET /checkout/address-search', () => {
  it('answers matches from the embedded lookup for the site’s countries', async () => {
    const v = await new Visitor(t.app).start()
    const res = await v.request('GET', '/checkout/address-search?searchInput=quay%20bristol')
    expect(res.statusCode).toBe(200)
    expect(res.json().matches).toHaveLength(2)
    const none = await v.request('GET', '/checkout/address-search?searchInput=q')
    expect(none.json().matches).toEqual([])
  })
})

describe('Order Complete', () => {
  it('shows the order to the session that placed it, with invoicing, warnings and the opt-out', async () => {
    const { v, order } = await placed()
    const res = await v.visit(`/checkout/complete/${order.OrderNumber}`)
    expect(res.statusCode).toBe(200)
    const page = res.json()
    expect(page.component).toBe('CheckoutComplete')
    const props = page.props as CheckoutCompletePageProps
    expect(props.order.OrderNumber).toBe(order.OrderNumber)
    expect(props.invoicingEntity).toBe('Harbour Safety Supplies Ltd')
    expect(props.deliveryWarnings.length).toBeGreaterThan(0)
    expect(props.showOptOut).toBe(true)
    expect(props.forceLogout).toBe(true)
    const day = new Date(Date.parse(order.orderDate) + 86_400_000).toISOString().slice(0, 10)
    expect(props.estimatedDelivery).toBe(day)
  })

  it('is a 404 for any other visitor, and for an order number that does not exist', async () => {
    const { order } = await placed()
    const stranger = await new Visitor(t.app).start()
    expect((await stranger.visit(`/checkout/complete/${order.OrderNumber}`)).statusCode).toBe(404)
    expect((await stranger.visit('/checkout/complete/99999999')).statusCode).toBe(404)
    const feedback = await stranger.post('/checkout/send-feedback', {
      OrderNumber: order.OrderNumber,
      Feedback: 'Hi',
    })
    expect(feedback.statusCode).toBe(404)
    const gdpr = await stranger.post('/checkout/complete/gdpr', { OrderNumber: order.OrderNumber, gdpr: 0 })
    expect(gdpr.statusCode).toBe(404)
  })

  it('takes feedback with the §8 messages', async () => {
    const { v, order } = await placed()
    const empty = await v.post('/checkout/send-feedback', { OrderNumber: order.OrderNumber, Feedback: '  ' })
    expect(empty.json().errors.Feedback).toEqual(['The feedback box is empty.'])
    const long = await v.post('/checkout/send-feedback', {
      OrderNumber: order.OrderNumber,
      Feedback: 'x'.repeat(2001),
    })
    expect(long.json().errors.Feedback).toEqual(['Too many characters used! Maximum is 2000 characters.'])
    const ok = await v.post('/checkout/send-feedback', {
      OrderNumber: order.OrderNumber,
      Feedback: 'Smooth.',
    })
    expect(ok.json().message).toBe('Thank you! Your feedback has been received.')
    const rows = await t.app.db.select().from(orderFeedback).where(eq(orderFeedback.orderId, order.id))
    expect(rows.map((r) => r.feedback)).toEqual(['Smooth.'])
  })

  it('records the marketing opt-out of the guest this checkout created, with the §8 text', async () => {
    const { v, order } = await placed()
    const res = await v.post('/checkout/complete/gdpr', { OrderNumber: order.OrderNumber, gdpr: 0 })
    expect(res.json().message).toBe(
      'You opted out of receiving marketing emails. If this was a mistake, please amend and re-submit the form above.',
    )
    const [row] = await t.app.db.select().from(orders).where(eq(orders.id, order.id))
    const [choice] = await t.app.db
      .select()
      .from(customerMarketing)
      .where(eq(customerMarketing.customerId, row!.customerId!))
    expect(choice!.optedIn).toBe(false)
  })

  it('gives a placer no say over an existing account their e-mail matched', async () => {
    const { v, order } = await placed('demo@harbour-safety.example')
    const page = (await v.visit(`/checkout/complete/${order.OrderNumber}`)).json()
    expect(page.props.showOptOut).toBe(false)
    const res = await v.post('/checkout/complete/gdpr', { OrderNumber: order.OrderNumber, gdpr: 0 })
    expect(res.statusCode).toBe(404)
  })
})
