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

describe('Paya Connect adapter against the simulator', () => {
  async function payOnForm(amountMinor: number, card = '4111111111111111') {
    const p = h.app.payments
    const attempt = await p.createAttempt({
      siteId: await h.siteId('northgate'),
      orderRef: orderRef(),
      method: 'paya',
      amountMinor,
      currency: 'USD',
    })
    const form = await p.payaForm(attempt.id, { orderNumber: attempt.orderRef, billingZip: '32606' })
    expect(form.expectedOrigin).toBe(h.sims.origin)
    const page = await (await fetch(form.iframeUrl)).text()
    const hash = /name="hash" value="([^"]+)"/.exec(page)![1]!
    const data = /name="data" value="([^"]+)"/.exec(page)![1]!
    return {
      attempt,
      submit: () =>
        fetch(`${h.sims.origin}/paya/v2/payform/submit`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({
            hash,
            data,
            account_number: card,
            exp_date: '1230',
            cvv: '999',
            billing_zip: '32606',
          }),
        }),
    }
  }

  it('finds the hosted form payment by its transaction_api_id', async () => {
    const { attempt, submit } = await payOnForm(1999)
    expect((await h.app.payments.payaConfirm(attempt.id)).state).toBe('requires_action')
    expect((await submit()).status).toBe(200)
    const after = await h.app.payments.payaConfirm(attempt.id)
    expect(after.state).toBe('captured')
    expect(after.providerRefs.payaTransactionId).toBeTruthy()
  })

  it("declines with Paya's $5.00 test amount", async () => {
    const { attempt, submit } = await payOnForm(500)
    await submit()
    const after = await h.app.payments.payaConfirm(attempt.id)
    expect(after.state).toBe('declined')
    expect(after.lastCode).toBe('paya_1500')
  })

  it('refuses a form URL whose HMAC is wrong', async () => {
    const res = await fetch(
      `${h.sims.origin}/paya/v2/payform?developer-id=sim-developer&user-id=sim-user&timestamp=${Math.floor(Date.now() / 1000)}&hash-key=00&data=7b7d`,
    )
    expect(res.status).toBe(401)
  })

  it('reconciles after a lookup that failed with a 5xx, and ignores a replayed postback', async () => {
    const { attempt, submit } = await payOnForm(2500)
    await submit()
    h.sims.faults.add({ provider: 'paya', match: 'GET /v2/transactions', kind: 'error500' })
    expect((await h.app.payments.payaConfirm(attempt.id)).state).toBe('unknown')
    const after = await h.app.payments.reconcile(attempt.id)
    expect(after.state).toBe('captured')
    h.sims.paya.setPostback({
      url: `${h.shopOrigin}/payments/notify/paya`,
      user: 'sim-postback',
      password: 'sim-postback-password',
    })
    const id = after.providerRefs.payaTransactionId!
    expect(await h.sims.paya.redeliver(id)).toBe(200)
    expect(await h.sims.paya.redeliver(id)).toBe(200)
    const again = await h.app.payments.get(attempt.id)
    expect(again?.history).toEqual(after.history)
    expect(again?.state).toBe('captured')
    h.sims.paya.setPostback(null)
  })

  it('refuses a postback without the configured credentials', async () => {
    const res = await h.app.inject({
      method: 'POST',
      url: '/payments/notify/paya',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ type: 'CREATE', resource: 'transaction', data: '{"id":"x"}' }),
    })
    expect(res.statusCode).toBe(400)
  })
})

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
