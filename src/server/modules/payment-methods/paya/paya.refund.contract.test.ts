/**
 * Paya refunds and voids of a placed order's sale, against the simulator (ADR 0210): Paya has no
 * idempotency, so the refund's transaction_api_id (derived from the refund id) is looked up
 * before anything is sent again.
 */
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startPaymentsHarness, type PaymentsHarness } from '../../../../../tests/http/payments/harness.ts'
import { context, paidByPaya } from '../../../../../tests/http/payments/paid.ts'
import { payaRefundApiId } from './paya.refund.ts'

let h: PaymentsHarness
beforeAll(async () => {
  h = await startPaymentsHarness()
}, 180_000)
afterAll(async () => h?.close())

const request = (amountMinor: number, mayVoid = false) => ({
  refundId: randomUUID(),
  amountMinor,
  currency: 'USD' as const,
  idempotencyKey: randomUUID(),
  mayVoid,
})

describe('Paya refunds against the simulator', () => {
  it('refunds part of a settled sale (status 111) under the refund’s own api id', async () => {
    const paid = await paidByPaya(h, 2000)
    h.sims.paya.settleBatch()
    const r = request(750)
    const answer = await h.app.payments.adapters.paya!.refund(context(paid), r)
    expect(answer).toMatchObject({
      status: 'succeeded',
      how: 'refund',
      refs: {
        payaTransactionApiId: payaRefundApiId(r.refundId),
        payaRefundTransactionId: expect.any(String),
      },
    })
  })

  it('fails a refund Paya denies ($5.00 in its test data) with Paya’s words', async () => {
    const paid = await paidByPaya(h, 2000)
    h.sims.paya.settleBatch()
    const answer = await h.app.payments.adapters.paya!.refund(context(paid), request(500))
    expect(answer).toMatchObject({ status: 'failed', message: 'Paya 301: DENY' })
    expect(h.sims.paya.ledger(paid.providerRefs.payaTransactionId!)!.refunds).toEqual([])
  })

  it('fails a refund beyond the sale with Paya’s validation message', async () => {
    const paid = await paidByPaya(h, 1000)
    h.sims.paya.settleBatch()
    const answer = await h.app.payments.adapters.paya!.refund(context(paid), request(1001))
    expect(answer.status).toBe('failed')
    expect(answer.message).toContain('exceeds the amount available to refund')
  })

  it('would refund twice without the look-up: a second POST with no api id is a second refund', async () => {
    const paid = await paidByPaya(h, 3000)
    h.sims.paya.settleBatch()
    const { config } = h.app.payments.adapters.paya!.client
    const post = () =>
      h.app.payments.adapters.paya!.client.refund({
        action: 'refund',
        payment_method: 'cc',
        previous_transaction_id: paid.providerRefs.payaTransactionId,
        transaction_amount: '1.00',
        location_id: config.locationId,
        product_transaction_id: config.productTransactionId,
      })
    expect((await post()).status).toBe(201)
    expect((await post()).status).toBe(201)
    expect(h.sims.paya.ledger(paid.providerRefs.payaTransactionId!)!.refunds).toHaveLength(2)
  })

  it('finds a refund whose answer was lost by its api id instead of sending it again', async () => {
    const paid = await paidByPaya(h, 2500)
    h.sims.paya.settleBatch()
    const adapter = h.app.payments.adapters.paya!
    const r = request(1000)
    h.sims.faults.add({ provider: 'paya', match: 'POST /v2/transactions', kind: 'timeoutAfter' })
    await expect(adapter.refund(context(paid), r)).rejects.toThrow()
    const status = await adapter.refundStatus(context(paid), { ...r, how: 'refund', refs: {} })
    expect(status).toMatchObject({ status: 'succeeded', how: 'refund' })
    expect(h.sims.paya.ledger(paid.providerRefs.payaTransactionId!)!.refunds).toHaveLength(1)
  })

  it('voids an unsettled sale given back in full (status 201)', async () => {
    const paid = await paidByPaya(h, 1800)
    const answer = await h.app.payments.adapters.paya!.refund(context(paid), request(1800, true))
    expect(answer).toMatchObject({ status: 'succeeded', how: 'void' })
    expect(h.sims.paya.ledger(paid.providerRefs.payaTransactionId!)).toMatchObject({ status_id: 201 })
  })
})
