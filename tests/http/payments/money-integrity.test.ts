/**
 * The money invariant of issue 29 (ADR 0118), one regression per defect found: an order exists
 * only for a basket re-priced on the server, with delivery quoted for its own shipping address,
 * and (but for the purchase order) a payment whose provider-confirmed amount and currency equal
 * that total. Otherwise nothing is ordered and money already taken is given back.
 */
import { eq, sql } from 'drizzle-orm'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { mailJobs, orders, sites } from '../../../src/server/db/schema.ts'
import { paymentAttempts } from '../../../src/server/modules/payments/payments.tables.ts'
import type { Cart } from '../../../src/shared/cart.ts'
import type { CheckoutPageProps } from '../../../src/shared/checkout.ts'
import { Visitor } from '../../helpers/visitor.ts'
import { brackets, insertCategory, insertGroup, insertSku, siteIdFor } from '../../factories/product.ts'
import { startPaymentsHarness, type PaymentsHarness } from './harness.ts'
import { payInPayaIframe } from './paid.ts'

let h: PaymentsHarness
let siteId: number
let usSiteId: number
let categoryId: number
let usCategoryId: number
/** £13.99 a unit: four reach TENOFF's £50 minimum spend, three do not */
let cheap: number
let other: number
let usSku: number

const methods = [
  { id: 'paypal', label: 'PayPal', img: '', detail: '' },
  { id: 'amazon', label: 'Amazon Pay', img: '', detail: '' },
  { id: 'purchase_order', label: 'Purchase Order', img: '', detail: '' },
]

beforeAll(async () => {
  h = await startPaymentsHarness()
  siteId = await siteIdFor(h.app.db)
  usSiteId = await siteIdFor(h.app.db, '127.0.0.1')
  categoryId = (await insertCategory(h.app.db, { siteId })).id
  const groupId = (await insertGroup(h.app.db, { siteId, categoryId })).id
  cheap = (await insertSku(h.app.db, { siteId, groupId, priceList: brackets(1399) })).id
  other = (await insertSku(h.app.db, { siteId, groupId, priceList: brackets(4500) })).id
  usCategoryId = (await insertCategory(h.app.db, { siteId: usSiteId })).id
  const usGroup = (await insertGroup(h.app.db, { siteId: usSiteId, categoryId: usCategoryId })).id
  usSku = (await insertSku(h.app.db, { siteId: usSiteId, groupId: usGroup })).id
  for (const id of [siteId, usSiteId])
    await h.app.db
      .update(sites)
      .set({
        settings: sql`${sites.settings} || ${JSON.stringify({
          paymentMethods:
            id === siteId
              ? methods
              : [methods[0], methods[2], { id: 'paya', label: 'Card', img: '', detail: '' }],
          purchaseOrderAccess: 'everyone',
        })}::jsonb`,
      })
      .where(eq(sites.id, id))
  h.app.sites.invalidate()
}, 60_000)
afterAll(() => h?.close())
afterEach(() => {
  vi.restoreAllMocks()
})

async function basket(items: [number, number][], host = 'localhost', category = categoryId) {
  const v = await new Visitor(h.app, host).start()
  let cart: Cart | null = null
  for (const [sku, quantity] of items) {
    const res = await v.post('/cart/add', { items: [{ listing_id: sku, quantity, category_id: category }] })
    expect(res.statusCode).toBe(200)
    cart = res.json() as Cart
  }
  return { v, cart: cart! }
}

const address = (postcode: string, country = 'GB', town = 'Anywhere') => ({
  company: '',
  address1: '1 Test Street',
  address2: '',
  town,
  county: '',
  postcode,
  country,
})

function form(
  cart: Cart,
  method: string,
  extra: Record<string, unknown> = {},
  paymentDetails: Record<string, unknown> = method === 'purchase_order' ? { PONumber: '' } : {},
) {
  return {
    cart_id: cart.id,
    payment_method: method,
    contact: {
      firstName: 'Pat',
      lastName: 'Payer',
      email: `pat${Math.random().toString(36).slice(2, 8)}@example.com`,
      phone: '01632 960 123',
      company: '',
    },
    shipping_address: address('BS1 4AA', 'GB', 'Bristol'),
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
    Notes: '',
    ...extra,
  }
}

async function ordersOf(cart: Cart) {
  return h.app.db
    .select()
    .from(orders)
    .where(eq(orders.cartRef, String(cart.id)))
}

async function attemptsOf(cart: Cart) {
  return h.app.db
    .select()
    .from(paymentAttempts)
    .where(eq(paymentAttempts.orderRef, `basket:${cart.id}`))
}

