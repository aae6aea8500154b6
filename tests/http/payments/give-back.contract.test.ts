/**
 * Giving money back, every provider (ADR 0130): `ProviderAdapter.void` voids what has not settled
 * and refunds what has, of the amount the provider says it took, with an idempotency key derived
 * from the attempt: a repeat (after a time-out, a 5xx or a lost answer) never gives back twice.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TransportError } from '../../../src/server/modules/payments/providers/http.ts'
import { startPaymentsHarness, type PaymentsHarness } from './harness.ts'
import { NotYetError } from '../../../src/server/modules/payments/providers/types.ts'
import { approvedPaypal, context, paidByOpayo, paidByPaya, returnedFromAmazon } from './paid.ts'

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

  it('a void whose answer was lost: the repeat neither voids nor refunds again, and is left for a person', async () => {
    const paid = await paidByOpayo(h)
    const id = paid.providerRefs.opayoTransactionId!
    h.sims.faults.add({
      provider: 'opayo',
      match: `POST /transactions/${id}/instructions`,
      kind: 'timeoutAfter',
    })
    await expect(opayo().void(context(paid))).rejects.toBeInstanceOf(TransportError)
    expect((await opayo().void(context(paid))).ok).toBe(false)
    expect(h.sims.opayo.ledger(id)).toMatchObject({ voided: true, refunds: [] })
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

  it('a void whose answer was lost: the repeat finds the sale voided', async () => {
    const paid = await paidByPaya(h, 1300)
    const id = paid.providerRefs.payaTransactionId!
    h.sims.faults.add({ provider: 'paya', match: `PUT /v2/transactions/${id}`, kind: 'timeoutAfter' })
    await expect(paya().void(context(paid))).rejects.toBeInstanceOf(TransportError)
    expect(await paya().void(context(paid))).toEqual({ ok: true, how: 'already_given_back' })
    expect(h.sims.paya.ledger(id)).toMatchObject({ status_id: 201, refunds: [] })
  })

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

describe('PayPal gives the money back', () => {
  const paypal = () => h.app.payments.adapters.paypal!
  async function captured(amount = 2349) {
    const { attempt } = await approvedPaypal(h, amount)
    const paid = await h.app.payments.paypalCapture(attempt.id)
    expect(paid.state).toBe('captured')
    return paid
  }

  it('refunds a capture in full with a PayPal-Request-Id from the attempt; a repeat answers the same refund', async () => {
    const paid = await captured(2349)
    const first = await paypal().void(context(paid))
    expect(first).toMatchObject({ ok: true, how: 'refunded', refs: { paypalRefundId: expect.any(String) } })
    expect(await paypal().void(context(paid))).toEqual(first)
    expect(h.sims.paypal.ledger(paid.providerRefs.paypalCaptureId!)).toMatchObject({
      status: 'REFUNDED',
      refunds: [{ status: 'COMPLETED', value: '23.49' }],
    })
  })

  it('voids an authorisation that was not captured; PayPal refuses a second void under another request id', async () => {
    const { attempt } = await approvedPaypal(h, 1500, 'AUTHORIZE')
    const authorised = await h.app.payments.paypalCapture(attempt.id, 'AUTHORIZE')
    expect(authorised.state).toBe('authorised')
    const authId = authorised.providerRefs.paypalAuthorizationId!
    expect(await paypal().void(context(authorised))).toEqual({ ok: true, how: 'voided' })
    expect(h.sims.paypal.authorization(authId)).toEqual({ status: 'VOIDED' })
    const other = await paypal().client.voidAuthorization(authId, 'another-request')
    expect(other.status).toBe(422)
    expect(JSON.stringify(other.json)).toContain('PREVIOUSLY_VOIDED')
    expect(await paypal().void(context(authorised))).toEqual({ ok: true, how: 'voided' })
  })

  for (const kind of ['timeoutAfter', 'error500'] as const) {
    it(`throws when the refund ${kind === 'timeoutAfter' ? 'answer is lost' : 'meets a 500'}, and the second try with the same request id refunds once`, async () => {
      const paid = await captured(1800)
      const captureId = paid.providerRefs.paypalCaptureId!
      h.sims.faults.add({ provider: 'paypal', match: `POST /v2/payments/captures/${captureId}/refund`, kind })
      await expect(paypal().void(context(paid))).rejects.toBeInstanceOf(TransportError)
      expect(await paypal().void(context(paid))).toMatchObject({ ok: true, how: 'refunded' })
      expect(h.sims.paypal.ledger(captureId)!.refunds).toHaveLength(1)
    })
  }

  it('a void of an authorisation whose answer was lost: the repeat with the same request id answers the first void', async () => {
    const { attempt } = await approvedPaypal(h, 1600, 'AUTHORIZE')
    const authorised = await h.app.payments.paypalCapture(attempt.id, 'AUTHORIZE')
    const authId = authorised.providerRefs.paypalAuthorizationId!
    h.sims.faults.add({
      provider: 'paypal',
      match: `POST /v2/payments/authorizations/${authId}/void`,
      kind: 'timeoutAfter',
    })
    await expect(paypal().void(context(authorised))).rejects.toBeInstanceOf(TransportError)
    expect(await paypal().void(context(authorised))).toEqual({ ok: true, how: 'voided' })
    expect(h.sims.paypal.authorization(authId)).toEqual({ status: 'VOIDED' })
  })

  it('refuses a refund larger than the capture (REFUND_AMOUNT_EXCEEDED)', async () => {
    const paid = await captured(1000)
    const res = await paypal().client.refundCapture(paid.providerRefs.paypalCaptureId!, 'too-much', {
      amount: { currency_code: 'GBP', value: '10.01' },
    })
    expect(res.status).toBe(422)
    expect(JSON.stringify(res.json)).toContain('REFUND_AMOUNT_EXCEEDED')
    expect(h.sims.paypal.ledger(paid.providerRefs.paypalCaptureId!)!.refunds).toEqual([])
  })

  it('says a refund PayPal finishes later is pending, with its id', async () => {
    const paid = await captured(1200)
    h.sims.paypal.refundNextAs('PENDING')
    const result = await paypal().void(context(paid))
    expect(result).toMatchObject({
      ok: true,
      how: 'refund_pending',
      refs: { paypalRefundId: expect.any(String) },
    })
    const refundId = (result as { refs: { paypalRefundId: string } }).refs.paypalRefundId
    await h.sims.paypal.settleRefund(refundId, 'COMPLETED')
    expect(h.sims.paypal.ledger(paid.providerRefs.paypalCaptureId!)!.status).toBe('REFUNDED')
  })

  it('cannot refund a capture that is still PENDING: it says so (try later) and refunds nothing; once completed it refunds', async () => {
    const { attempt } = await approvedPaypal(h, 2100)
    h.sims.paypal.captureNextAs('PENDING')
    const pending = await h.app.payments.paypalCapture(attempt.id)
    expect(pending.state).toBe('pending')
    await expect(paypal().void(context(pending))).rejects.toBeInstanceOf(NotYetError)
    const captureId = pending.providerRefs.paypalCaptureId!
    expect(h.sims.paypal.ledger(captureId)!.refunds).toEqual([])
    await h.sims.paypal.settleCapture(captureId, 'COMPLETED')
    expect(await paypal().void(context(pending))).toMatchObject({ ok: true, how: 'refunded' })
  })
})

describe('Amazon Pay gives the money back', () => {
  const amazon = () => h.app.payments.adapters.amazon!

  it('refunds a captured charge of the amount Amazon captured; the refund starts RefundInitiated and a repeat answers the same refund', async () => {
    h.sims.amazon.refundsSettleAfter(null)
    const { attempt } = await returnedFromAmazon(h, 2349)
    const paid = await h.app.payments.amazonComplete(attempt.id)
    expect(paid.state).toBe('captured')
    const first = await amazon().void(context(paid))
    expect(first).toMatchObject({
      ok: true,
      how: 'refund_pending',
      refs: { amazonRefundId: expect.any(String) },
    })
    expect(await amazon().void(context(paid))).toEqual(first)
    const chargeId = paid.providerRefs.amazonChargeId!
    expect(h.sims.amazon.ledger(chargeId)!.refunds).toEqual([
      {
        refundId: (first as { refs: { amazonRefundId: string } }).refs.amazonRefundId,
        state: 'RefundInitiated',
        amount: '23.49',
      },
    ])
    await h.sims.amazon.settleRefund(h.sims.amazon.ledger(chargeId)!.refunds[0]!.refundId, 'Refunded')
    expect(h.sims.amazon.ledger(chargeId)!.refunds[0]!.state).toBe('Refunded')
    h.sims.amazon.refundsSettleAfter(2000)
  })

  it('cancels a charge that was authorised but not captured', async () => {
    const { attempt, sessionId } = await returnedFromAmazon(h, 1500)
    const patched = await amazon().client.updateCheckoutSession(sessionId, {
      paymentDetails: { paymentIntent: 'Authorize' },
    })
    expect(patched.status).toBe(200)
    const paid = await h.app.payments.amazonComplete(attempt.id)
    expect(paid.state).toBe('authorised')
    expect(await amazon().void(context(paid))).toEqual({ ok: true, how: 'voided' })
    expect(h.sims.amazon.ledger(paid.providerRefs.amazonChargeId!)).toMatchObject({
      state: 'Canceled',
      refunds: [],
    })
    expect(await amazon().void(context(paid))).toEqual({ ok: true, how: 'already_given_back' })
  })

  for (const kind of ['timeoutAfter', 'error500'] as const) {
    it(`throws when the refund ${kind === 'timeoutAfter' ? 'answer is lost' : 'meets a 500'}, and the second try with the same idempotency key refunds once`, async () => {
      const { attempt } = await returnedFromAmazon(h, 1800)
      const paid = await h.app.payments.amazonComplete(attempt.id)
      h.sims.faults.add({ provider: 'amazon', match: 'POST /v2/refunds$', kind })
      await expect(amazon().void(context(paid))).rejects.toBeInstanceOf(TransportError)
      expect(await amazon().void(context(paid))).toMatchObject({ ok: true, how: 'refund_pending' })
      expect(h.sims.amazon.ledger(paid.providerRefs.amazonChargeId!)!.refunds).toHaveLength(1)
    })
  }

  it('refuses to cancel a captured charge (InvalidChargeStatus) and a refund above what can be refunded', async () => {
    const { attempt } = await returnedFromAmazon(h, 1000)
    const paid = await h.app.payments.amazonComplete(attempt.id)
    const chargeId = paid.providerRefs.amazonChargeId!
    const cancel = await amazon().client.cancelCharge(chargeId, 'test')
    expect(cancel.status).toBe(422)
    expect(cancel.json).toMatchObject({ reasonCode: 'InvalidChargeStatus' })
    const tooMuch = await amazon().client.createRefund(
      { chargeId, refundAmount: { amount: '11.51', currencyCode: 'GBP' } },
      'toomuch1',
    )
    expect(tooMuch.status).toBe(400)
    expect(tooMuch.json).toMatchObject({ reasonCode: 'TransactionAmountExceeded' })
    expect(h.sims.amazon.ledger(chargeId)).toMatchObject({ state: 'Captured', refunds: [] })
  })
})
