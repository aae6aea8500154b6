import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PaypalOrderInput } from './paypal.provider.ts'
import {
  orderRef,
  startPaymentsHarness,
  type PaymentsHarness,
} from '../../../../../tests/http/payments/harness.ts'

let h: PaymentsHarness
beforeAll(async () => {
  h = await startPaymentsHarness()
}, 180_000)
afterAll(async () => h?.close())

const order = (amount: number): PaypalOrderInput => ({
  itemTotalMinor: amount - 500,
  shippingMinor: 500,
  taxTotalMinor: 0,
  discountMinor: 0,
  brandName: 'Harbour Safety Supplies',
  locale: 'en-GB',
  returnUrl: 'https://shop.example/checkout/paypal/return',
  cancelUrl: 'https://shop.example/checkout',
  shippingPreference: 'GET_FROM_FILE',
  shippingOptions: [
    { id: 'standard', label: 'Standard delivery', type: 'SHIPPING', selected: true, amountMinor: 500 },
  ],
})

async function approvedAttempt(amount = 2349) {
  const p = h.app.payments
  const attempt = await p.createAttempt({
    siteId: await h.siteId('harbour'),
    orderRef: orderRef(),
    method: 'paypal',
    amountMinor: amount,
    currency: 'GBP',
  })
  const created = await p.paypalCreateOrder(attempt.id, order(amount))
  if (!('orderId' in created)) throw new Error(`create failed: ${created.lastCode}`)
  h.sims.paypal.approve(created.orderId)
  return { attempt, orderId: created.orderId }
}

async function captureCount(orderId: string): Promise<number> {
  const o = await h.app.payments.adapters.paypal!.getOrder(orderId)
  return o?.purchase_units?.[0]?.payments?.captures?.length ?? 0
}