async function approvedPaypal(v: Visitor): Promise<string> {
  const created = await v.post('/checkout/paypal/create-order', {})
  expect(created.statusCode).toBe(200)
  const id = created.json().result.id as string
  h.sims.paypal.approve(id)
  return id
}

describe('defect 1: PayPal never records more than it captured', () => {
  it('refuses before capturing when a listed code no longer applies, and re-asks approval when the basket grew', async () => {
    const { v, cart: four } = await basket([[cheap, 4]])
    expect((await v.post('/cart/update-cart', { promotionCodes: ['TENOFF'] })).statusCode).toBe(200)
    const three = (
      await v.post('/cart/update-cart', { items: [{ id: four.items[0]!.id, quantity: 3 }] })
    ).json() as Cart
    const id = await approvedPaypal(v)
    const first = await v.post('/checkout/complete', form(three, 'paypal', { orderID: id }))
    expect(first.statusCode).toBe(409)
    // Nothing taken: the PayPal order was never captured.
    expect((await h.app.payments.adapters.paypal!.getOrder(id))!.purchase_units![0]!.payments).toBeUndefined()

    const grown = (
      await v.post('/cart/add', { items: [{ listing_id: other, quantity: 20, category_id: categoryId }] })
    ).json() as Cart
    const second = await v.post('/checkout/complete', form(grown, 'paypal', { orderID: id }))
    // PayPal asks the buyer to approve the higher amount: still nothing captured, nothing ordered.
    expect(second.statusCode).toBe(402)
    expect(second.json().status).toBe('paypalReApprovalRequired')
    expect(await ordersOf(grown)).toHaveLength(0)
    expect((await h.app.payments.adapters.paypal!.getOrder(id))!.purchase_units![0]!.payments).toBeUndefined()
  })

  it('gives back a capture whose answer was lost when the basket then grew, and orders nothing', async () => {
    const { v, cart } = await basket([[cheap, 3]])
    const id = await approvedPaypal(v)
    h.sims.faults.add({
      provider: 'paypal',
      match: `POST /v2/checkout/orders/${id}/capture`,
      kind: 'timeoutAfter',
    })
    const lost = await v.post('/checkout/complete', form(cart, 'paypal', { orderID: id }))
    expect(lost.statusCode).toBe(202)
    const captured = (await h.app.payments.adapters.paypal!.getOrder(id))!.purchase_units![0]!.payments!
      .captures![0]!
    expect(captured.status).toBe('COMPLETED')

    const grown = (
      await v.post('/cart/add', { items: [{ listing_id: other, quantity: 20, category_id: categoryId }] })
    ).json() as Cart
    const again = await v.post('/checkout/complete', form(grown, 'paypal', { orderID: id }))
    expect(again.statusCode).toBe(409)
    expect(again.json().message).toMatch(/has been cancelled and is being returned to you|will refund it/)
    expect(await ordersOf(grown)).toHaveLength(0)
    const [attempt] = await attemptsOf(grown)
    // PayPal confirmed what it took; it is not the basket's total, and no order may claim it.
    expect(attempt!.confirmedAmountMinor).toBe(cart.cart_total_price_inc_tax)
    expect(attempt!.confirmedAmountMinor).not.toBe(grown.cart_total_price_inc_tax)
    // PayPal refunded the whole capture, once.
    expect(attempt!.resolution).toBe('voided')
    expect(attempt!.providerRefs.paypalRefundId).toBeTruthy()
  })

  it('records a placed PayPal order at the amount PayPal confirmed', async () => {
    const { v, cart } = await basket([[cheap, 3]])
    const id = await approvedPaypal(v)
    const placed = await v.post('/checkout/complete', form(cart, 'paypal', { orderID: id }))
    expect(placed.statusCode).toBe(200)
    const [order] = await ordersOf(cart)
    const [attempt] = await attemptsOf(cart)
    expect(order!.totalIncVat).toBe(attempt!.confirmedAmountMinor)
    expect(order!.paymentAttemptId).toBe(attempt!.id)
    expect(attempt!.confirmedCurrency).toBe('GBP')
  })
})

