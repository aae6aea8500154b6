/**
 * Payments that settle later, as the integrator's money-invariant suite scripts them: a PayPal
 * capture PENDING then COMPLETED or DECLINED (with its webhook), an Amazon charge
 * AuthorizationInitiated / CaptureInitiated then Captured or Declined (with its IPN). The
 * adapter's reconcile reports the final state with the amount the provider confirmed; a
 * replayed notification changes nothing. Also the knob that makes a provider record another
 * amount than the one asked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startPaymentsHarness, type PaymentsHarness } from './harness.ts'
import { approvedPaypal, context, returnedFromAmazon, row } from './paid.ts'

let h: PaymentsHarness
beforeAll(async () => {
  h = await startPaymentsHarness()
  h.sims.paypal.setWebhookUrl(`${h.shopOrigin}/payments/notify/paypal`)
  h.sims.amazon.setIpnUrl(`${h.shopOrigin}/payments/notify/amazon`)
}, 180_000)
afterAll(async () => h?.close())

/** The attempt once it reached `state` (notifications are handled as they arrive). */
async function until(id: string, state: string) {
  let r = await row(h, id)
  for (let i = 0; i < 200 && r.state !== state; i++) {
    await new Promise((done) => setTimeout(done, 50))
    r = await row(h, id)
  }
  return r
}

describe('a PayPal capture that settles later', () => {
  async function pendingCapture(amount: number) {
    const { attempt } = await approvedPaypal(h, amount)
    h.sims.paypal.captureNextAs('PENDING', 'PENDING_REVIEW')
    const pending = await h.app.payments.paypalCapture(attempt.id)
    expect(pending).toMatchObject({
      state: 'pending',
      confirmedAmountMinor: amount,
      confirmedCurrency: 'GBP',
    })
    // The simulator signs and sends its webhooks asynchronously (the first one makes the key).
    for (let i = 0; i < 100 && !h.sims.paypal.deliveredEventTypes().includes('PAYMENT.CAPTURE.PENDING'); i++)
      await new Promise((done) => setTimeout(done, 50))
    expect(h.sims.paypal.deliveredEventTypes()).toContain('PAYMENT.CAPTURE.PENDING')
    return pending
  }

  it('comes back PENDING, then COMPLETED with its webhook: the attempt is captured and reconcile confirms the amount', async () => {
    const pending = await pendingCapture(2349)
    await h.sims.paypal.settleCapture(pending.providerRefs.paypalCaptureId!, 'COMPLETED')
    expect(h.sims.paypal.deliveredEventTypes().at(-1)).toBe('PAYMENT.CAPTURE.COMPLETED')
    expect((await until(pending.id, 'captured')).state).toBe('captured')
    expect(await h.app.payments.adapters.paypal!.reconcile(context(pending))).toMatchObject({
      status: 'captured',
      confirmed: { amountMinor: 2349, currency: 'GBP' },
    })
  })

  it('comes back PENDING, then DECLINED (PAYMENT.CAPTURE.DENIED): the attempt is declined, and a replayed webhook changes nothing', async () => {
    const pending = await pendingCapture(1800)
    await h.sims.paypal.settleCapture(pending.providerRefs.paypalCaptureId!, 'DECLINED')
    expect(h.sims.paypal.deliveredEventTypes().at(-1)).toBe('PAYMENT.CAPTURE.DENIED')
    const declined = await until(pending.id, 'declined')
    expect(declined.state).toBe('declined')
    expect((await h.app.payments.adapters.paypal!.reconcile(context(pending))).status).toBe('declined')
    expect(await h.sims.paypal.redeliver(h.sims.paypal.deliveredEvents().at(-1)!)).toBe(200)
    expect(JSON.stringify(await row(h, pending.id))).toBe(JSON.stringify(declined))
  })

  it('records a decline once when a second reconcile pass, which also found the capture pending, answers after the first', async () => {
    const pending = await pendingCapture(1200)
    await h.sims.paypal.settleCapture(pending.providerRefs.paypalCaptureId!, 'DECLINED')
    const declined = await until(pending.id, 'declined')
    const second = await h.app.payments.record(pending.id, 'reconcile', {
      status: 'declined',
      refs: pending.providerRefs,
      code: 'paypal_capture_DECLINED',
      message: 'DECLINED',
      retryWithNewInstrument: true,
    })
    expect(JSON.stringify(second)).toBe(JSON.stringify(declined))
    expect(JSON.stringify(await row(h, pending.id))).toBe(JSON.stringify(declined))
  })

  it('learns the captured amount from a later answer when the capture’s own answer did not state it, and nothing after that', async () => {
    const { attempt } = await approvedPaypal(h, 1500)
    const refs = attempt.providerRefs
    const first = await h.app.payments.record(attempt.id, 'capture', {
      status: 'captured',
      refs,
      confirmed: null,
    })
    expect(first.confirmedAmountMinor).toBeNull()
    const learnt = await h.app.payments.record(attempt.id, 'reconcile', {
      status: 'captured',
      refs,
      confirmed: { amountMinor: 1500, currency: 'GBP' },
    })
    expect([learnt.state, learnt.confirmedAmountMinor, learnt.confirmedCurrency]).toEqual([
      'captured',
      1500,
      'GBP',
    ])
    const later = await h.app.payments.record(attempt.id, 'reconcile', {
      status: 'captured',
      refs,
      confirmed: { amountMinor: 1, currency: 'GBP' },
    })
    expect(JSON.stringify(later)).toBe(JSON.stringify(learnt))
  })

  it('states the amount PayPal captured when PayPal records another amount than the order asked', async () => {
    const { attempt } = await approvedPaypal(h, 2349)
    h.sims.paypal.recordNextAmount('0.01')
    const paid = await h.app.payments.paypalCapture(attempt.id)
    expect(paid).toMatchObject({
      state: 'captured',
      amountMinor: 2349,
      confirmedAmountMinor: 1,
      confirmedCurrency: 'GBP',
    })
  })
})

