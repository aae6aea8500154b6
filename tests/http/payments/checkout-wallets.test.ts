/**
 * PayPal and Amazon Pay at checkout (ADR 0073, 0074) through app.inject against the simulators:
 * every route with bad input (422, nothing changed), another browser's ids (404), the payment
 * taken once however often Complete Order is sent, re-approval, and force_login only for an
 * account this checkout created.
 */
import { and, eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { customers, orders, sites } from '../../../src/server/db/schema.ts'
import { paymentAttempts } from '../../../src/server/modules/payments/payments.tables.ts'
import type { Cart } from '../../../src/shared/cart.ts'
import type { OrderData } from '../../../src/shared/checkout.ts'
import { Visitor } from '../../helpers/visitor.ts'
import { insertCategory, insertGroup, insertSku, siteIdFor } from '../../factories/product.ts'
import { startPaymentsHarness, type PaymentsHarness } from './harness.ts'

let h: PaymentsHarness
let siteId: number
let categoryId: number
let skuId: number

beforeAll(async () => {
  h = await startPaymentsHarness()
  siteId = await siteIdFor(h.app.db)
  categoryId = (await insertCategory(h.app.db, { siteId })).id
  const groupId = (await insertGroup(h.app.db, { siteId, categoryId })).id
  skuId = (await insertSku(h.app.db, { siteId, groupId })).id
  const methods = [
    { id: 'paypal', label: 'PayPal', img: '', detail: '' },
    { id: 'amazon', label: 'Amazon Pay', img: '', detail: '' },
    { id: 'purchase_order', label: 'Purchase Order', img: '', detail: '' },
  ]
  await h.app.db
    .update(sites)
    .set({ settings: sql`${sites.settings} || ${JSON.stringify({ paymentMethods: methods })}::jsonb` })
    .where(eq(sites.id, siteId))
  h.app.sites.invalidate()
}, 60_000)
afterAll(() => h?.close())

async function shopper(quantity = 2) {
  const v = await new Visitor(h.app).start()
  const res = await v.post('/cart/add', { items: [{ listing_id: skuId, quantity, category_id: categoryId }] })
  expect(res.statusCode).toBe(200)
  return { v, cart: res.json() as Cart }
}

function walletForm(cart: Cart, method: 'paypal' | 'amazon', paymentDetails: Record<string, unknown>) {
  return {
    cart_id: cart.id,
    payment_method: method,
    // What a browser might send: ignored for PayPal and Amazon (the provider's details count).
    contact: { firstName: 'Mallory', lastName: 'X', email: 'victim@example.com', phone: '01632 960 999' },
    shipping_address: { address1: 'Elsewhere', town: 'Nowhere', postcode: 'X1', country: 'GB' },
    showingBillingAddress: false,
    transactions: [
      {
        amount: cart.cart_total_price_inc_tax,
        paymentDetails,
        paymentProvider: method,
        message: '',
        authCode: 'empty',
      },
    ],
    delivery_option: cart.shippingRates.find((r) => r.selected)?.id,
    Notes: 'By the gate',
  }
}

async function count(table: typeof orders | typeof paymentAttempts) {
  const [r] = await h.app.db.select({ n: sql<number>`count(*)::int` }).from(table)
  return r!.n
}

async function createApprovedPaypalOrder(v: Visitor): Promise<string> {
  const created = await v.post('/checkout/paypal/create-order', {})
  expect(created.statusCode).toBe(200)
  const id = created.json().result.id as string
  h.sims.paypal.approve(id)
  return id
}

describe('PayPal at checkout', () => {
  it('creates a PayPal order for the basket total and remembers it for this browser only', async () => {
    const { v, cart } = await shopper()
    const res = await v.post('/checkout/paypal/create-order', { reApproval: false })
    expect(res.statusCode).toBe(200)
    const id = res.json().result.id as string
    const order = await h.app.payments.adapters.paypal!.getOrder(id)
    expect(order!.purchase_units![0]!.amount!.value).toBe((cart.cart_total_price_inc_tax / 100).toFixed(2))
    const [attempt] = await h.app.db
      .select()
      .from(paymentAttempts)
      .where(sql`${paymentAttempts.providerRefs} @> ${JSON.stringify({ paypalOrderId: id })}::jsonb`)
    expect(attempt).toMatchObject({
      method: 'paypal',
      state: 'created',
      amountMinor: cart.cart_total_price_inc_tax,
    })

    // Another browser cannot read or use it.
    const { v: other } = await shopper()
    h.sims.paypal.approve(id)
    const info = await other.request('GET', `/checkout/paypal/get-order-information?paypalOrderId=${id}`)
    expect(info.statusCode).toBe(404)
    const upd = await other.post('/checkout/paypal/update-shipping-options', {
      data: { orderID: id, selectedShippingOption: { id: String(cart.shippingRates[0]!.id) } },
    })
    expect(upd.statusCode).toBe(404)
  })

  it('refuses bad input with 422 and changes nothing', async () => {
    const { v, cart } = await shopper()
    const before = await count(paymentAttempts)
    expect((await v.post('/checkout/paypal/create-order', { reApproval: 'maybe' })).statusCode).toBe(422)
    expect(await count(paymentAttempts)).toBe(before)
    const info = await v.request('GET', '/checkout/paypal/get-order-information?paypalOrderId=%3Cscript%3E')
    expect(info.statusCode).toBe(422)
    expect(info.json().message).toBe(
      'Error getting address information from PayPal. Payment has not been taken. Please click on the PayPal button and try again.',
    )
    const upd = await v.post('/checkout/paypal/update-shipping-options', {
      data: { orderID: 'ABCDEFG', selectedShippingOption: { id: 'x' } },
    })
    expect(upd.statusCode).toBe(422)
    expect(upd.json().message).toBe(
      'Error updating shipping options. Please click on the PayPal button and try again.',
    )
    const noData = await v.post('/checkout/paypal/update-shipping-options', {})
    expect(noData.statusCode).toBe(422)
    // Complete Order without an order id, or with details a browser made up.
    const ordersBefore = await count(orders)
    const missing = await v.post('/checkout/complete', walletForm(cart, 'paypal', {}))
    expect(missing.statusCode).toBe(422)
    expect(missing.json().errors.orderID).toBeDefined()
    const forged = await v.post(
      '/checkout/complete',
      walletForm(cart, 'paypal', { orderID: 'NOTMINE123', attemptState: 'captured', attemptId: 'x' }),
    )
    expect(forged.statusCode).toBe(404)
    expect(await count(orders)).toBe(ordersBefore)
    // A delivery option that is not one of the basket's: refused, the basket unchanged.
    const id = (await v.post('/checkout/paypal/create-order', {})).json().result.id as string
    const unknownRate = await v.post('/checkout/paypal/update-shipping-options', {
      data: { orderID: id, selectedShippingOption: { id: '999999' } },
    })
    expect(unknownRate.statusCode).toBe(422)
    const after = (await v.post('/cart/init')).json() as Cart
    expect(after.cart_total_price_inc_tax).toBe(cart.cart_total_price_inc_tax)
    expect((await v.request('GET', '/checkout/paypal/get-order-information')).statusCode).toBe(422)
    // An empty basket has no PayPal order.
    const empty = await new Visitor(h.app).start()
    const none = await empty.post('/checkout/paypal/create-order', {})
    expect(none.statusCode).toBe(422)
    expect(none.json().redirect).toBe('/cart')
  })

  it('imports the buyer read-only, captures once and places one order however often Complete Order is sent', async () => {
    const { v, cart } = await shopper()
    const id = await createApprovedPaypalOrder(v)
    const info = await v.request('GET', `/checkout/paypal/get-order-information?paypalOrderId=${id}`)
    expect(info.statusCode).toBe(200)
    expect(info.json()).toMatchObject({
      orderID: id,
      status: 'APPROVED',
      contact: { firstName: 'Sam', lastName: 'Buyer', email: 'sb-buyer@example.com' },
      shipping_address: { address1: '1 Harbour Street', town: 'Bristol', postcode: 'BS1 4AA', country: 'GB' },
      delivery_option: cart.shippingRates.find((r) => r.selected)!.id,
    })
    const body = walletForm(cart, 'paypal', { orderID: id, reApprovalRequired: false })
    const [first, second] = await Promise.all([
      v.post('/checkout/complete', body),
      v.post('/checkout/complete', body),
    ])
    const ok = [first, second].filter((r) => r.statusCode === 200)
    expect(ok.length).toBeGreaterThanOrEqual(1)
    const third = await v.post('/checkout/complete', body)
    expect(third.statusCode).toBe(200)
    const order = third.json().order as OrderData
    expect(ok.every((r) => (r.json().order as OrderData).OrderNumber === order.OrderNumber)).toBe(true)
    expect(order).toMatchObject({
      status: 'placed',
      contactDetails: { first_name: 'Sam', last_name: 'Buyer', email: 'sb-buyer@example.com' },
      shippingAddress: { address1: '1 Harbour Street', postcode: 'BS1 4AA' },
      Notes: 'By the gate',
    })
    expect(order.transactions[0]).toMatchObject({
      paymentProvider: 'paypal',
      amount: cart.cart_total_price_inc_tax,
      paymentDetails: { orderID: id, reApprovalRequired: false },
    })
    const rows = await h.app.db
      .select()
      .from(orders)
      .where(eq(orders.cartRef, String(cart.id)))
    expect(rows).toHaveLength(1)
    // One capture at PayPal, one captured attempt.
    const paypal = await h.app.payments.adapters.paypal!.getOrder(id)
    expect(paypal!.status).toBe('COMPLETED')
    expect(paypal!.purchase_units![0]!.payments!.captures).toHaveLength(1)
    const attempts = await h.app.db
      .select()
      .from(paymentAttempts)
      .where(eq(paymentAttempts.orderRef, `basket:${cart.id}`))
    expect(attempts.filter((a) => a.state === 'captured')).toHaveLength(1)
  })

  it('asks the buyer to approve again when the total grew after approval, then takes the new total', async () => {
    const { v, cart } = await shopper()
    const dearer = [...cart.shippingRates].filter((r) => !r.selected).sort((a, b) => b.price - a.price)[0]
    expect(dearer, 'the demo zone has more than one delivery option').toBeDefined()
    const id = await createApprovedPaypalOrder(v)
    // Step 3: a dearer delivery option; the PayPal order's amount follows.
    const upd = await v.post('/checkout/paypal/update-shipping-options', {
      data: { orderID: id, selectedShippingOption: { id: String(dearer!.id) } },
    })
    expect(upd.statusCode).toBe(200)
    const now = upd.json().cart as Cart
    expect(now.cart_total_price_inc_tax).toBeGreaterThan(cart.cart_total_price_inc_tax)
    const ordersBefore = await count(orders)
    const first = await v.post('/checkout/complete', walletForm(now, 'paypal', { orderID: id }))
    expect(first.statusCode).toBe(402)
    expect(first.json()).toMatchObject({ status: 'paypalReApprovalRequired', reApprovalRequired: true })
    expect(await count(orders)).toBe(ordersBefore)

    const again = await v.post('/checkout/paypal/create-order', { reApproval: true })
    expect(again.statusCode).toBe(200)
    const newId = again.json().result.id as string
    expect(newId).not.toBe(id)
    h.sims.paypal.approve(newId)
    const placed = await v.post(
      '/checkout/complete',
      walletForm(now, 'paypal', { orderID: newId, reApprovalRequired: true }),
    )
    expect(placed.statusCode).toBe(200)
    const order = placed.json().order as OrderData
    expect(order.transactions[0]).toMatchObject({
      amount: now.cart_total_price_inc_tax,
      paymentDetails: { orderID: newId, reApprovalRequired: true },
    })
    // The first PayPal order was never captured.
    const old = await h.app.payments.adapters.paypal!.getOrder(id)
    expect(old!.purchase_units![0]!.payments).toBeUndefined()
  })

  it('a capture whose answer was lost is unknown (202), and the retried Complete Order makes one capture and one order', async () => {
    const { v, cart } = await shopper()
    const id = await createApprovedPaypalOrder(v)
    h.sims.faults.add({
      provider: 'paypal',
      match: `POST /v2/checkout/orders/${id}/capture`,
      kind: 'timeoutAfter',
    })
    // §7: orderID may come as a top-level field of /checkout/complete.
    const body = { ...walletForm(cart, 'paypal', {}), orderID: id }
    const lost = await v.post('/checkout/complete', body)
    expect(lost.statusCode).toBe(202)
    expect(lost.json().status).toBe('paymentUnknown')
    expect(
      (
        await h.app.db
          .select()
          .from(orders)
          .where(eq(orders.cartRef, String(cart.id)))
      ).length,
    ).toBe(0)
    const retried = await v.post('/checkout/complete', body)
    expect(retried.statusCode).toBe(200)
    expect((retried.json().order as OrderData).status).toBe('placed')
    const paypal = await h.app.payments.adapters.paypal!.getOrder(id)
    expect(paypal!.purchase_units![0]!.payments!.captures).toHaveLength(1)
    expect(
      (
        await h.app.db
          .select()
          .from(orders)
          .where(eq(orders.cartRef, String(cart.id)))
      ).length,
    ).toBe(1)
  })

  it('caps the payment attempts of one basket', async () => {
    const { v, cart } = await shopper()
    for (let i = 0; i < 30; i++) {
      const attempt = await h.app.payments.createAttempt({
        siteId,
        orderRef: `basket:${cart.id}`,
        method: 'paypal',
        amountMinor: cart.cart_total_price_inc_tax,
        currency: 'GBP',
      })
      // Each one declined, as a shopper trying again and again would leave them.
      await h.app.db
        .update(paymentAttempts)
        .set({ state: 'declined' })
        .where(eq(paymentAttempts.id, attempt.id))
    }
    const res = await v.post('/checkout/paypal/create-order', {})
    expect(res.statusCode).toBe(429)
    expect(res.json().message).toBe(
      'Too many payment attempts for this basket. Please try again later or choose another payment method.',
    )
  })

  it('answers 409 before taking any money when the basket changed after approval', async () => {
    const { v, cart } = await shopper()
    const id = await createApprovedPaypalOrder(v)
    const item = cart.items[0]!
    await v.post('/cart/update-cart', { items: [{ id: item.id, quantity: 5 }] })
    const res = await v.post('/checkout/complete', walletForm(cart, 'paypal', { orderID: id }))
    expect(res.statusCode).toBe(409)
    const paypal = await h.app.payments.adapters.paypal!.getOrder(id)
    expect(paypal!.status).toBe('APPROVED')
  })

  it('logs in only an account this checkout created, never an existing one with the same e-mail', async () => {
    // An existing account holds the address PayPal will return.
    await h.app.db
      .delete(customers)
      .where(and(eq(customers.siteId, siteId), eq(customers.email, 'sb-buyer@example.com')))
    const first = await shopper()
    const id1 = await createApprovedPaypalOrder(first.v)
    const res1 = await first.v.post('/checkout/complete', walletForm(first.cart, 'paypal', { orderID: id1 }))
    expect(res1.statusCode).toBe(200)
    expect(res1.json()).toMatchObject({ force_login: true, create_password: true, force_logout: false })
    const me = await first.v.request('GET', '/customer/data')
    expect(me.statusCode).toBe(200)
    expect(me.json().user).toBeTruthy()

    const second = await shopper()
    const id2 = await createApprovedPaypalOrder(second.v)
    const res2 = await second.v.post(
      '/checkout/complete',
      walletForm(second.cart, 'paypal', { orderID: id2 }),
    )
    expect(res2.statusCode).toBe(200)
    expect(res2.json().force_login).toBeUndefined()
    expect(res2.json().force_logout).toBe(true)
    const notMe = await second.v.request('GET', '/customer/data')
    expect(notMe.statusCode).not.toBe(200)
    // Both orders belong to the one account; the second browser was not let in.
    const rows = await h.app.db
      .select({ customerId: orders.customerId })
      .from(orders)
      .where(sql`${orders.cartRef} in (${first.cart.id}, ${second.cart.id})`)
    expect(new Set(rows.map((r) => r.customerId)).size).toBe(1)
  })

  it('tells the shopper to choose another funding source when PayPal declines, and captures with a new request next time', async () => {
    const { v, cart } = await shopper()
    const created = await v.post('/checkout/paypal/create-order', {})
    const id = created.json().result.id as string
    // The buyer picks the card that declines on PayPal's page.
    const page = await fetch(`${h.sims.origin}/paypal/checkoutnow/answer`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: id, answer: 'decline' }).toString(),
    })
    expect(page.status).toBe(200)
    const declined = await v.post('/checkout/complete', walletForm(cart, 'paypal', { orderID: id }))
    expect(declined.statusCode).toBe(402)
    expect(declined.json().status).toBe('paypalRestart')
    h.sims.paypal.approve(id)
    const placed = await v.post('/checkout/complete', walletForm(cart, 'paypal', { orderID: id }))
    expect(placed.statusCode).toBe(200)
    expect((placed.json().order as OrderData).status).toBe('placed')
  })
})