describe('defect 2: Paya’s charged amount is compared with the basket', () => {
  it('orders nothing and gives the money back when Paya recorded 0.01 for the basket', async () => {
    const { v, cart } = await basket([[usSku, 2]], '127.0.0.1', usCategoryId)
    const body = form(cart, 'paya', { shipping_address: address('10001', 'US', 'New York') })
    const created = await v.post('/checkout/paya/create-form', body)
    expect(created.statusCode).toBe(200)
    const { reference, iframeUrl } = created.json() as { reference: string; iframeUrl: string }
    h.sims.paya.recordNextAmount('0.01')
    const submitted = await payInPayaIframe(h, iframeUrl)
    expect(submitted.status).toBe(200)
    const res = await v.post(
      '/checkout/complete',
      form(cart, 'paya', { shipping_address: address('10001', 'US', 'New York') }, { reference }),
    )
    expect(res.statusCode).toBe(409)
    expect(res.json().message).toContain('$0.01')
    expect(await ordersOf(cart)).toHaveLength(0)
    const [attempt] = await attemptsOf(cart)
    expect(attempt!.confirmedAmountMinor).toBe(1)
    expect(attempt!.resolution).toBe('voided')
  })
})

describe('defect 3: delivery follows the shipping address', () => {
  for (const [place, postcode, country, zone, price] of [
    ['Northern Ireland', 'BT1 1AA', 'GB', 'Northern Ireland', 1495],
    ['the Highlands', 'IV1 1AA', 'GB', 'Highlands and Islands', 1495],
    ['Dublin', 'D02 X285', 'IE', 'Ireland and Europe', 2495],
  ] as const) {
    it(`re-prices delivery for ${place} when the delivery step was skipped, then places it at that price`, async () => {
      const { v, cart } = await basket([[other, 1]])
      expect(cart.shippingZone).toBe('UK Mainland')
      const body = form(cart, 'purchase_order', { shipping_address: address(postcode, country) })
      const skipped = await v.post('/checkout/complete', body)
      expect(skipped.statusCode).toBe(409)
      const now = skipped.json().cart as Cart
      expect(now.shippingZone).toBe(zone)
      expect(now.cart_total_price_inc_tax).toBeGreaterThan(cart.cart_total_price_inc_tax)
      expect(await ordersOf(cart)).toHaveLength(0)

      const placed = await v.post(
        '/checkout/complete',
        form(now, 'purchase_order', { shipping_address: address(postcode, country) }),
      )
      expect(placed.statusCode).toBe(200)
      const [order] = await ordersOf(cart)
      expect(order!.shippingNet).toBe(price)
      expect(order!.totalIncVat).toBe(now.cart_total_price_inc_tax)
    })
  }
})

describe('defect 4: a country the site does not deliver to is neither offered nor ordered', () => {
  it('leaves the United Kingdom out of Northgate’s checkout countries', async () => {
    const { v } = await basket([[usSku, 1]], '127.0.0.1', usCategoryId)
    const page = await v.visit('/checkout')
    const props = page.json().props as CheckoutPageProps
    expect(props.countries.map((c) => c.code)).toContain('US')
    expect(props.countries.map((c) => c.code)).not.toContain('GB')
  })

  it('refuses a purchase order to the United Kingdom on Northgate with the country message', async () => {
    const { v, cart } = await basket([[usSku, 1]], '127.0.0.1', usCategoryId)
    const res = await v.post(
      '/checkout/complete',
      form(cart, 'purchase_order', { shipping_address: address('SW1A 1AA') }),
    )
    expect(res.statusCode).toBe(422)
    expect(res.json().errors['shipping_address.country']).toEqual(['We do not deliver to this country.'])
    expect(await ordersOf(cart)).toHaveLength(0)
  })
})

describe('PayPal on the USD site', () => {
  it('delivers to the PayPal buyer’s US address at a Contiguous US rate', async () => {
    const { v, cart } = await basket([[usSku, 1]], '127.0.0.1', usCategoryId)
    const id = await approvedPaypal(v)
    const info = (await v.request('GET', `/checkout/paypal/get-order-information?paypalOrderId=${id}`)).json()
    expect(info.shipping_address).toMatchObject({ country: 'US', postcode: '04101' })
    const placed = await v.post('/checkout/complete', form(cart, 'paypal', { orderID: id }))
    expect(placed.statusCode).toBe(200)
    const [order] = await ordersOf(cart)
    expect(order!.shippingAddress.country).toBe('US')
    expect(order!.currency).toBe('USD')
    const [attempt] = await attemptsOf(cart)
    expect(order!.totalIncVat).toBe(attempt!.confirmedAmountMinor)
  })
})

