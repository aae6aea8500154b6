/**
 * The PayPal and Amazon Pay calls refuse with domain errors (ADR 0240): each refusal's answer is
 * the error handler's for its code, with the body the checkout page reads, and nothing changes.
 */
import { eq, sql } from 'drizzle-orm'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { sites } from '../../../src/server/db/schema.ts'
import { PaymentError } from '../../../src/server/modules/payments/payment-error.ts'
import { WALLET_TEXT } from '../../../src/server/modules/payment-methods/wallets/wallet.shared.ts'
import type { Cart } from '../../../src/shared/cart.ts'
import { CHECKOUT_TEXT } from '../../../src/shared/checkout.ts'
import { Visitor } from '../../helpers/visitor.ts'
import { insertCategory, insertGroup, insertSku, siteIdFor } from '../../factories/product.ts'
import { startPaymentsHarness, type PaymentsHarness } from './harness.ts'

let h: PaymentsHarness
let categoryId: number
let skuId: number

beforeAll(async () => {
  h = await startPaymentsHarness()
  const siteId = await siteIdFor(h.app.db)
  categoryId = (await insertCategory(h.app.db, { siteId })).id
  const groupId = (await insertGroup(h.app.db, { siteId, categoryId })).id
  skuId = (await insertSku(h.app.db, { siteId, groupId })).id
  const methods = [
    { id: 'paypal', label: 'PayPal', img: '', detail: '' },
    { id: 'amazon', label: 'Amazon Pay', img: '', detail: '' },
  ]
  await h.app.db
    .update(sites)
    .set({ settings: sql`${sites.settings} || ${JSON.stringify({ paymentMethods: methods })}::jsonb` })
    .where(eq(sites.id, siteId))
  h.app.sites.invalidate()
}, 60_000)
afterAll(() => h?.close())
afterEach(() => vi.restoreAllMocks())

async function shopper() {
  const v = await new Visitor(h.app).start()
  const res = await v.post('/cart/add', {
    items: [{ listing_id: skuId, quantity: 1, category_id: categoryId }],
  })
  expect(res.statusCode).toBe(200)
  return { v, cart: res.json() as Cart }
}

async function approvedOrder(v: Visitor): Promise<string> {
  const id = (await v.post('/checkout/paypal/create-order', {})).json().result.id as string
  h.sims.paypal.approve(id)
  return id
}

describe('a wallet call that is refused', () => {
  it('answers a reApproval that is neither true nor false with 422 and the field’s message', async () => {
    const { v } = await shopper()
    const res = await v.post('/checkout/paypal/create-order', { reApproval: 'maybe' })
    expect(res.statusCode).toBe(422)
    expect(res.json()).toEqual({
      message: WALLET_TEXT.reApprovalField,
      errors: { reApproval: [WALLET_TEXT.reApprovalField] },
    })
  })

  it('answers an empty basket as every checkout path does: 422 and back to the basket', async () => {
    const empty = await new Visitor(h.app).start()
    for (const url of ['/checkout/paypal/create-order', '/checkout/amazon/create-amazon-session']) {
      const res = await empty.post(url, {})
      expect(res.statusCode).toBe(422)
      expect(res.json()).toEqual({
        message: CHECKOUT_TEXT.emptyBasket,
        errors: { cart: [CHECKOUT_TEXT.emptyBasket] },
        redirect: '/cart',
      })
    }
  })

  it('answers another browser’s PayPal order with 404', async () => {
    const { v } = await shopper()
    const id = await approvedOrder(v)
    const { v: other } = await shopper()
    const res = await other.request('GET', `/checkout/paypal/get-order-information?paypalOrderId=${id}`)
    expect(res.statusCode).toBe(404)
    expect(res.json()).toEqual({ message: 'Not Found' })
  })

  it('answers 502 with PayPal’s message when PayPal cannot be asked, and the basket when its shipping update fails', async () => {
    const { v, cart } = await shopper()
    const id = await approvedOrder(v)
    const paypal = h.app.payments.adapters.paypal!
    vi.spyOn(paypal, 'getOrder').mockRejectedValueOnce(new Error('socket hang up'))
    const info = await v.request('GET', `/checkout/paypal/get-order-information?paypalOrderId=${id}`)
    expect(info.statusCode).toBe(502)
    expect(info.json()).toEqual({ message: WALLET_TEXT.paypalAddress })

    vi.spyOn(paypal, 'updateShippingOptions').mockRejectedValueOnce(new Error('socket hang up'))
    const rate = cart.shippingRates.find((r) => r.selected)!
    const upd = await v.post('/checkout/paypal/update-shipping-options', {
      data: { orderID: id, selectedShippingOption: { id: String(rate.id) } },
    })
    expect(upd.statusCode).toBe(502)
    expect(upd.json().message).toBe(WALLET_TEXT.paypalShipping)
    expect((upd.json().cart as Cart).cart_total_price_inc_tax).toBe(cart.cart_total_price_inc_tax)
  })

  it('answers 409 without a new attempt when the basket is already paid or still being confirmed', async () => {
    const { v } = await shopper()
    for (const [code, message] of [
      ['already_paid', WALLET_TEXT.alreadyPaid],
      ['unsettled', WALLET_TEXT.confirming],
    ] as const) {
      vi.spyOn(h.app.payments, 'createAttempt').mockRejectedValueOnce(new PaymentError(code, code))
      const res = await v.post('/checkout/paypal/create-order', {})
      expect(res.statusCode).toBe(409)
      expect(res.json()).toEqual({ message })
    }
  })

  it('answers an Amazon session id that is malformed with 422 under its field', async () => {
    const { v } = await shopper()
    const res = await v.post('/checkout/amazon/delivery-viewed', { amazonCheckoutSessionId: '<x>' })
    expect(res.statusCode).toBe(422)
    expect(res.json()).toEqual({
      message: WALLET_TEXT.amazonSession,
      errors: { amazonCheckoutSessionId: [WALLET_TEXT.amazonSession] },
    })
  })
})
