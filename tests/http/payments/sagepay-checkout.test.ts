import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { orders, savedCards } from '../../../src/server/db/schema.ts'
import { paymentAttempts } from '../../../src/server/modules/payments/payments.tables.ts'
import type { Cart } from '../../../src/shared/cart.ts'
import type { OrderData } from '../../../src/shared/checkout.ts'
import { inertiaHeaders } from '../../helpers/app.ts'
import { Visitor } from '../../helpers/visitor.ts'
import { insertCategory, insertGroup, insertSku, siteIdFor } from '../../factories/product.ts'
import { startPaymentsHarness, type PaymentsHarness } from './harness.ts'

const DEMO = { email: 'demo@harbour-safety.example', password: 'Harbour-demo-2026' }
const APPROVE = '4929000000006'
const DECLINE = '4929602110085639'

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
}, 180_000)
afterAll(async () => h?.close())

async function shopper(login = false) {
  const v = await new Visitor(h.app).start()
  if (login) expect((await v.post('/login', { ...DEMO, redirect: false })).statusCode).toBeLessThan(400)
  const res = await v.post('/cart/add', {
    items: [{ listing_id: skuId, quantity: 2, category_id: categoryId }],
  })
  expect(res.statusCode).toBe(200)
  return { v, cart: res.json() as Cart }
}

function form(cart: Cart, extra: Record<string, unknown> = {}) {
  return {
    cart_id: cart.id,
    payment_method: 'sagepay',
    contact: {
      firstName: 'Carla',
      lastName: 'Card',
      email: `card${++n}@example.com`,
      phone: '01632 960 902',
      company: '',
    },
    shipping_address: {
      company: '',
      address1: '88 Quay Street',
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
    ...extra,
  }
}

/** The pre-order and session, then what the drop-in does in Opayo's iframe. */
async function cardFor(v: Visitor, body: Record<string, unknown>, number = APPROVE, name = 'SUCCESSFUL') {
  const res = await v.post('/checkout/sagepay/create-preorder-and-sagepay-session', body)
  expect(res.statusCode).toBe(200)
  const { merchantSessionKey, reusableCardIdentifier } = res.json() as {
    merchantSessionKey: string
    reusableCardIdentifier?: string
  }
  const api = h.providers.sagepay!.baseUrl
  if (reusableCardIdentifier) {
    const link = await fetch(`${api}/card-identifiers/${reusableCardIdentifier}/security-code`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${merchantSessionKey}` },
      body: JSON.stringify({ securityCode: '123' }),
    })
    expect(link.status).toBe(204)
    return { sagePayMerchantSessionKey: merchantSessionKey }
  }
  const tok = await fetch(`${api}/card-identifiers`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${merchantSessionKey}` },
    body: JSON.stringify({
      cardDetails: { cardholderName: name, cardNumber: number, expiryDate: '1230', securityCode: '123' },
    }),
  })
  expect(tok.status).toBe(201)
  const { cardIdentifier } = (await tok.json()) as { cardIdentifier: string }
  return { card_identifier: cardIdentifier, sagePayMerchantSessionKey: merchantSessionKey }
}

/** The ACS's answer for a challenge (what /opayo/acs/answer posts back to the shop). */
function cres(creq: string, transStatus: 'Y' | 'N') {
  const { acsTransID } = JSON.parse(Buffer.from(creq, 'base64url').toString('utf8')) as { acsTransID: string }
  return Buffer.from(
    JSON.stringify({ messageType: 'CRes', messageVersion: '2.1.0', acsTransID, transStatus }),
  ).toString('base64url')
}

async function ordersOf(cartRef: string) {
  return h.app.db.select().from(orders).where(eq(orders.cartRef, cartRef))
}