describe('defect 7: a pending payment moves its order on when it settles or fails', () => {
  async function signedIn(v: Visitor, card: string) {
    const res = await v.post('/checkout/amazon/create-amazon-session')
    const body = res.json()
    const sessionId = h.sims.amazon.buyerSignsIn(body.payloadJSON, body.signature, card)
    const review = new URL(JSON.parse(body.payloadJSON).webCheckoutDetails.checkoutReviewReturnUrl as string)
    const back = await v.request(
      'GET',
      `${review.pathname}${review.search}&amazonCheckoutSessionId=${sessionId}`,
    )
    expect(back.headers.location).toBe(`/checkout?amazonCheckoutSessionId=${sessionId}`)
    return sessionId
  }

  async function pendingAmazonOrder() {
    const { v, cart } = await basket([[other, 1]])
    const id = await signedIn(v, '0701')
    const submit = await v.post(
      '/checkout/complete',
      form(cart, 'amazon', {}, { amazonOrderData: { amazonCheckoutSessionId: id } }),
    )
    expect(submit.statusCode).toBe(200)
    const amazonPay = await fetch(submit.json().amazonPayRedirectUrl as string, { redirect: 'manual' })
    const result = new URL(amazonPay.headers.get('location')!)
    const done = await v.request('GET', `${result.pathname}${result.search}`)
    expect(done.headers.location).toMatch(/^\/checkout\/complete\/\d+$/)
    const [order] = await ordersOf(cart)
    expect(order!.status).toBe('pending_payment')
    const [attempt] = await attemptsOf(cart)
    expect(attempt!.state).toBe('pending')
    return { cart, order: order!, attempt: attempt! }
  }

  const jobsOf = async (orderId: number) =>
    (await h.app.db.select().from(mailJobs)).filter((j) => j.dedupeKey.startsWith(`order:${orderId}:`))

  it('places the order and queues its e-mails when the provider settles it for the order amount', async () => {
    const { order, attempt } = await pendingAmazonOrder()
    expect(await jobsOf(order.id)).toHaveLength(0)
    const adapter = h.app.payments.adapters.amazon!
    vi.spyOn(adapter, 'reconcile').mockResolvedValueOnce({
      status: 'captured',
      refs: attempt.providerRefs,
      confirmed: { amountMinor: order.totalIncVat, currency: 'GBP' },
    })
    await h.app.payments.reconcile(attempt.id)
    const [after] = await h.app.db.select().from(orders).where(eq(orders.id, order.id))
    expect(after!.status).toBe('placed')
    expect((await jobsOf(order.id)).map((j) => j.dedupeKey).sort()).toEqual(
      expect.arrayContaining([`order:${order.id}:acknowledgement`]),
    )
    // A replayed answer changes nothing more.
    const queued = (await jobsOf(order.id)).length
    await h.app.payments.record(attempt.id, 'notification:replayed', {
      status: 'captured',
      refs: attempt.providerRefs,
      confirmed: { amountMinor: order.totalIncVat, currency: 'GBP' },
    })
    expect(await jobsOf(order.id)).toHaveLength(queued)
    expect((await h.app.db.select().from(orders).where(eq(orders.id, order.id)))[0]!.status).toBe('placed')
  })

  it('fails the order and tells the shopper by e-mail when the provider declines it', async () => {
    const { order, attempt } = await pendingAmazonOrder()
    vi.spyOn(h.app.payments.adapters.amazon!, 'reconcile').mockResolvedValueOnce({
      status: 'declined',
      refs: attempt.providerRefs,
      code: 'amazon_Declined',
      message: 'Declined',
      retryWithNewInstrument: true,
    })
    await h.app.payments.reconcile(attempt.id)
    const [after] = await h.app.db.select().from(orders).where(eq(orders.id, order.id))
    expect(after!.status).toBe('payment_failed')
    const jobs = await jobsOf(order.id)
    expect(jobs.map((j) => j.dedupeKey)).toEqual([`order:${order.id}:payment-failed`])
    expect(JSON.stringify(jobs[0]!.message)).toContain('did not go through')
  })

  it('fails the order and gives the money back when the provider settles another amount', async () => {
    const { order, attempt } = await pendingAmazonOrder()
    vi.spyOn(h.app.payments.adapters.amazon!, 'reconcile').mockResolvedValueOnce({
      status: 'captured',
      refs: attempt.providerRefs,
      confirmed: { amountMinor: 1, currency: 'GBP' },
    })
    await h.app.payments.reconcile(attempt.id)
    const [after] = await h.app.db.select().from(orders).where(eq(orders.id, order.id))
    expect(after!.status).toBe('payment_failed')
    const [a] = await h.app.db.select().from(paymentAttempts).where(eq(paymentAttempts.id, attempt.id))
    expect(a!.resolution).toBe('voiding')
    expect(a!.reconcileAfter).not.toBeNull()
  })
})
