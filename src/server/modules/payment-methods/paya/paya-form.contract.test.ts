/**
 * Paya's hosted form and the amount (issue 29, defect 2: "The hosted form's data can be changed to
 * charge 0.01"). The form's data is issued with its signed URL: the simulator, like Paya, refuses a
 * form whose data was changed after it was issued, and charges nothing. What Paya records is read
 * from Paya (GET by transaction_api_id), never from the browser: `confirmed` states Paya's amount.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startPaymentsHarness, type PaymentsHarness } from '../../../../../tests/http/payments/harness.ts'
import { payaForm } from '../../../../../tests/http/payments/paid.ts'

let h: PaymentsHarness
beforeAll(async () => {
  h = await startPaymentsHarness()
}, 180_000)
afterAll(async () => h?.close())

const hex = (v: unknown) => Buffer.from(JSON.stringify(v), 'utf8').toString('hex')
const unhex = (v: string) =>
  JSON.parse(Buffer.from(v, 'hex').toString('utf8')) as { transaction: Record<string, unknown> }

/** Paya's own record of the form's transaction, by the transaction_api_id our server chose. */
async function recorded(apiId: string) {
  const { transaction } = await h.app.payments.adapters.paya!.client.findByApiId(apiId)
  return transaction
}

describe("Paya's hosted form cannot be made to charge another amount", () => {
  it('refuses a form whose amount was changed in the browser before submitting, and charges nothing', async () => {
    const { attempt, data, submit } = await payaForm(h, 2349)
    const changed = unhex(data)
    expect(changed.transaction.transaction_amount).toBe('23.49')
    changed.transaction.transaction_amount = '0.01'
    const res = await submit({ data: hex(changed) })
    expect(res.status).toBe(400)
    expect(await res.text()).toContain('The payment form was changed')
    const apiId = String(unhex(data).transaction.transaction_api_id)
    expect(await recorded(apiId)).toBeNull()
    expect((await h.app.payments.payaConfirm(attempt.id)).state).toBe('requires_action')
    // The form as issued still pays the basket's amount.
    expect((await submit()).status).toBe(200)
    const after = await h.app.payments.payaConfirm(attempt.id)
    expect(after).toMatchObject({ state: 'captured', confirmedAmountMinor: 2349, confirmedCurrency: 'USD' })
  })

  it('refuses the signed form URL loaded again with other data', async () => {
    const { form, data } = await payaForm(h, 1500)
    const changed = unhex(data)
    changed.transaction.transaction_amount = '0.01'
    const url = new URL(form.iframeUrl)
    url.searchParams.set('data', hex(changed))
    const res = await fetch(url)
    expect(res.status).toBe(401)
    expect(await res.text()).toContain('Hash key is invalid')
  })

  it("states Paya's own amount when Paya records another amount than the form asked", async () => {
    const { attempt, submit } = await payaForm(h, 2349)
    h.sims.paya.recordNextAmount('0.01')
    expect((await submit()).status).toBe(200)
    const after = await h.app.payments.payaConfirm(attempt.id)
    expect(after.state).toBe('captured')
    expect(after.amountMinor).toBe(2349)
    expect({ amountMinor: after.confirmedAmountMinor, currency: after.confirmedCurrency }).toEqual({
      amountMinor: 1,
      currency: 'USD',
    })
  })

  it('a URL changed before the form was first loaded charges what it says, and confirmed says so (the HMAC covers user-id and timestamp only)', async () => {
    const p = h.app.payments
    const { form, attempt } = await (async () => {
      const attempt = await p.createAttempt({
        siteId: await h.siteId('northgate'),
        orderRef: `test-${Math.random().toString(36).slice(2, 10)}`,
        method: 'paya',
        amountMinor: 2349,
        currency: 'USD',
      })
      return {
        attempt,
        form: await p.payaForm(attempt.id, { orderNumber: attempt.orderRef, billingZip: '32606' }),
      }
    })()
    const url = new URL(form.iframeUrl)
    const changed = unhex(url.searchParams.get('data')!)
    changed.transaction.transaction_amount = '0.01'
    url.searchParams.set('data', hex(changed))
    const page = await (await fetch(url)).text()
    expect(page).toContain('Amount: $0.01')
    const res = await fetch(`${h.sims.origin}/paya/v2/payform/submit`, {
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
    expect(res.status).toBe(200)
    // The shop's own (genuine) form cannot be loaded any more: its hash-key now belongs to the changed form.
    expect((await fetch(form.iframeUrl)).status).toBe(401)
    const after = await p.payaConfirm(attempt.id)
    expect(after.state).toBe('captured')
    expect(after.confirmedAmountMinor).toBe(1)
    expect(after.amountMinor).toBe(2349)
  })
})
