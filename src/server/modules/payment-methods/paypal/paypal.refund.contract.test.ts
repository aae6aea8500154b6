/**
 * PayPal refunds of a placed order's capture, against the simulator (ADR 0210): the
 * PayPal-Request-Id derived from the refund id replays the first refund, PENDING refunds are read
 * again by id, and PayPal's refusals keep its issue code.
 */
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startPaymentsHarness, type PaymentsHarness } from '../../../../../tests/http/payments/harness.ts'
import { approvedPaypal, context } from '../../../../../tests/http/payments/paid.ts'
import { paypalRefundRequestId } from './paypal.refund.ts'

let h: PaymentsHarness
beforeAll(async () => {
  h = await startPaymentsHarness()
}, 180_000)
afterAll(async () => h?.close())

const request = (amountMinor: number) => ({
  refundId: randomUUID(),
  amountMinor,
  currency: 'GBP' as const,
  idempotencyKey: randomUUID(),
})

async function captured(amountMinor: number) {
  const { attempt } = await approvedPaypal(h, amountMinor)
  return h.app.payments.paypalCapture(attempt.id)
}

describe('PayPal refunds against the simulator', () => {
  it('refunds part of a capture with a PayPal-Request-Id derived from the refund id', async () => {
    const paid = await captured(2000)
    const r = request(600)
    const answer = await h.app.payments.adapters.paypal!.refund(context(paid), r)
    expect(answer).toMatchObject({
      status: 'succeeded',
      how: 'refund',
      refs: { paypalRequestId: paypalRefundRequestId(r.refundId), paypalRefundId: expect.any(String) },
    })
  })

  it('answers the first refund again when the same refund is sent twice, refunding once', async () => {
    const paid = await captured(2000)
    const adapter = h.app.payments.adapters.paypal!
    const r = request(500)
    const first = await adapter.refund(context(paid), r)
    const second = await adapter.refund(context(paid), r)
    expect(second.refs.paypalRefundId).toBe(first.refs.paypalRefundId)
    expect(h.sims.paypal.ledger(paid.providerRefs.paypalCaptureId!)!.refunds).toHaveLength(1)
  })

  it('gives one refund and the same answer to both when one refund is sent twice at once', async () => {
    const paid = await captured(2000)
    const adapter = h.app.payments.adapters.paypal!
    const r = request(700)
    const [a, b] = await Promise.all([adapter.refund(context(paid), r), adapter.refund(context(paid), r)])
    expect(a.status).toBe('succeeded')
    expect(b).toEqual(a)
    expect(h.sims.paypal.ledger(paid.providerRefs.paypalCaptureId!)!.refunds).toHaveLength(1)
  })

  it('fails a refund beyond what is left with REFUND_AMOUNT_EXCEEDED', async () => {
    const paid = await captured(1000)
    const answer = await h.app.payments.adapters.paypal!.refund(context(paid), request(1001))
    expect(answer.status).toBe('failed')
    expect(answer.message).toContain('REFUND_AMOUNT_EXCEEDED')
  })

  it('reads a PENDING refund again by its id until it completes', async () => {
    const paid = await captured(2000)
    const adapter = h.app.payments.adapters.paypal!
    h.sims.paypal.refundNextAs('PENDING')
    const r = request(2000)
    const pending = await adapter.refund(context(paid), r)
    expect(pending).toMatchObject({ status: 'pending', message: 'PayPal PENDING: ECHECK' })
    const ctx = { ...r, how: 'refund' as const, refs: pending.refs }
    expect((await adapter.refundStatus(context(paid), ctx)).status).toBe('pending')
    await h.sims.paypal.settleRefund(pending.refs.paypalRefundId!, 'COMPLETED')
    expect(await adapter.refundStatus(context(paid), ctx)).toMatchObject({ status: 'succeeded' })
  })

  it('refuses a refund the sandbox is told to refuse (PayPal-Mock-Response), refunding nothing', async () => {
    const paid = await captured(1500)
    const { client } = h.app.payments.adapters.paypal!
    const res = await client.call(
      'POST',
      `/v2/payments/captures/${paid.providerRefs.paypalCaptureId}/refund`,
      {},
      {
        'paypal-request-id': randomUUID(),
        'paypal-mock-response': JSON.stringify({
          mock_application_codes: 'REFUND_FAILED_INSUFFICIENT_FUNDS',
        }),
      },
    )
    expect(res.status).toBe(422)
    expect(res.text).toContain('REFUND_FAILED_INSUFFICIENT_FUNDS')
    expect(h.sims.paypal.ledger(paid.providerRefs.paypalCaptureId!)!.refunds).toEqual([])
  })
})
