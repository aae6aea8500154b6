import { afterAll, beforeAll, describe, expect, it } from 'vitest'
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

describe('Amazon Pay adapter against the simulator', () => {
  async function session(card = '1111') {
    const p = h.app.payments
    const attempt = await p.createAttempt({
      siteId: await h.siteId('harbour'),
      orderRef: orderRef(),
      method: 'amazon',
      amountMinor: 2349,
      currency: 'GBP',
    })
    const button = p.adapters.amazon!.buttonConfig(`${h.shopOrigin}/checkout/amazon/review`)
    expect(button).toMatchObject({
      ledgerCurrency: 'GBP',
      checkoutLanguage: 'en_GB',
      productType: 'PayAndShip',
      algorithm: 'AMZN-PAY-RSASSA-PSS-V2',
    })
    const id = h.sims.amazon.buyerSignsIn(button.payloadJSON, button.signature, card)
    await p.amazonAttachSession(attempt.id, id)
    const s = await p.adapters.amazon!.getCheckoutSession(id)
    expect(s?.shippingAddress?.postalCode).toBe('BS1 4AA')
    const prepared = await p.amazonPrepare(attempt.id, {
      resultReturnUrl: `${h.shopOrigin}/checkout/amazon/result`,
      merchantReferenceId: attempt.orderRef,
      storeName: 'Harbour',
    })
    expect(prepared.state).toBe('requires_action')
    const redirect = await fetch((prepared.nextAction as { url: string }).url, { redirect: 'manual' })
    expect(redirect.headers.get('location')).toBe(
      `${h.shopOrigin}/checkout/amazon/result?amazonCheckoutSessionId=${id}`,
    )
    return { attempt, id }
  }

  it('signs the button, and completes the checkout session after the buyer returns', async () => {
    const { attempt } = await session()
    const after = await h.app.payments.amazonComplete(attempt.id)
    expect(after.state).toBe('captured')
    expect(after.providerRefs.amazonChargeId).toBeTruthy()
  })

  it('declines when Amazon declined the wallet card', async () => {
    const { attempt } = await session('3434')
    const after = await h.app.payments.amazonComplete(attempt.id)
    expect(after.state).toBe('declined')
    expect(after.lastCode).toBe('amazon_Declined')
  })

  it('completes once when the answer to complete was lost, and ignores a replayed IPN', async () => {
    h.sims.amazon.setIpnUrl(`${h.shopOrigin}/payments/notify/amazon`)
    const { attempt, id } = await session()
    h.sims.faults.add({
      provider: 'amazon',
      match: `POST /v2/checkoutSessions/${id}/complete`,
      kind: 'timeoutAfter',
    })
    // The IPN may resolve the attempt before our own call gives up: either way it ends captured once.
    expect(['unknown', 'captured']).toContain((await h.app.payments.amazonComplete(attempt.id)).state)
    const after = await h.app.payments.reconcile(attempt.id)
    expect(after.state).toBe('captured')
    expect(await h.sims.amazon.redeliver(after.providerRefs.amazonChargeId!)).toBe(200)
    expect((await h.app.payments.get(attempt.id))?.history).toEqual(after.history)
    h.sims.amazon.setIpnUrl(null)
  })

  it('refuses an IPN whose SNS signature does not verify', async () => {
    const res = await h.app.inject({
      method: 'POST',
      url: '/payments/notify/amazon',
      headers: { 'content-type': 'text/plain' },
      payload: JSON.stringify({
        Type: 'Notification',
        MessageId: 'x',
        Message: '{}',
        Timestamp: new Date().toISOString(),
        TopicArn: 'arn',
        SignatureVersion: '2',
        Signature: 'AAAA',
        SigningCertURL: `${h.sims.origin}/amazon/sns-cert.pem`,
      }),
    })
    expect(res.statusCode).toBe(400)
  })
})