describe('an Amazon Pay charge that settles later', () => {
  async function pendingCharge(state: 'AuthorizationInitiated' | 'CaptureInitiated', amount = 2349) {
    const { attempt } = await returnedFromAmazon(h, amount)
    h.sims.amazon.nextChargeAs(state)
    const pending = await h.app.payments.amazonComplete(attempt.id)
    expect(pending.state).toBe('pending')
    return pending
  }

  it('starts AuthorizationInitiated, then is Captured with its IPN: the attempt is captured and reconcile confirms the amount', async () => {
    const pending = await pendingCharge('AuthorizationInitiated')
    await h.sims.amazon.settleCharge(pending.providerRefs.amazonChargeId!, 'Captured')
    expect((await until(pending.id, 'captured')).state).toBe('captured')
    expect(await h.app.payments.adapters.amazon!.reconcile(context(pending))).toMatchObject({
      status: 'captured',
      confirmed: { amountMinor: 2349, currency: 'GBP' },
    })
  })

  it('starts CaptureInitiated, then is Declined with its IPN: the attempt is declined, and a replayed IPN changes nothing', async () => {
    const pending = await pendingCharge('CaptureInitiated', 1500)
    const chargeId = pending.providerRefs.amazonChargeId!
    await h.sims.amazon.settleCharge(chargeId, 'Declined')
    const declined = await until(pending.id, 'declined')
    expect(declined).toMatchObject({ state: 'declined', lastCode: 'amazon_HardDeclined' })
    expect(await h.sims.amazon.redeliver(chargeId)).toBe(200)
    expect(JSON.stringify(await row(h, pending.id))).toBe(JSON.stringify(declined))
  })

  it('states the amount Amazon charged when Amazon records another amount than the session asked', async () => {
    const { attempt } = await returnedFromAmazon(h, 2349)
    h.sims.amazon.recordNextAmount('0.01', 'GBP')
    const paid = await h.app.payments.amazonComplete(attempt.id)
    expect(paid).toMatchObject({
      state: 'captured',
      amountMinor: 2349,
      confirmedAmountMinor: 1,
      confirmedCurrency: 'GBP',
    })
  })
})

describe('the same knobs over the control endpoint (for tests that drive the built app)', () => {
  const knob = (body: unknown) =>
    fetch(`${h.sims.origin}/__sim/control/knobs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })

  it('makes the next Amazon charge CaptureInitiated and then Captured, and refuses an unknown knob', async () => {
    const { attempt } = await returnedFromAmazon(h, 2200)
    expect((await knob({ provider: 'amazon', knob: 'nextChargeAs', state: 'CaptureInitiated' })).status).toBe(
      204,
    )
    const pending = await h.app.payments.amazonComplete(attempt.id)
    expect(pending.state).toBe('pending')
    const chargeId = pending.providerRefs.amazonChargeId!
    expect((await knob({ provider: 'amazon', knob: 'settleCharge', chargeId, to: 'Captured' })).status).toBe(
      204,
    )
    expect((await until(pending.id, 'captured')).confirmedAmountMinor).toBe(2200)
    expect((await knob({ provider: 'amazon', knob: 'settleCharge', chargeId, to: 'Captured' })).status).toBe(
      409,
    )
    expect((await knob({ provider: 'amazon', knob: 'explode' })).status).toBe(422)
    expect((await knob({ provider: 'paya', knob: 'recordNextAmount', amount: '-1' })).status).toBe(422)
  })
})
