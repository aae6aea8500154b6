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
