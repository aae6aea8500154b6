import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { UNCLAIMED_PAYMENT_GRACE_MS } from '../../../src/server/modules/payments/payments.service.ts'
import { paymentAttempts } from '../../../src/server/modules/payments/payments.tables.ts'
import { orderRef, startPaymentsHarness, type PaymentsHarness } from './harness.ts'

let h: PaymentsHarness
beforeAll(async () => {
  h = await startPaymentsHarness()
}, 180_000)
afterAll(async () => h?.close())

/** A Paya attempt paid on the hosted form whose confirmation answer was a 5xx: unknown. */
async function unknownPaidAttempt() {
  const p = h.app.payments
  const attempt = await p.createAttempt({
    siteId: await h.siteId('northgate'),
    orderRef: orderRef(),
    method: 'paya',
    amountMinor: 4200,
    currency: 'USD',
  })
  const form = await p.payaForm(attempt.id, { orderNumber: attempt.orderRef, billingZip: '32606' })
  const page = await (await fetch(form.iframeUrl)).text()
  const field = (name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(page)![1]!
  await fetch(`${h.sims.origin}/paya/v2/payform/submit`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      hash: field('hash'),
      data: field('data'),
      account_number: '4111111111111111',
      exp_date: '1230',
      cvv: '999',
      billing_zip: '32606',
    }),
  })
  h.sims.faults.add({ provider: 'paya', match: 'GET /v2/transactions', kind: 'error500' })
  const lost = await p.payaConfirm(attempt.id)
  expect(lost.state).toBe('unknown')
  return lost
}

const due = (id: string) =>
  h.app.db
    .update(paymentAttempts)
    .set({ reconcileAfter: new Date(Date.now() - 1000) })
    .where(eq(paymentAttempts.id, id))

describe('the payments-reconcile job', () => {
  it('is registered and asks the provider about every due unknown attempt', async () => {
    expect(h.app.jobs.status().map((j) => j.name)).toContain('payments-reconcile')
    const lost = await unknownPaidAttempt()
    expect(lost.reconcileAfter).not.toBeNull()
    await due(lost.id)
    await h.app.jobs.runNow('payments-reconcile')
    const after = await h.app.payments.get(lost.id)
    expect(after?.state).toBe('captured')
    // Paid: due again only if no order claims it within the grace period (ADR 0071).
    expect(after!.reconcileAfter!.getTime()).toBeGreaterThan(Date.now() + UNCLAIMED_PAYMENT_GRACE_MS - 60_000)
  })

  it('keeps an attempt unknown, and due later, while the provider still fails', async () => {
    const lost = await unknownPaidAttempt()
    await due(lost.id)
    h.sims.faults.add({ provider: 'paya', match: 'GET /v2/transactions', kind: 'error500' })
    await h.app.jobs.runNow('payments-reconcile')
    const after = await h.app.payments.get(lost.id)
    expect(after?.state).toBe('unknown')
    expect(after!.reconcileAfter!.getTime()).toBeGreaterThan(Date.now() + 10_000)
    expect(after?.reconcileCount).toBe(1)
  })

  it('claims due attempts so a second pass running at the same time leaves them alone', async () => {
    const lost = await unknownPaidAttempt()
    await due(lost.id)
    const [first, second] = await Promise.all([h.app.payments.reconcileDue(), h.app.payments.reconcileDue()])
    const handled = [...first!, ...second!].filter((a) => a.id === lost.id)
    expect(handled).toHaveLength(1)
    expect(handled[0]?.state).toBe('captured')
  })
})
