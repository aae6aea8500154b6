import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { orders } from '../../../src/server/db/schema.ts'
import type { Cart } from '../../../src/shared/cart.ts'
import type { OrderData } from '../../../src/shared/checkout.ts'
import { Visitor } from '../../helpers/visitor.ts'
import { insertCategory, insertGroup, insertSku, siteIdFor } from '../../factories/product.ts'
import { startPaymentsHarness, type PaymentsHarness } from './harness.ts'

const US = '127.0.0.1'
let h: PaymentsHarness
let categoryId: number
let skuId: number
let n = 0

beforeAll(async () => {
  h = await startPaymentsHarness()
  const siteId = await siteIdFor(h.app.db, US)
  categoryId = (await insertCategory(h.app.db, { siteId })).id
  const groupId = (await insertGroup(h.app.db, { siteId, categoryId })).id
  skuId = (await insertSku(h.app.db, { siteId, groupId })).id
}, 180_000)
afterAll(async () => h?.close())

async function shopper(host = US) {
  const v = await new Visitor(h.app, host).start()
  const res = await v.post('/cart/add', {
    items: [{ listing_id: skuId, quantity: 2, category_id: categoryId }],
  })
  expect(res.statusCode).toBe(200)
  return { v, cart: res.json() as Cart }
}

function form(cart: Cart, reference?: string) {
  return {
    cart_id: cart.id,
    payment_method: 'paya',
    contact: {
      firstName: 'Pat',
      lastName: 'Paya',
      email: `paya${++n}@example.com`,
      phone: '312 555 0199',
      company: '',
    },
    shipping_address: {
      company: '',
      address1: '5800 NW 39th AVE',
      address2: '',
      town: 'Gainesville',
      county: 'FL',
      postcode: '32606',
      country: 'US',
    },
    showingBillingAddress: false,
    transactions: [
      {
        amount: cart.cart_total_price_inc_tax,
        paymentDetails: reference ? { reference } : {},
        paymentProvider: 'paya',
      },
    ],
    delivery_option: cart.shippingRates.find((r) => r.selected)?.id ?? 1,
  }
}

/** The hosted form for this basket, and what the shopper does in it (Paya's iframe). */
async function payOnForm(v: Visitor, cart: Cart, cvv = '999') {
  const res = await v.post('/checkout/paya/create-form', form(cart))
  expect(res.statusCode).toBe(200)
  const { reference, iframeUrl } = res.json() as { reference: string; iframeUrl: string }
  expect(new URL(iframeUrl).origin).toBe(h.sims.origin)
  const page = await (await fetch(iframeUrl)).text()
  const hash = /name="hash" value="([^"]+)"/.exec(page)![1]!
  const data = /name="data" value="([^"]+)"/.exec(page)![1]!
  const submit = await fetch(`${h.sims.origin}/paya/v2/payform/submit`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      hash,
      data,
      account_number: '4111111111111111',
      exp_date: '1230',
      cvv,
      billing_zip: '32606',
    }),
  })
  expect(submit.status).toBe(200)
  return reference
}

const ordersOf = (cartRef: string) => h.app.db.select().from(orders).where(eq(orders.cartRef, cartRef))

describe('paying by Paya at checkout (USD, Northgate)', () => {
  it('places the order once Paya confirms the hosted form payment by its transaction_api_id', async () => {
    const { v, cart } = await shopper()
    const reference = await payOnForm(v, cart)
    const res = await v.post('/checkout/complete', form(cart, reference))
    expect(res.statusCode).toBe(200)
    const order = (res.json() as { order: OrderData }).order
    expect(order.status).toBe('placed')
    expect(order.currency).toBe('USD')
    expect(order.transactions[0]).toMatchObject({
      paymentProvider: 'paya',
      amount: cart.cart_total_price_inc_tax,
    })
    expect(JSON.stringify(order)).not.toContain('4111111111111111')
  })

  it('answers a form not yet submitted with a message and no order', async () => {
    const { v, cart } = await shopper()
    const res = await v.post('/checkout/paya/create-form', form(cart))
    const { reference } = res.json() as { reference: string }
    const early = await v.post('/checkout/complete', form(cart, reference))
    expect(early.statusCode).toBe(402)
    expect(early.json()).toMatchObject({
      message: 'Please enter your card details in the card form and submit it.',
    })
    expect(await ordersOf(cart.id!)).toHaveLength(0)
  })

  it('declined twice, then approved: one order, one payment', async () => {
    const { v, cart } = await shopper()
    for (let i = 0; i < 2; i++) {
      // CVV 123 is Paya's "no match" test value: declined.
      const reference = await payOnForm(v, cart, '123')
      const declined = await v.post('/checkout/complete', form(cart, reference))
      expect(declined.statusCode).toBe(402)
      expect(declined.json()).toMatchObject({
        message: 'Your card was declined. Please check the details or try another card.',
      })
    }
    const reference = await payOnForm(v, cart)
    expect((await v.post('/checkout/complete', form(cart, reference))).statusCode).toBe(200)
    expect((await v.post('/checkout/complete', form(cart, reference))).statusCode).toBe(200)
    expect(await ordersOf(cart.id!)).toHaveLength(1)
    const states = (await h.app.payments.forOrder(`basket:${cart.id}`)).map((a) => a.state)
    expect(states).toEqual(['declined', 'declined', 'captured'])
  })

  it('changes nothing when Paya replays a postback for a paid order', async () => {
    const { v, cart } = await shopper()
    const reference = await payOnForm(v, cart)
    expect((await v.post('/checkout/complete', form(cart, reference))).statusCode).toBe(200)
    const [attempt] = await h.app.payments.forOrder(`basket:${cart.id}`)
    const [before] = await ordersOf(cart.id!)
    // The first postback is processed (Paya asked again); its replay is a duplicate.
    h.sims.paya.setPostback({
      url: `${h.shopOrigin}/payments/notify/paya`,
      user: 'sim-postback',
      password: 'sim-postback-password',
    })
    const id = attempt!.providerRefs.payaTransactionId!
    expect(await h.sims.paya.redeliver(id)).toBe(200)
    const once = await h.app.payments.get(attempt!.id)
    expect(await h.sims.paya.redeliver(id)).toBe(200)
    h.sims.paya.setPostback(null)
    const after = await h.app.payments.get(attempt!.id)
    expect(after?.state).toBe('captured')
    expect(after?.history).toEqual(once?.history)
    expect(after?.updatedAt).toEqual(once?.updatedAt)
    expect(await ordersOf(cart.id!)).toEqual([before])
  })
})