describe('PayPal adapter against the simulator', () => {
  it('creates an order, and captures it once the buyer approved', async () => {
    const { attempt, orderId } = await approvedAttempt()
    const after = await h.app.payments.paypalCapture(attempt.id)
    expect(after.state).toBe('captured')
    expect(after.providerRefs).toMatchObject({ paypalOrderId: orderId, paypalCaptureId: expect.any(String) })
    expect(after.history.map((e) => e.to)).toEqual(['captured'])
  })

  it('refuses to capture an order the buyer has not approved', async () => {
    const p = h.app.payments
    const attempt = await p.createAttempt({
      siteId: await h.siteId('harbour'),
      orderRef: orderRef(),
      method: 'paypal',
      amountMinor: 1500,
      currency: 'GBP',
    })
    await p.paypalCreateOrder(attempt.id, order(1500))
    const after = await p.paypalCapture(attempt.id)
    expect(after.state).toBe('declined')
    expect(after.lastCode).toBe('paypal_ORDER_NOT_APPROVED')
  })

  it('asks for another funding source when PayPal declines the instrument, then captures', async () => {
    const p = h.app.payments
    const attempt = await p.createAttempt({
      siteId: await h.siteId('harbour'),
      orderRef: orderRef(),
      method: 'paypal',
      amountMinor: 3000,
      currency: 'GBP',
    })
    const created = await p.paypalCreateOrder(attempt.id, order(3000))
    if (!('orderId' in created)) throw new Error('create failed')
    // The buyer picks the card that declines on the approval page.
    const res = await fetch(`${h.sims.origin}/paypal/checkoutnow/answer`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: created.orderId, answer: 'decline' }),
    })
    expect(res.status).toBe(200)
    const declined = await p.paypalCapture(attempt.id)
    expect(declined.state).toBe('requires_action')
    expect(declined.nextAction).toEqual({ type: 'paypalRestart' })
    h.sims.paypal.approve(created.orderId)
    const after = await p.paypalCapture(attempt.id, 'CAPTURE', 1)
    expect(after.state).toBe('captured')
    expect(await captureCount(created.orderId)).toBe(1)
  })

  it('sends the buyer to re-approve when the amount rose after approval', async () => {
    const p = h.app.payments
    const { attempt, orderId } = await approvedAttempt(2000)
    const patched = await p.adapters.paypal!.updateShippingOptions(
      orderId,
      'GBP',
      { totalMinor: 2995, itemTotalMinor: 1500, shippingMinor: 1495, taxTotalMinor: 0, discountMinor: 0 },
      [{ id: 'next_day', label: 'Next day', type: 'SHIPPING', selected: true, amountMinor: 1495 }],
    )
    expect(patched).toEqual({ ok: true })
    const after = await p.paypalCapture(attempt.id)
    expect(after.state).toBe('requires_action')
    expect(after.nextAction).toMatchObject({
      type: 'redirect',
      url: expect.stringContaining(`/paypal/checkoutnow?token=${orderId}`),
    })
  })

  it('after a capture whose answer was lost, the reconciler finds the capture and ends with one successful attempt', async () => {
    const p = h.app.payments
    const { attempt, orderId } = await approvedAttempt(4200)
    h.sims.faults.add({
      provider: 'paypal',
      match: `POST /v2/checkout/orders/${orderId}/capture`,
      kind: 'timeoutAfter',
    })
    const lost = await p.paypalCapture(attempt.id)
    expect(lost.state).toBe('unknown')
    expect(lost.reconcileAfter).not.toBeNull()
    await expect(
      p.createAttempt({
        siteId: attempt.siteId,
        orderRef: attempt.orderRef,
        method: 'paypal',
        amountMinor: 4200,
        currency: 'GBP',
      }),
    ).rejects.toMatchObject({ code: 'unsettled' })
    const after = await p.reconcile(attempt.id)
    expect(after.state).toBe('captured')
    expect(await captureCount(orderId)).toBe(1)
    const all = await p.forOrder(attempt.orderRef)
    expect(all.filter((a) => a.state === 'captured')).toHaveLength(1)
    await expect(
      p.createAttempt({
        siteId: attempt.siteId,
        orderRef: attempt.orderRef,
        method: 'paypal',
        amountMinor: 4200,
        currency: 'GBP',
      }),
    ).rejects.toMatchObject({ code: 'already_paid' })
  })

  it('after a capture that never reached PayPal, the reconciler captures with the same request id', async () => {
    const p = h.app.payments
    const { attempt, orderId } = await approvedAttempt(1800)
    h.sims.faults.add({
      provider: 'paypal',
      match: `POST /v2/checkout/orders/${orderId}/capture`,
      kind: 'error500',
    })
    expect((await p.paypalCapture(attempt.id)).state).toBe('unknown')
    expect((await p.reconcile(attempt.id)).state).toBe('captured')
    expect(await captureCount(orderId)).toBe(1)
  })

  it('verifies a webhook, re-fetches the order, and ignores the same event replayed', async () => {
    const p = h.app.payments
    const { attempt, orderId } = await approvedAttempt(2600)
    // Webhooks from here on: the approval's own event, delivered meanwhile, would reconcile the
    // attempt a second time (touching it) after the snapshot below was taken.
    h.sims.paypal.setWebhookUrl(`${h.shopOrigin}/payments/notify/paypal`)
    h.sims.faults.add({
      provider: 'paypal',
      match: `POST /v2/checkout/orders/${orderId}/capture`,
      kind: 'timeoutAfter',
    })
    expect((await p.paypalCapture(attempt.id)).state).toBe('unknown')
    // The capture webhook arrives (delivered asynchronously by the simulator).
    let row = await p.get(attempt.id)
    for (let i = 0; i < 50 && row?.state !== 'captured'; i++) {
      await new Promise((r) => setTimeout(r, 50))
      row = await p.get(attempt.id)
    }
    expect(row?.state).toBe('captured')
    const before = JSON.stringify(row)
    const events = h.sims.paypal.deliveredEvents()
    const status = await h.sims.paypal.redeliver(events.at(-1)!)
    expect(status).toBe(200)
    expect(JSON.stringify(await p.get(attempt.id))).toBe(before)
    h.sims.paypal.setWebhookUrl(null)
  })

  it('refuses a webhook that PayPal did not sign', async () => {
    const res = await h.app.inject({
      method: 'POST',
      url: '/payments/notify/paypal',
      headers: {
        'content-type': 'application/json',
        'paypal-auth-algo': 'SHA256withRSA',
        'paypal-cert-url': `${h.sims.origin}/paypal/v1/notifications/certs/sim`,
        'paypal-transmission-id': 'forged',
        'paypal-transmission-sig': 'AAAA',
        'paypal-transmission-time': new Date().toISOString(),
      },
      payload: JSON.stringify({ id: 'WH-forged', event_type: 'PAYMENT.CAPTURE.COMPLETED', resource: {} }),
    })
    expect(res.statusCode).toBe(400)
  })
})