describe('paying by card (sagepay) at checkout', () => {
  it('places a paid order from the drop-in card identifier, recording the card but never its number', async () => {
    const { v, cart } = await shopper()
    const body = form(cart)
    const res = await v.post('/checkout/complete', { ...body, ...(await cardFor(v, body)) })
    expect(res.statusCode).toBe(200)
    const order = (res.json() as { order: OrderData }).order
    expect(order.status).toBe('placed')
    expect(order.transactions[0]).toMatchObject({
      paymentProvider: 'sagepay',
      amount: cart.cart_total_price_inc_tax,
      paymentDetails: { cardType: 'Visa', last4Digits: '0006' },
    })
    expect(JSON.stringify(order)).not.toContain(APPROVE)
    const attempts = await h.app.payments.forOrder(`basket:${cart.id}`)
    expect(attempts.map((a) => a.state)).toEqual(['captured'])
  })

  it('places a paid order from the card identifier in the transaction’s paymentDetails (spec §3)', async () => {
    const { v, cart } = await shopper()
    const body = form(cart)
    const { card_identifier, sagePayMerchantSessionKey } = await cardFor(v, body)
    const res = await v.post('/checkout/complete', {
      ...body,
      sagePayMerchantSessionKey,
      transactions: [
        {
          amount: cart.cart_total_price_inc_tax,
          paymentDetails: { card_identifier },
          paymentProvider: 'sagepay',
        },
      ],
    })
    expect(res.statusCode).toBe(200)
    const order = (res.json() as { order: OrderData }).order
    expect(order.status).toBe('placed')
    expect(order.transactions[0]).toMatchObject({
      paymentProvider: 'sagepay',
      amount: cart.cart_total_price_inc_tax,
      paymentDetails: { cardType: 'Visa', last4Digits: '0006' },
    })
    // A paymentDetails identifier that is not one is refused like a missing card.
    const { v: other, cart: otherCart } = await shopper()
    const bad = await other.post('/checkout/complete', {
      ...form(otherCart),
      sagePayMerchantSessionKey: 'ABCDEF12-3456',
      transactions: [
        {
          amount: otherCart.cart_total_price_inc_tax,
          paymentDetails: { card_identifier: '<script>' },
          paymentProvider: 'sagepay',
        },
      ],
    })
    expect(bad.statusCode).toBe(422)
    expect(bad.json()).toMatchObject({ errors: { card_identifier: ['Please enter your card details.'] } })
    expect(await ordersOf(otherCart.id!)).toHaveLength(0)
  })

  it('answers a declined card with a message and no order; a second card then pays once', async () => {
    const { v, cart } = await shopper()
    const body = form(cart)
    for (let i = 0; i < 2; i++) {
      const declined = await v.post('/checkout/complete', { ...body, ...(await cardFor(v, body, DECLINE)) })
      expect(declined.statusCode).toBe(402)
      expect(declined.json()).toMatchObject({
        message: 'Your card was declined. Please check the details or try another card.',
      })
    }
    expect(await ordersOf(cart.id!)).toHaveLength(0)
    const card = await cardFor(v, body)
    const paid = await v.post('/checkout/complete', { ...body, ...card })
    expect(paid.statusCode).toBe(200)
    // The browser repeats its last submit: the same order, nothing paid again.
    const again = await v.post('/checkout/complete', { ...body, ...card })
    expect(again.statusCode).toBe(200)
    expect(await ordersOf(cart.id!)).toHaveLength(1)
    const states = (await h.app.payments.forOrder(`basket:${cart.id}`)).map((a) => a.state)
    expect(states).toEqual(['declined', 'declined', 'captured'])
  })

  it('asks for a 3-D Secure challenge and places the order when the bank authenticates the shopper', async () => {
    const { v, cart } = await shopper()
    const body = form(cart, { challengeWindowSize: 'Small' })
    const first = await v.post('/checkout/complete', {
      ...body,
      ...(await cardFor(v, body, APPROVE, 'CHALLENGE')),
    })
    expect(first.statusCode).toBe(402)
    const challenge = first.json() as {
      status: string
      acsUrl: string
      fields: { creq: string; threeDSSessionData: string }
    }
    expect(challenge.status).toBe('auth3DSCheckRequired')
    expect(challenge.acsUrl).toBe(`${h.sims.origin}/opayo/acs`)
    const creq = JSON.parse(Buffer.from(challenge.fields.creq, 'base64url').toString()) as Record<
      string,
      string
    >
    expect(creq.challengeWindowSize).toBe('Small')
    // The session data is an opaque reference, never Opayo's transaction id.
    const [attempt] = await h.app.payments.forOrder(`basket:${cart.id}`)
    expect(challenge.fields.threeDSSessionData).not.toContain(attempt!.providerRefs.opayoTransactionId!)
    expect(await ordersOf(cart.id!)).toHaveLength(0)

    const done = await v.post('/checkout/complete', {
      ...body,
      threeDSSessionData: challenge.fields.threeDSSessionData,
      aCSResponse: cres(challenge.fields.creq, 'Y'),
      threeDSVersion: '2',
    })
    expect(done.statusCode).toBe(200)
    expect((done.json() as { order: OrderData }).order.status).toBe('placed')
    expect(await ordersOf(cart.id!)).toHaveLength(1)
  })

  it('writes no order when the 3-D Secure challenge fails, and refuses the answer on another basket', async () => {
    const { v, cart } = await shopper()
    const body = form(cart)
    const first = await v.post('/checkout/complete', {
      ...body,
      ...(await cardFor(v, body, APPROVE, 'CHALLENGE')),
    })
    const { fields } = first.json() as { fields: { creq: string; threeDSSessionData: string } }

    const other = await shopper()
    const stolen = await other.v.post('/checkout/complete', {
      ...form(other.cart),
      threeDSSessionData: fields.threeDSSessionData,
      aCSResponse: cres(fields.creq, 'Y'),
      threeDSVersion: '2',
    })
    expect(stolen.statusCode).toBe(404)

    const failed = await v.post('/checkout/complete', {
      ...body,
      threeDSSessionData: fields.threeDSSessionData,
      aCSResponse: cres(fields.creq, 'N'),
      threeDSVersion: '2',
    })
    expect(failed.statusCode).toBe(402)
    expect(failed.json()).toMatchObject({
      message: 'The card check with your bank was not completed. Please try again or use another card.',
    })
    expect(await ordersOf(cart.id!)).toHaveLength(0)
    expect(await ordersOf(other.cart.id!)).toHaveLength(0)
  })

  it('saves the card of a logged-in customer who asks, lists it first, and pays with it and its security code', async () => {
    const { v, cart } = await shopper(true)
    await h.app.db.execute(sql`delete from saved_cards`)
    const body = form(cart, { save_card: true })
    const res = await v.post('/checkout/complete', { ...body, ...(await cardFor(v, body)) })
    expect(res.statusCode).toBe(200)
    const rows = await h.app.db.select().from(savedCards)
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ provider: 'sagepay', last4Digits: '0006', cardType: 'Visa' })

    const next = await shopper(true)
    const page = await next.v.visit('/checkout')
    const config = (page.json() as { props: { paymentConfig: { sagepay: { savedCards: unknown[] } } } }).props
      .paymentConfig.sagepay
    expect(config.savedCards).toEqual([{ id: rows[0]!.id, last4Digits: '0006', cardType: 'Visa' }])
    expect(JSON.stringify(page.json())).not.toContain(rows[0]!.token)

    const reuse = form(next.cart, { saved_card: rows[0]!.id })
    const paid = await next.v.post('/checkout/complete', { ...reuse, ...(await cardFor(next.v, reuse)) })
    expect(paid.statusCode).toBe(200)
    expect((paid.json() as { order: OrderData }).order.status).toBe('placed')
  })

  it("refuses another customer's saved card, and a guest's, as not found", async () => {
    const [card] = await h.app.db.select().from(savedCards).limit(1)
    const guest = await shopper()
    const res = await guest.v.post(
      '/checkout/sagepay/create-preorder-and-sagepay-session',
      form(guest.cart, { saved_card: card?.id ?? 999999 }),
    )
    expect(res.statusCode).toBe(404)
  })

  it('refuses the pre-order for a total that moved, with the fresh basket', async () => {
    const { v, cart } = await shopper()
    const body = form(cart)
    body.transactions[0]!.amount += 1
    const res = await v.post('/checkout/sagepay/create-preorder-and-sagepay-session', body)
    expect(res.statusCode).toBe(409)
    expect((res.json() as { cart: Cart }).cart.id).toBe(cart.id)
  })

  it('makes one order when the answer to the 3-D Secure result is lost after Opayo took the money', async () => {
    const { v, cart } = await shopper()
    const body = form(cart)
    const first = await v.post('/checkout/complete', {
      ...body,
      ...(await cardFor(v, body, APPROVE, 'CHALLENGE')),
    })
    const { fields } = first.json() as { fields: { creq: string; threeDSSessionData: string } }
    const result = {
      ...body,
      threeDSSessionData: fields.threeDSSessionData,
      aCSResponse: cres(fields.creq, 'Y'),
      threeDSVersion: '2',
    }
    h.sims.faults.add({ provider: 'opayo', match: 'POST /transactions/', kind: 'timeoutAfter' })
    const lost = await v.post('/checkout/complete', result)
    expect(lost.statusCode).toBe(202)
    expect(await ordersOf(cart.id!)).toHaveLength(0)
    // The reconciler job asks Opayo; the page's next ask then places the order once.
    await h.app.db
      .update(paymentAttempts)
      .set({ reconcileAfter: new Date(Date.now() - 1000) })
      .where(eq(paymentAttempts.orderRef, `basket:${cart.id}`))
    await h.app.jobs.runNow('payments-reconcile')
    await expect
      .poll(async () => (await h.app.payments.forOrder(`basket:${cart.id}`)).map((a) => a.state))
      .toEqual(['captured'])
    const placed = await v.post('/checkout/complete', result)
    expect(placed.statusCode).toBe(200)
    expect(await v.post('/checkout/complete', result).then((r) => r.statusCode)).toBe(200)
    expect(await ordersOf(cart.id!)).toHaveLength(1)
    expect((await h.app.payments.forOrder(`basket:${cart.id}`)).map((a) => a.state)).toEqual(['captured'])
  })

  it('takes one payment and makes one order when two tabs submit the same basket at once', async () => {
    const { v, cart } = await shopper()
    const body = form(cart)
    const [a, b] = await Promise.all([
      v.post('/checkout/complete', { ...body, ...(await cardFor(v, body)) }),
      v.post('/checkout/complete', { ...body, ...(await cardFor(v, body)) }),
    ])
    expect([a.statusCode, b.statusCode]).toContain(200)
    expect(await ordersOf(cart.id!)).toHaveLength(1)
    const paid = (await h.app.payments.forOrder(`basket:${cart.id}`)).filter((x) => x.state === 'captured')
    expect(paid).toHaveLength(1)
  })

  it("serves the checkout with its own CSP naming the providers' origin, and 'Test mode'", async () => {
    const { v } = await shopper()
    const page = await v.request('GET', '/checkout', undefined, { accept: 'text/html' })
    expect(page.statusCode).toBe(200)
    const csp = String(page.headers['content-security-policy'])
    const sim = h.sims.origin
    expect(csp).toMatch(new RegExp(`script-src [^;]*${sim.replace(/[.:/]/g, '\\$&')}`))
    expect(csp).toMatch(new RegExp(`frame-src 'self' ${sim.replace(/[.:/]/g, '\\$&')}(;|$)`))
    const home = await v.request('GET', '/', undefined, { accept: 'text/html' })
    expect(String(home.headers['content-security-policy'])).not.toContain(sim)
    const props = (await v.visit('/checkout')).json().props as {
      testMode: boolean
      paymentMethods: { id: string }[]
      paymentConfig: Record<string, { scriptUrl?: string }>
    }
    expect(props.testMode).toBe(true)
    expect(props.paymentMethods.map((m) => m.id)).toContain('sagepay')
    expect(props.paymentMethods.map((m) => m.id)).not.toContain('paya')
    expect(props.paymentConfig.sagepay?.scriptUrl).toBe(`${sim}/opayo/api/v1/js/sagepay.js`)
    // From another page, an Inertia visit becomes a full load so that this CSP applies.
    const fromCart = await v.request('GET', '/checkout', undefined, {
      ...inertiaHeaders(),
      referer: 'http://localhost/cart',
    })
    expect(fromCart.statusCode).toBe(409)
    expect(fromCart.headers['x-inertia-location']).toBe('/checkout')
  })

  it('answers a submit without card details, or a guest naming a saved card, with a field message', async () => {
    const { v, cart } = await shopper()
    const none = await v.post('/checkout/complete', form(cart))
    expect(none.statusCode).toBe(422)
    expect(none.json()).toMatchObject({ errors: { card_identifier: ['Please enter your card details.'] } })
    const guestSaved = await v.post('/checkout/complete', {
      ...form(cart),
      saved_card: 1,
      sagePayMerchantSessionKey: 'ABCDEF12-3456',
    })
    expect(guestSaved.statusCode).toBe(422)
    expect(guestSaved.json()).toMatchObject({
      errors: { saved_card: ['This saved card is no longer available. Please choose another card.'] },
    })
    expect(await ordersOf(cart.id!)).toHaveLength(0)
  })
})
