/**
 * Amazon Pay refunds of a placed order's charge, against the simulator (ADR 0210): always
 * RefundInitiated first, Refunded or Declined later; the idempotency key derived from the refund
 * id replays the first refund; a charge not captured is cancelled instead.
 */
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startPaymentsHarness, type PaymentsHarness } from '../../../../../tests/http/payments/harness.ts'
import { context, returnedFromAmazon } from '../../../../../tests/http/payments/paid.ts'
import { AMAZON_AUTHORISATION_EXPIRED, amazonRefundKey } from './amazon.refund.ts'

let h: PaymentsHarness
beforeAll(async () => {
  h = await startPaymentsHarness()
  h.sims.amazon.refundsSettleAfter(null)
}, 180_000)
afterAll(async () => h?.close())

const request = (amountMinor: number, mayVoid = false) => ({
  refundId: randomUUID(),
  amountMinor,
  currency: 'GBP' as const,
  idempotencyKey: randomUUID(),
  mayVoid,
})

async function charged(amountMinor: number) {
  const { attempt } = await returnedFromAmazon(h, amountMinor)
  return h.app.payments.amazonComplete(attempt.id)
}

/** A charge authorised but not captured (the sandbox's pending wallet card, then Authorized). */
async function authorised(amountMinor: number) {
  const { attempt } = await returnedFromAmazon(h, amountMinor, '0701')
  const pending = await h.app.payments.amazonComplete(attempt.id)
  await h.sims.amazon.settleCharge(pending.providerRefs.amazonChargeId!, 'Authorized')
  const row = await h.app.payments.reconcile(attempt.id)
  expect(row.state).toBe('authorised')
  return row
}

const DAY = 24 * 60 * 60 * 1000
const capture = (chargeId: string, amount: string) =>
  h.app.payments.adapters.amazon!.client.call(
    'POST',
    `charges/${chargeId}/capture`,
    { captureAmount: { amount, currencyCode: 'GBP' }, softDescriptor: 'HARBOUR' },
    randomUUID().replaceAll('-', ''),
  )

