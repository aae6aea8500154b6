/**
 * A paid attempt whose browser never came back (ADR 0071 "Paid but not ordered"): after the
 * grace period the payments-reconcile job places the order from the basket and the order form
 * kept with the attempt, exactly once (the browser coming back at the same moment, or a second
 * instance's pass, makes no second order), or, when the basket changed, gives the money back
 * (Opayo: void; PayPal: a refund of the capture, ADR 0130).
 */
import { eq, like, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { orders, sites } from '../../../src/server/db/schema.ts'
import { mailJobs } from '../../../src/server/modules/mail/mail.tables.ts'
import { UNCLAIMED_PAYMENT_GRACE_MS } from '../../../src/server/modules/payments/payments.service.ts'
import { paymentAttempts } from '../../../src/server/modules/payments/payments.tables.ts'
import type { Cart } from '../../../src/shared/cart.ts'
import type { OrderData } from '../../../src/shared/checkout.ts'
import { Visitor } from '../../helpers/visitor.ts'
import { insertCategory, insertGroup, insertSku, siteIdFor } from '../../factories/product.ts'
import { startPaymentsHarness, type PaymentsHarness } from './harness.ts'

const APPROVE = '4929000000006'

let h: PaymentsHarness
let categoryId: number
let skuId: number
let n = 0

beforeAll(async () => {
  h = await startPaymentsHarness()
  const siteId = await siteIdFor(h.app.db)
  categoryId = (await insertCategory(h.app.db, { siteId })).id
  const groupId = (await insertGroup(h.app.db, { siteId, categoryId })).id
  skuId = (await insertSku(h.app.db, { siteId, groupId })).id
  const methods = [
    { id: 'sagepay', label: 'Card', img: '', detail: '' },
    { id: 'paypal', label: 'PayPal', img: '', detail: '' },
    { id: 'purchase_order', label: 'Purchase Order', img: '', detail: '' },
  ]
  await h.app.db
    .update(sites)
    .set({ settings: sql`${sites.settings} || ${JSON.stringify({ paymentMethods: methods })}::jsonb` })
    .where(eq(sites.id, siteId))
  h.app.sites.invalidate()
}, 180_000)
afterAll(async () => h?.close())

async function shopper() {
  const v = await new Visitor(h.app).start()
  const res = await v.post('/cart/add', {
    items: [{ listing_id: skuId, quantity: 2, category_id: categoryId }],
  })
  expect(res.statusCode).toBe(200)
  return { v, cart: res.json() as Cart }
}

function cardForm(cart: Cart) {
  return {
    cart_id: cart.id,
    payment_method: 'sagepay',
    contact: {
      firstName: 'Lena',
      lastName: 'Left',
      email: `left${++n}@example.com`,
      phone: '01632 960 903',
      company: '',
    },
    shipping_address: {
      company: '',
      address1: '9 Quay Street',
      address2: '',
      town: 'Bristol',
      county: '',
      postcode: 'BS1 4AA',
      country: 'GB',
    },
    showingBillingAddress: false,
    transactions: [{ amount: cart.cart_total_price_inc_tax, paymentDetails: {}, paymentProvider: 'sagepay' }],
    delivery_option: cart.shippingRates.find((r) => r.selected)?.id ?? 1,
    challengeWindowSize: 'Medium',
    Notes: 'Left at the ACS',
  }
}

/** The pre-order and the drop-in's card identifier for a card that asks for 3-D Secure. */
async function challengeCard(v: Visitor, body: Record<string, unknown>) {
  const res = await v.post('/checkout/sagepay/create-preorder-and-sagepay-session', body)
  expect(res.statusCode).toBe(200)
  const { merchantSessionKey } = res.json() as { merchantSessionKey: string }
  const tok = await fetch(`${h.providers.sagepay!.baseUrl}/card-identifiers`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${merchantSessionKey}` },
    body: JSON.stringify({
      cardDetails: {
        cardholderName: 'CHALLENGE',
        cardNumber: APPROVE,
        expiryDate: '1230',
        securityCode: '123',
      },
    }),
  })
  expect(tok.status).toBe(201)
  const { cardIdentifier } = (await tok.json()) as { cardIdentifier: string }
  return { card_identifier: cardIdentifier, sagePayMerchantSessionKey: merchantSessionKey }
}

function cres(creq: string) {
  const { acsTransID } = JSON.parse(Buffer.from(creq, 'base64url').toString('utf8')) as { acsTransID: string }
  return Buffer.from(
    JSON.stringify({ messageType: 'CRes', messageVersion: '2.1.0', acsTransID, transStatus: 'Y' }),
  ).toString('base64url')
}

const ordersOf = (cartRef: string) => h.app.db.select().from(orders).where(eq(orders.cartRef, cartRef))
const attemptsOf = (cartRef: string) => h.app.payments.forOrder(`basket:${cartRef}`)

/** The clock moves on: every attempt of the basket is due for the reconciler now. */
const graceOver = (cartRef: string) =>
  h.app.db
    .update(paymentAttempts)
    .set({ reconcileAfter: new Date(Date.now() - 1000) })
    .where(eq(paymentAttempts.orderRef, `basket:${cartRef}`))

/**
 * Card with 3-D Secure: the answer to the challenge result is lost after Opayo took the money;
 * the reconciler learns it is captured; the shopper has closed the tab. Returns the body the
 * browser would post again.
 */
async function paidByCardThenLeft() {
  const { v, cart } = await shopper()
  const body = cardForm(cart)
  const first = await v.post('/checkout/complete', { ...body, ...(await challengeCard(v, body)) })
  expect(first.statusCode).toBe(402)
  const { fields } = first.json() as { fields: { creq: string; threeDSSessionData: string } }
  const result = {
    ...body,
    threeDSSessionData: fields.threeDSSessionData,
    aCSResponse: cres(fields.creq),
    threeDSVersion: '2',
  }
  h.sims.faults.add({ provider: 'opayo', match: 'POST /transactions/', kind: 'timeoutAfter' })
  expect((await v.post('/checkout/complete', result)).statusCode).toBe(202)
  await graceOver(cart.id!)
  await h.app.jobs.runNow('payments-reconcile')
  const [attempt] = await attemptsOf(cart.id!)
  expect(attempt?.state).toBe('captured')
  expect(await ordersOf(cart.id!)).toHaveLength(0)
  return { v, cart, result, attempt: attempt! }
}

describe('a card payment whose shopper left after Opayo took the money', () => {
  it('waits for the grace period, then the job places exactly one order and queues its e-mails', async () => {
    const { v, cart, result, attempt } = await paidByCardThenLeft()
    // Captured with the checked order form kept, due only when the grace period is over.
    expect(attempt.checkout?.form).toMatchObject({ cart_id: cart.id, Notes: 'Left at the ACS' })
    expect(JSON.stringify(attempt.checkout)).not.toContain('card_identifier')
    const wait = attempt.reconcileAfter!.getTime() - Date.now()
    expect(wait).toBeGreaterThan(UNCLAIMED_PAYMENT_GRACE_MS - 60_000)
    expect(wait).toBeLessThanOrEqual(UNCLAIMED_PAYMENT_GRACE_MS)
    await h.app.jobs.runNow('payments-reconcile')
    expect(await ordersOf(cart.id!)).toHaveLength(0)

    await graceOver(cart.id!)
    await h.app.jobs.runNow('payments-reconcile')
    const placed = await ordersOf(cart.id!)
    expect(placed).toHaveLength(1)
    expect(placed[0]).toMatchObject({
      status: 'placed',
      paymentMethod: 'sagepay',
      totalIncVat: cart.cart_total_price_inc_tax,
      notes: 'Left at the ACS',
    })
    expect(placed[0]!.contact).toMatchObject({
      first_name: 'Lena',
      email: attempt.checkout!.form.contact && (attempt.checkout!.form.contact as { email: string }).email,
    })
    const mails = await h.app.db
      .select({ key: mailJobs.dedupeKey })
      .from(mailJobs)
      .where(like(mailJobs.dedupeKey, `order:${placed[0]!.id}:%`))
    expect(mails.map((m) => m.key)).toContain(`order:${placed[0]!.id}:acknowledgement`)
    const [after] = await attemptsOf(cart.id!)
    expect(after).toMatchObject({
      state: 'captured',
      resolution: 'order_placed',
      reconcileAfter: null,
      checkout: null,
    })

    // Another pass, and the shopper coming back later, change nothing.
    await graceOver(cart.id!)
    await h.app.jobs.runNow('payments-reconcile')
    const back = await v.post('/checkout/complete', result)
    expect(back.statusCode).toBe(200)
    expect((back.json() as { order: OrderData }).order.OrderNumber).toBe(placed[0]!.orderNumber)
    expect(await ordersOf(cart.id!)).toHaveLength(1)
  })

  it('makes one order when the shopper comes back at the moment the job (on two instances) places it', async () => {
    const { v, cart, result } = await paidByCardThenLeft()
    await graceOver(cart.id!)
    const [browser] = await Promise.all([
      v.post('/checkout/complete', result),
      h.app.payments.reconcileDue(),
      h.app.payments.reconcileDue(),
    ])
    expect(browser.statusCode).toBe(200)
    const placed = await ordersOf(cart.id!)
    expect(placed).toHaveLength(1)
    expect((browser.json() as { order: OrderData }).order.OrderNumber).toBe(placed[0]!.orderNumber)
    const attempts = await attemptsOf(cart.id!)
    expect(attempts.map((a) => [a.state, a.resolution])).toEqual([['captured', 'order_placed']])
  })

  it('voids the payment and places no order when the basket changed after the money was taken', async () => {
    const { v, cart, result } = await paidByCardThenLeft()
    // The shopper added something in another tab: the kept form's total is no longer the basket's.
    const more = await v.post('/cart/add', {
      items: [{ listing_id: skuId, quantity: 1, category_id: categoryId }],
    })
    expect(more.statusCode).toBe(200)
    await graceOver(cart.id!)
    await h.app.jobs.runNow('payments-reconcile')
    expect(await ordersOf(cart.id!)).toHaveLength(0)
    const [attempt] = await attemptsOf(cart.id!)
    expect(attempt).toMatchObject({ state: 'voided', resolution: 'voided', reconcileAfter: null })
    expect(attempt!.resolutionNote).toContain('order not placed')
    // Opayo refuses a second void: the first one was recorded there.
    const again = await h.app.payments.adapters.sagepay!.void({
      ...attempt!,
      refs: attempt!.providerRefs,
      pendingRequest: null,
    })
    expect(again.ok).toBe(false)
    // The old page coming back cannot use the voided payment.
    const back = await v.post('/checkout/complete', result)
    expect(back.statusCode).toBe(409)
    expect(await ordersOf(cart.id!)).toHaveLength(0)
  })
})

describe('a PayPal payment whose capture answer was lost and whose shopper left', () => {
  async function capturedThenLeft() {
    const { v, cart } = await shopper()
    const created = await v.post('/checkout/paypal/create-order', {})
    expect(created.statusCode).toBe(200)
    const id = created.json().result.id as string
    h.sims.paypal.approve(id)
    h.sims.faults.add({
      provider: 'paypal',
      match: `POST /v2/checkout/orders/${id}/capture`,
      kind: 'timeoutAfter',
    })
    const body = {
      cart_id: cart.id,
      payment_method: 'paypal',
      contact: { firstName: 'X', lastName: 'Y', email: 'x@example.com', phone: '01632 960 999' },
      shipping_address: { address1: 'Elsewhere', town: 'Nowhere', postcode: 'X1', country: 'GB' },
      showingBillingAddress: false,
      transactions: [
        {
          amount: cart.cart_total_price_inc_tax,
          paymentDetails: {},
          paymentProvider: 'paypal',
          message: '',
          authCode: 'empty',
        },
      ],
      delivery_option: cart.shippingRates.find((r) => r.selected)?.id,
      Notes: 'PayPal, then gone',
      orderID: id,
    }
    expect((await v.post('/checkout/complete', body)).statusCode).toBe(202)
    await graceOver(cart.id!)
    await h.app.jobs.runNow('payments-reconcile')
    const [attempt] = await attemptsOf(cart.id!)
    expect(attempt?.state).toBe('captured')
    expect(await ordersOf(cart.id!)).toHaveLength(0)
    return { v, cart, id }
  }

  it('places the one order with the buyer PayPal gave after the grace period', async () => {
    const { cart, id } = await capturedThenLeft()
    await graceOver(cart.id!)
    await Promise.all([h.app.payments.reconcileDue(), h.app.payments.reconcileDue()])
    const placed = await ordersOf(cart.id!)
    expect(placed).toHaveLength(1)
    expect(placed[0]).toMatchObject({ status: 'placed', paymentMethod: 'paypal', notes: 'PayPal, then gone' })
    expect(placed[0]!.contact).toMatchObject({ first_name: 'Sam', email: 'sb-buyer@example.com' })
    const [order] = await Promise.all([h.app.orders.present(h.app.db, placed[0]!)])
    expect(order.transactions[0]).toMatchObject({
      paymentProvider: 'paypal',
      paymentDetails: { orderID: id },
    })
    const paypal = await h.app.payments.adapters.paypal!.getOrder(id)
    expect(paypal!.purchase_units![0]!.payments!.captures).toHaveLength(1)
  })

  it('refunds the PayPal capture once, and places no order, when the basket changed', async () => {
    const { v, cart } = await capturedThenLeft()
    expect(
      (await v.post('/cart/add', { items: [{ listing_id: skuId, quantity: 1, category_id: categoryId }] }))
        .statusCode,
    ).toBe(200)
    await graceOver(cart.id!)
    await h.app.jobs.runNow('payments-reconcile')
    expect(await ordersOf(cart.id!)).toHaveLength(0)
    const [attempt] = await attemptsOf(cart.id!)
    expect(attempt).toMatchObject({ state: 'voided', resolution: 'voided', reconcileAfter: null })
    await h.app.jobs.runNow('payments-reconcile')
    expect(h.sims.paypal.ledger(attempt!.providerRefs.paypalCaptureId!)).toMatchObject({
      status: 'REFUNDED',
      refunds: [{ status: 'COMPLETED' }],
    })
  })
})
