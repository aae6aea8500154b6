/**
 * Opayo refunds and voids of a placed order's payment, against the simulator (ADR 0210): the
 * vendorTxCode derived from the refund id, a refusal with Opayo's words, and a lost answer that
 * only a person can resolve (Pi has no look-up by vendorTxCode).
 */
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startPaymentsHarness, type PaymentsHarness } from '../../../../../tests/http/payments/harness.ts'
import { context, paidByOpayo } from '../../../../../tests/http/payments/paid.ts'
import { opayoRefundCode } from './opayo.refund.ts'

let h: PaymentsHarness
beforeAll(async () => {
  h = await startPaymentsHarness()
}, 180_000)
afterAll(async () => h?.close())

const request = (amountMinor: number, mayVoid = false) => ({
  refundId: randomUUID(),
  amountMinor,
  currency: 'GBP' as const,
  idempotencyKey: randomUUID(),
  mayVoid,
})

describe('Opayo refunds against the simulator', () => {
  it('refunds part of a settled payment with a vendorTxCode derived from the refund id', async () => {
    const paid = await paidByOpayo(h, 2500)
    h.sims.opayo.endOfDay()
    const r = request(1000)
    const answer = await h.app.payments.adapters.sagepay!.refund(context(paid), r)
    expect(answer).toMatchObject({
      status: 'succeeded',
      how: 'refund',
      refs: { vendorTxCode: opayoRefundCode(r.refundId), opayoRefundTransactionId: expect.any(String) },
    })
    expect(opayoRefundCode(r.refundId)).toBe(opayoRefundCode(r.refundId))
    expect(h.sims.opayo.ledger(paid.providerRefs.opayoTransactionId!)!.refunds).toEqual([
      { transactionId: answer.refs.opayoRefundTransactionId, amountMinor: 1000 },
    ])
  })

  it('fails a refund beyond what is left with Opayo’s own message, refunding nothing', async () => {
    const paid = await paidByOpayo(h, 1000)
    h.sims.opayo.endOfDay()
    const answer = await h.app.payments.adapters.sagepay!.refund(context(paid), request(1001))
    expect(answer.status).toBe('failed')
    expect(answer.message).toContain('exceed the amount of the original transaction')
    expect(h.sims.opayo.ledger(paid.providerRefs.opayoTransactionId!)!.refunds).toEqual([])
  })

  it('voids a same-day payment when the whole amount may be voided, and refunds it after midnight', async () => {
    const today = await paidByOpayo(h, 1200)
    expect(await h.app.payments.adapters.sagepay!.refund(context(today), request(1200, true))).toMatchObject({
      status: 'succeeded',
      how: 'void',
    })
    const yesterday = await paidByOpayo(h, 1300)
    h.sims.opayo.endOfDay()
    expect(
      await h.app.payments.adapters.sagepay!.refund(context(yesterday), request(1300, true)),
    ).toMatchObject({
      status: 'succeeded',
      how: 'refund',
    })
  })

  it('throws when the answer is lost, and then asks a person instead of refunding twice', async () => {
    const paid = await paidByOpayo(h, 2000)
    h.sims.opayo.endOfDay()
    const adapter = h.app.payments.adapters.sagepay!
    const r = request(500)
    h.sims.faults.add({ provider: 'opayo', match: 'POST /transactions$', kind: 'timeoutAfter' })
    await expect(adapter.refund(context(paid), r)).rejects.toThrow(/timed out/)
    const status = await adapter.refundStatus(context(paid), { ...r, how: 'refund', refs: {} })
    expect(status).toMatchObject({
      status: 'unknown',
      askPerson: true,
      refs: { vendorTxCode: opayoRefundCode(r.refundId) },
    })
    expect(h.sims.opayo.ledger(paid.providerRefs.opayoTransactionId!)!.refunds).toHaveLength(1)
  })
})