describe('Amazon Pay refunds against the simulator', () => {
  it('answers RefundInitiated (pending), and Refunded once Amazon has finished', async () => {
    const paid = await charged(2349)
    const adapter = h.app.payments.adapters.amazon!
    const r = request(1000)
    const answer = await adapter.refund(context(paid), r)
    expect(answer).toMatchObject({
      status: 'pending',
      refs: { amazonIdempotencyKey: amazonRefundKey(r.refundId), amazonRefundId: expect.any(String) },
    })
    const ctx = { ...r, how: 'refund' as const, refs: answer.refs }
    expect((await adapter.refundStatus(context(paid), ctx)).status).toBe('pending')
    await h.sims.amazon.settleRefund(answer.refs.amazonRefundId!, 'Refunded')
    expect(await adapter.refundStatus(context(paid), ctx)).toMatchObject({ status: 'succeeded' })
  })

  it('says Declined with Amazon’s reason', async () => {
    const paid = await charged(2000)
    const adapter = h.app.payments.adapters.amazon!
    const r = request(2000)
    const answer = await adapter.refund(context(paid), r)
    await h.sims.amazon.settleRefund(answer.refs.amazonRefundId!, 'Declined')
    expect(
      await adapter.refundStatus(context(paid), { ...r, how: 'refund', refs: answer.refs }),
    ).toMatchObject({
      status: 'failed',
      message: 'Amazon Declined: AmazonRejected',
    })
  })

  it('declines refunds after the delay when the simulator service is told to (its control endpoint)', async () => {
    const knob = (body: object) =>
      fetch(`${h.sims.origin}/__sim/control/knobs`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ provider: 'amazon', knob: 'refundsSettleAfter', ...body }),
      })
    expect((await knob({ ms: 20, to: 'Declined' })).status).toBe(204)
    try {
      const paid = await charged(1500)
      const adapter = h.app.payments.adapters.amazon!
      const r = request(1500)
      const answer = await adapter.refund(context(paid), r)
      expect(answer.status).toBe('pending')
      await new Promise((resolve) => setTimeout(resolve, 200))
      expect(
        await adapter.refundStatus(context(paid), { ...r, how: 'refund', refs: answer.refs }),
      ).toMatchObject({
        status: 'failed',
      })
    } finally {
      expect((await knob({ ms: null })).status).toBe(204)
    }
  })

  it('replays the first refund for the same refund id after a lost answer, refunding once', async () => {
    const paid = await charged(3000)
    const adapter = h.app.payments.adapters.amazon!
    const r = request(1200)
    h.sims.faults.add({ provider: 'amazon', match: 'POST /v2/refunds', kind: 'timeoutAfter' })
    await expect(adapter.refund(context(paid), r)).rejects.toThrow()
    const status = await adapter.refundStatus(context(paid), { ...r, how: 'refund', refs: {} })
    expect(status).toMatchObject({ status: 'pending', refs: { amazonRefundId: expect.any(String) } })
    expect(h.sims.amazon.ledger(paid.providerRefs.amazonChargeId!)!.refunds).toHaveLength(1)
  })

  it('gives one refund and the same answer to both when one refund is sent twice at once', async () => {
    const paid = await charged(2500)
    const adapter = h.app.payments.adapters.amazon!
    const r = request(900)
    const [a, b] = await Promise.all([adapter.refund(context(paid), r), adapter.refund(context(paid), r)])
    expect(a.status).toBe('pending')
    expect(b).toEqual(a)
    expect(h.sims.amazon.ledger(paid.providerRefs.amazonChargeId!)!.refunds).toHaveLength(1)
  })

  it('refuses a refund without the idempotency header', async () => {
    const paid = await charged(1000)
    const res = await h.app.payments.adapters.amazon!.client.call('POST', 'refunds', {
      chargeId: paid.providerRefs.amazonChargeId,
      refundAmount: { amount: '1.00', currencyCode: 'GBP' },
    })
    expect(res.status).toBe(400)
    expect(res.text).toContain('x-amz-pay-idempotency-key')
  })

  it('captures an authorisation within its 30 days, and refuses to capture or cancel one that lapsed', async () => {
    const fresh = await authorised(1200)
    const old = await authorised(1500)
    h.sims.amazon.passTime(29 * DAY)
    const taken = await capture(fresh.providerRefs.amazonChargeId!, '12.00')
    expect(taken.status, taken.text).toBe(200)
    expect(h.sims.amazon.ledger(fresh.providerRefs.amazonChargeId!)!.state).toBe('Captured')
    h.sims.amazon.passTime(1 * DAY + 60_000)
    const id = old.providerRefs.amazonChargeId!
    const refused = await capture(id, '15.00')
    expect(refused.status).toBe(422)
    expect(refused.json).toMatchObject({
      reasonCode: 'InvalidChargeStatus',
      message: expect.stringContaining('Canceled (ExpiredUnused)'),
    })
    expect(h.sims.amazon.ledger(id)).toMatchObject({ state: 'Canceled', reasonCode: 'ExpiredUnused' })
    const cancel = await h.app.payments.adapters.amazon!.client.cancelCharge(id, 'late')
    expect(cancel.status).toBe(422)
  })

  it('gives back nothing for a lapsed authorisation, saying so, without cancelling it again', async () => {
    const old = await authorised(1800)
    h.sims.amazon.passTime(31 * DAY)
    const adapter = h.app.payments.adapters.amazon!
    const voided = await adapter.refund(context(old), request(1800, true))
    expect(voided).toEqual({
      status: 'succeeded',
      how: 'void',
      refs: {},
      amountMinor: 0,
      message: AMAZON_AUTHORISATION_EXPIRED,
    })
    expect(h.sims.amazon.ledger(old.providerRefs.amazonChargeId!)!.reasonCode).toBe('ExpiredUnused')
    const refund = await adapter.refund(context(old), request(1800))
    expect(refund).toMatchObject({ status: 'failed', message: AMAZON_AUTHORISATION_EXPIRED })
  })
})
