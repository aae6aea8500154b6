/**
 * Giving money back, every provider (ADR 0130): `ProviderAdapter.void` voids what has not settled
 * and refunds what has, of the amount the provider says it took, with an idempotency key derived
 * from the attempt: a repeat (after a time-out, a 5xx or a lost answer) never gives back twice.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TransportError } from '../../../src/server/modules/payments/providers/http.ts'
import { startPaymentsHarness, type PaymentsHarness } from './harness.ts'
import { context, paidByOpayo, paidByPaya } from './paid.ts'

let h: PaymentsHarness
beforeAll(async () => {
  h = await startPaymentsHarness()
}, 180_000)
afterAll(async () => h?.close())

describe('Opayo gives the money back', () => {
  const opayo = () => h.app.payments.adapters.sagepay!

  it('voids a payment taken today, and a repeat is refused without refunding anything', async () => {
    const paid = await paidByOpayo(h)
    expect(paid.state).toBe('captured')
    expect(await opayo().void(context(paid))).toEqual({ ok: true, how: 'voided' })
    const again = await opayo().void(context(paid))
    expect(again.ok).toBe(false)
    expect(h.sims.opayo.ledger(paid.providerRefs.opayoTransactionId!)).toMatchObject({
      voided: true,
      refunds: [],
    })
  })

  it('refunds the amount Opayo took once the day has settled, with a vendorTxCode of its own', async () => {
    const paid = await paidByOpayo(h, 2349)
    h.sims.opayo.endOfDay()
    const result = await opayo().void(context(paid))
    expect(result).toMatchObject({
      ok: true,
      how: 'refunded',
      refs: { opayoRefundTransactionId: expect.any(String) },
    })
    const ledger = h.sims.opayo.ledger(paid.providerRefs.opayoTransactionId!)!
    expect(ledger.voided).toBe(false)
    expect(ledger.refunds).toEqual([{ transactionId: expect.any(String), amountMinor: 2349 }])
  })

  it('refunds what Opayo recorded, not what the shop asked, when the two differ', async () => {
    h.sims.opayo.recordNextAmount(1)
    const paid = await paidByOpayo(h, 2349)
    expect(paid.confirmedAmountMinor).toBe(1)
    h.sims.opayo.endOfDay()
    expect((await opayo().void(context(paid))).ok).toBe(true)
    expect(h.sims.opayo.ledger(paid.providerRefs.opayoTransactionId!)!.refunds).toEqual([
      { transactionId: expect.any(String), amountMinor: 1 },
    ])
  })

  for (const kind of ['timeout', 'error500'] as const) {
    it(`throws when the refund ${kind === 'timeout' ? 'times out before reaching Opayo' : 'meets a 500'}, and the second try refunds once`, async () => {
      const paid = await paidByOpayo(h)
      h.sims.opayo.endOfDay()
      h.sims.faults.add({ provider: 'opayo', match: 'POST /transactions$', kind })
      await expect(opayo().void(context(paid))).rejects.toBeInstanceOf(TransportError)
      expect(h.sims.opayo.ledger(paid.providerRefs.opayoTransactionId!)!.refunds).toHaveLength(0)
      expect(await opayo().void(context(paid))).toMatchObject({ ok: true, how: 'refunded' })
      expect(h.sims.opayo.ledger(paid.providerRefs.opayoTransactionId!)!.refunds).toHaveLength(1)
    })
  }

  it('never refunds twice when the answer to the refund was lost: the repeat is refused as a duplicate and asks a person to check', async () => {
    const paid = await paidByOpayo(h)
    h.sims.opayo.endOfDay()
    h.sims.faults.add({ provider: 'opayo', match: 'POST /transactions$', kind: 'timeoutAfter' })
    await expect(opayo().void(context(paid))).rejects.toBeInstanceOf(TransportError)
    const again = await opayo().void(context(paid))
    expect(again).toMatchObject({ ok: false, message: expect.stringContaining('MyOpayo') })
    expect(h.sims.opayo.ledger(paid.providerRefs.opayoTransactionId!)!.refunds).toHaveLength(1)
  })

  it('refuses a refund larger than the payment (403 1018) and a void after midnight (403)', async () => {
    const paid = await paidByOpayo(h, 1000)
    const id = paid.providerRefs.opayoTransactionId!
    const client = opayo().client
    const tooMuch = await client.createTransaction({
      transactionType: 'Refund',
      referenceTransactionId: id,
      vendorTxCode: `T-${Date.now()}`,
      amount: 1001,
      description: 'too much',
    })
    expect(tooMuch.status).toBe(403)
    expect(tooMuch.json).toMatchObject({ code: '1018' })
    h.sims.opayo.endOfDay()
    expect((await client.instruction(id, 'void')).status).toBe(403)
    expect(h.sims.opayo.ledger(id)).toMatchObject({ voided: false, refunds: [] })
  })
})

describe('Paya gives the money back', () => {
  const paya = () => h.app.payments.adapters.paya!

  it('voids a sale whose batch has not settled, and a repeat finds it voided', async () => {
    const paid = await paidByPaya(h, 1999)
    expect(paid.state).toBe('captured')
    expect(await paya().void(context(paid))).toEqual({ ok: true, how: 'voided' })
    expect(await paya().void(context(paid))).toEqual({ ok: true, how: 'already_given_back' })
    expect(h.sims.paya.ledger(paid.providerRefs.payaTransactionId!)).toMatchObject({
      status_id: 201,
      refunds: [],
    })
  })

  it('refunds a settled sale with previous_transaction_id, and a repeat finds that refund instead of making another', async () => {
    const paid = await paidByPaya(h, 1999)
    h.sims.paya.settleBatch()
    const first = await paya().void(context(paid))
    expect(first).toMatchObject({
      ok: true,
      how: 'refunded',
      refs: { payaRefundTransactionId: expect.any(String) },
    })
    expect(await paya().void(context(paid))).toEqual(first)
    expect(h.sims.paya.ledger(paid.providerRefs.payaTransactionId!)!.refunds).toEqual([
      {
        id: (first as { refs: { payaRefundTransactionId: string } }).refs.payaRefundTransactionId,
        transaction_amount: '19.99',
      },
    ])
  })

  for (const kind of ['timeoutAfter', 'error500'] as const) {
    it(`throws when the refund ${kind === 'timeoutAfter' ? 'answer is lost' : 'meets a 500'}, and the second try gives back once`, async () => {
      const paid = await paidByPaya(h, 2500)
      h.sims.paya.settleBatch()
      h.sims.faults.add({ provider: 'paya', match: 'POST /v2/transactions', kind })
      await expect(paya().void(context(paid))).rejects.toBeInstanceOf(TransportError)
      expect(await paya().void(context(paid))).toMatchObject({ ok: true, how: 'refunded' })
      expect(h.sims.paya.ledger(paid.providerRefs.payaTransactionId!)!.refunds).toHaveLength(1)
    })
  }

  it('refuses to void a settled sale (422) and to refund more than it took (422)', async () => {
    const paid = await paidByPaya(h, 1200)
    h.sims.paya.settleBatch()
    const id = paid.providerRefs.payaTransactionId!
    const voided = await paya().client.update(id, 'void')
    expect(voided.status).toBe(422)
    const tooMuch = await paya().client.refund({
      action: 'refund',
      payment_method: 'cc',
      previous_transaction_id: id,
      transaction_amount: '12.01',
      product_transaction_id: h.providers.paya!.productTransactionId,
    })
    expect(tooMuch.status).toBe(422)
    expect(h.sims.paya.ledger(id)).toMatchObject({ status_id: 101, refunds: [] })
  })
})
