/**
 * Paid attempts for the contract tests: each helper takes the money through the real adapter and
 * the simulator, as the checkout would, and returns the attempt row.
 */
import { expect } from 'vitest'
import { attemptContext, type PaymentAttempt } from '../../../src/server/modules/payments/payments.service.ts'
import type { AttemptContext } from '../../../src/server/modules/payments/providers/types.ts'
import type { PaypalOrderInput } from '../../../src/server/modules/payment-methods/paypal/paypal.provider.ts'
import { orderRef, type PaymentsHarness } from './harness.ts'

export const context = (row: PaymentAttempt): AttemptContext => attemptContext(row)

/** The current row of an attempt (after a call changed it). */
export async function row(h: PaymentsHarness, id: string): Promise<PaymentAttempt> {
  const r = await h.app.payments.get(id)
  if (!r) throw new Error(`no attempt ${id}`)
  return r
}

export async function paidByOpayo(h: PaymentsHarness, amountMinor = 2349): Promise<PaymentAttempt> {
  const p = h.app.payments
  const { merchantSessionKey: msk } = await p.cardSession()
  const api = h.providers.sagepay!.baseUrl
  const tokenised = await fetch(`${api}/card-identifiers`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${msk}` },
    body: JSON.stringify({
      cardDetails: {
        cardholderName: 'SUCCESSFUL',
        cardNumber: '4929000000006',
        expiryDate: '1230',
        securityCode: '123',
      },
    }),
  })
  expect(tokenised.status).toBe(201)
  const { cardIdentifier } = (await tokenised.json()) as { cardIdentifier: string }
  const attempt = await p.createAttempt({
    siteId: await h.siteId('harbour'),
    orderRef: orderRef(),
    method: 'sagepay',
    amountMinor,
    currency: 'GBP',
  })
  return p.cardPay(attempt.id, {
    merchantSessionKey: msk,
    cardIdentifier,
    description: 'Harbour order',
    customer: { firstName: 'Sam', lastName: 'Jones', email: 'sam@example.com' },
    billingAddress: { address1: '88', city: 'London', postalCode: '412', country: 'GB' },
    browser: {
      browserIP: '127.0.0.1',
      browserAcceptHeader: 'text/html',
      browserJavascriptEnabled: true,
      browserLanguage: 'en-GB',
      browserUserAgent: 'test',
    },
    notificationURL: `${h.shopOrigin}/payments/3ds/notify`,
    challengeWindowSize: 'Medium',
  })
}

/** A Paya attempt with its hosted form loaded: `submit` posts the card as the form would. */
export async function payaForm(h: PaymentsHarness, amountMinor = 1999) {
  const p = h.app.payments
  const attempt = await p.createAttempt({
    siteId: await h.siteId('northgate'),
    orderRef: orderRef(),
    method: 'paya',
    amountMinor,
    currency: 'USD',
  })
  const form = await p.payaForm(attempt.id, { orderNumber: attempt.orderRef, billingZip: '32606' })
  const page = await (await fetch(form.iframeUrl)).text()
  const hash = /name="hash" value="([^"]+)"/.exec(page)![1]!
  const data = /name="data" value="([^"]+)"/.exec(page)![1]!
  const submit = (fields: Record<string, string> = {}) =>
    fetch(`${h.sims.origin}/paya/v2/payform/submit`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        hash,
        data,
        account_number: '4111111111111111',
        exp_date: '1230',
        cvv: '999',
        billing_zip: '32606',
        ...fields,
      }),
    })
  return { attempt, form, page, hash, data, submit }
}

/** What a shopper does in Paya's hosted form: loads the signed page and pays with the test card. */
export async function payInPayaIframe(h: PaymentsHarness, iframeUrl: string): Promise<Response> {
  const page = await (await fetch(iframeUrl)).text()
  return fetch(`${h.sims.origin}/paya/v2/payform/submit`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      hash: /name="hash" value="([^"]+)"/.exec(page)![1]!,
      data: /name="data" value="([^"]+)"/.exec(page)![1]!,
      account_number: '4111111111111111',
      exp_date: '1230',
      cvv: '999',
      billing_zip: '32606',
    }),
  })
}

export async function paidByPaya(h: PaymentsHarness, amountMinor = 1999): Promise<PaymentAttempt> {
  const { attempt, submit } = await payaForm(h, amountMinor)
  expect((await submit()).status).toBe(200)
  return h.app.payments.payaConfirm(attempt.id)
}

export const paypalOrder = (amount: number): PaypalOrderInput => ({
  itemTotalMinor: amount - 500,
  shippingMinor: 500,
  taxTotalMinor: 0,
  discountMinor: 0,
  brandName: 'Harbour Safety Supplies',
  locale: 'en-GB',
  returnUrl: 'https://shop.example/checkout/paypal/return',
  cancelUrl: 'https://shop.example/checkout',
  shippingPreference: 'GET_FROM_FILE',
})

/** A PayPal attempt whose order the buyer approved (not yet captured or authorised). */
export async function approvedPaypal(
  h: PaymentsHarness,
  amountMinor = 2349,
  intent: 'CAPTURE' | 'AUTHORIZE' = 'CAPTURE',
): Promise<{ attempt: PaymentAttempt; orderId: string }> {
  const p = h.app.payments
  const attempt = await p.createAttempt({
    siteId: await h.siteId('harbour'),
    orderRef: orderRef(),
    method: 'paypal',
    amountMinor,
    currency: 'GBP',
  })
  const created = await p.paypalCreateOrder(attempt.id, { ...paypalOrder(amountMinor), intent })
  if (!('orderId' in created)) throw new Error(`create failed: ${created.lastCode}`)
  h.sims.paypal.approve(created.orderId)
  return { attempt: await row(h, attempt.id), orderId: created.orderId }
}

/** An Amazon attempt whose buyer came back from Amazon (ready to complete). */
export async function returnedFromAmazon(h: PaymentsHarness, amountMinor = 2349, card = '1111') {
  const p = h.app.payments
  const attempt = await p.createAttempt({
    siteId: await h.siteId('harbour'),
    orderRef: orderRef(),
    method: 'amazon',
    amountMinor,
    currency: 'GBP',
  })
  const button = p.adapters.amazon!.buttonConfig(`${h.shopOrigin}/checkout/amazon/review`)
  const sessionId = h.sims.amazon.buyerSignsIn(button.payloadJSON, button.signature, card)
  await p.amazonAttachSession(attempt.id, sessionId)
  const prepared = await p.amazonPrepare(attempt.id, {
    resultReturnUrl: `${h.shopOrigin}/checkout/amazon/result`,
    merchantReferenceId: attempt.orderRef,
    storeName: 'Harbour',
  })
  expect(prepared.state).toBe('requires_action')
  h.sims.amazon.buyerReturnsFromAmazon(sessionId)
  return { attempt: await row(h, attempt.id), sessionId }
}