describe('Amazon Pay at checkout', () => {
  async function signedIn(v: Visitor, card = '1111') {
    const res = await v.post('/checkout/amazon/create-amazon-session')
    expect(res.statusCode).toBe(200)
    const body = res.json()
    const sessionId = h.sims.amazon.buyerSignsIn(body.payloadJSON, body.signature, card)
    const review = JSON.parse(body.payloadJSON).webCheckoutDetails.checkoutReviewReturnUrl as string
    const back = await v.request(
      'GET',
      `${new URL(review).pathname}${new URL(review).search}&amazonCheckoutSessionId=${sessionId}`,
    )
    expect(back.statusCode).toBe(302)
    expect(back.headers.location).toBe(`/checkout?amazonCheckoutSessionId=${sessionId}`)
    return sessionId
  }

  it('signs the button payload: merchantId, publicKeyId, signature, payloadJSON; GBP, en_GB, PayAndShip', async () => {
    const { v } = await shopper()
    const res = await v.post('/checkout/amazon/create-amazon-session')
    expect(res.statusCode).toBe(200)
    const body = res.json()
    expect(body).toMatchObject({
      ledgerCurrency: 'GBP',
      checkoutLanguage: 'en_GB',
      productType: 'PayAndShip',
      algorithm: 'AMZN-PAY-RSASSA-PSS-V2',
    })
    for (const k of ['merchantId', 'publicKeyId', 'signature', 'payloadJSON'])
      expect(typeof body[k]).toBe('string')
    expect(JSON.parse(body.payloadJSON).webCheckoutDetails.checkoutReviewReturnUrl).toMatch(
      /\/checkout\/amazon\/review\?state=[\w-]{20,}$/,
    )
  })

  it('binds the session only to the browser that started it', async () => {
    const { v } = await shopper()
    const id = await signedIn(v)
    const { v: other } = await shopper()
    expect(
      (await other.request('GET', `/checkout/amazon/get-session-information?amazonCheckoutSessionId=${id}`))
        .statusCode,
    ).toBe(404)
    expect(
      (await other.post('/checkout/amazon/delivery-viewed', { amazonCheckoutSessionId: id })).statusCode,
    ).toBe(404)
    // A review return with a wrong state binds nothing.
    await other.post('/checkout/amazon/create-amazon-session')
    const forged = await other.request(
      'GET',
      `/checkout/amazon/review?state=guess&amazonCheckoutSessionId=${id}`,
    )
    expect(forged.headers.location).toBe('/checkout')
    expect(
      (await other.request('GET', `/checkout/amazon/get-session-information?amazonCheckoutSessionId=${id}`))
        .statusCode,
    ).toBe(404)
    // No basket, no Amazon session.
    const empty = await new Visitor(h.app).start()
    const none = await empty.post('/checkout/amazon/create-amazon-session')
    expect(none.statusCode).toBe(422)
    expect(none.json().redirect).toBe('/cart')
    // Bad ids are 422.
    expect(
      (await v.post('/checkout/amazon/delivery-viewed', { amazonCheckoutSessionId: '<x>' })).statusCode,
    ).toBe(422)
    expect((await v.request('GET', '/checkout/amazon/get-session-information')).statusCode).toBe(422)
  })

  it('reviews, pays on Amazon, completes the checkout session and places one order', async () => {
    const { v, cart } = await shopper()
    const id = await signedIn(v)
    const info = await v.request(
      'GET',
      `/checkout/amazon/get-session-information?amazonCheckoutSessionId=${id}`,
    )
    expect(info.statusCode).toBe(200)
    expect(info.json()).toMatchObject({
      amazonOrderData: {
        amazonCheckoutSessionId: id,
        paymentDescriptor: 'Visa ****1111',
        hasViewedDeliveryOptions: false,
      },
      contact: { firstName: 'Sam', lastName: 'Buyer', email: 'sam.buyer@example.com', phone: '07700900123' },
      shipping_address: { address1: '1 Harbour Street', town: 'Bristol', country: 'GB' },
    })
    const viewed = await v.post('/checkout/amazon/delivery-viewed', { amazonCheckoutSessionId: id })
    expect(viewed.json()).toEqual({ hasViewedDeliveryOptions: true })
    const again = await v.request(
      'GET',
      `/checkout/amazon/get-session-information?amazonCheckoutSessionId=${id}`,
    )
    expect(again.json().amazonOrderData.hasViewedDeliveryOptions).toBe(true)

    const ordersBefore = await count(orders)
    const submit = await v.post(
      '/checkout/complete',
      walletForm(cart, 'amazon', {
        amazonOrderData: {
          amazonCheckoutSessionId: id,
          paymentDescriptor: 'Visa ****1111',
          hasViewedDeliveryOptions: true,
        },
      }),
    )
    expect(submit.statusCode).toBe(200)
    expect(submit.json()).toMatchObject({ status: 'amazonRedirect' })
    expect(submit.json().redirect).toBeUndefined()
    expect(await count(orders)).toBe(ordersBefore)
    // Amazon's pay page sends the browser to the result return.
    const amazonPay = await fetch(submit.json().amazonPayRedirectUrl as string, { redirect: 'manual' })
    expect(amazonPay.status).toBe(302)
    const result = new URL(amazonPay.headers.get('location')!)
    const done = await v.request('GET', `${result.pathname}${result.search}`)
    expect(done.statusCode).toBe(302)
    expect(done.headers.location).toMatch(/^\/checkout\/complete\/\d+$/)
    // A reload of the result return places nothing more.
    const reload = await v.request('GET', `${result.pathname}${result.search}`)
    expect(reload.headers.location).toBe(done.headers.location)
    const rows = await h.app.db
      .select()
      .from(orders)
      .where(eq(orders.cartRef, String(cart.id)))
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({
      status: 'placed',
      paymentMethod: 'amazon',
      totalIncVat: cart.cart_total_price_inc_tax,
    })
    const attempts = await h.app.db
      .select()
      .from(paymentAttempts)
      .where(eq(paymentAttempts.orderRef, `basket:${cart.id}`))
    expect(attempts.map((a) => a.state)).toEqual(['captured'])
  })

  it('sends the shopper back to checkout with a message when Amazon declines, with no order', async () => {
    const { v, cart } = await shopper()
    const id = await signedIn(v, '3434')
    const submit = await v.post(
      '/checkout/complete',
      walletForm(cart, 'amazon', { amazonOrderData: { amazonCheckoutSessionId: id } }),
    )
    expect(submit.statusCode).toBe(200)
    const amazonPay = await fetch(submit.json().amazonPayRedirectUrl as string, { redirect: 'manual' })
    const result = new URL(amazonPay.headers.get('location')!)
    const back = await v.request('GET', `${result.pathname}${result.search}`)
    expect(back.statusCode).toBe(302)
    expect(back.headers.location).toBe('/checkout')
    const rows = await h.app.db
      .select()
      .from(orders)
      .where(eq(orders.cartRef, String(cart.id)))
    expect(rows).toHaveLength(0)
  })
})
