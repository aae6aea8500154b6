/**
 * Giving back the money of a paid attempt without an order, when two give it back at once (the
 * browser's refused placement and the reconciler's pass, or two instances): the resolution steps
 * are taken under the attempt's row lock (attempt.state.ts, ADR 0165), so the provider is asked
 * once, the attempt ends voided, and an order's claim racing the refusal either wins or finds
 * the money being given back, never both. Run on PostgreSQL too (DATABASE_URL): its row locks
 * are what make the two calls wait for each other.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { claimAttemptForOrder } from '../../../src/server/modules/payments/payments.service.ts'
import { startPaymentsHarness, type PaymentsHarness } from './harness.ts'
import { paidByOpayo, paidByPaya, row } from './paid.ts'

let h: PaymentsHarness
beforeAll(async () => {
  h = await startPaymentsHarness()
}, 180_000)
afterAll(async () => h?.close())

describe('two give-backs of one unclaimed payment at once', () => {
  it('voids an Opayo payment once: both calls answer voided, and no one is asked to refund it', async () => {
    const paid = await paidByOpayo(h)
    expect(paid.state).toBe('captured')
    expect(await h.app.payments.markVoiding(paid.id, 'order not placed: basket changed')).toBe(true)

    const both = await Promise.all([
      h.app.payments.voidUnclaimed(paid.id, 'order not placed: basket changed'),
      h.app.payments.voidUnclaimed(paid.id, 'order not placed: basket changed'),
    ])

    for (const after of both) expect(after).toMatchObject({ state: 'voided', resolution: 'voided' })
    const final = await row(h, paid.id)
    expect(final).toMatchObject({ state: 'voided', resolution: 'voided', reconcileAfter: null })
    expect(final.history.filter((e) => e.cause === 'void')).toHaveLength(1)
    expect(h.sims.opayo.ledger(paid.providerRefs.opayoTransactionId!)).toMatchObject({
      voided: true,
      refunds: [],
    })
  })

  it('refunds a settled Opayo payment once when the reconciler and the browser give it back together', async () => {
    const paid = await paidByOpayo(h, 1234)
    h.sims.opayo.endOfDay()
    expect(await h.app.payments.markVoiding(paid.id, 'the basket was ordered with another payment')).toBe(
      true,
    )

    const both = await Promise.all([
      h.app.payments.voidUnclaimed(paid.id, 'the basket was ordered with another payment'),
      h.app.payments.voidUnclaimed(paid.id, 'the basket was ordered with another payment'),
    ])

    for (const after of both) expect(after.resolution).toBe('voided')
    expect(h.sims.opayo.ledger(paid.providerRefs.opayoTransactionId!)!.refunds).toEqual([
      { transactionId: expect.any(String), amountMinor: 1234 },
    ])
  })

  it('gives a Paya payment back once', async () => {
    const paid = await paidByPaya(h)
    expect(await h.app.payments.markVoiding(paid.id, 'order not placed')).toBe(true)

    await Promise.all([
      h.app.payments.voidUnclaimed(paid.id, 'order not placed'),
      h.app.payments.voidUnclaimed(paid.id, 'order not placed'),
    ])

    const final = await row(h, paid.id)
    expect(final).toMatchObject({ state: 'voided', resolution: 'voided' })
    expect(final.history.filter((e) => e.cause === 'void')).toHaveLength(1)
    const ledger = h.sims.paya.ledger(paid.providerRefs.payaTransactionId!)!
    expect(ledger.refunds.length).toBeLessThanOrEqual(1)
  })

  it('never lets an order claim a payment being given back: the claim and the refusal race, one wins', async () => {
    for (let i = 0; i < 3; i++) {
      const paid = await paidByOpayo(h)
      const [claimed, refused] = await Promise.all([
        h.app.db.transaction((tx) => claimAttemptForOrder(tx, paid.id, paid.orderRef, 9000 + i)),
        h.app.payments.markVoiding(paid.id, 'order not placed'),
      ])
      // Exactly one of the two took the attempt.
      expect(claimed === null).toBe(refused)
      const final = await row(h, paid.id)
      expect(final.resolution).toBe(refused ? 'voiding' : 'order_placed')
      // Once voiding, a later claim is refused; once claimed, a later refusal is.
      if (refused)
        expect(
          await h.app.db.transaction((tx) => claimAttemptForOrder(tx, paid.id, paid.orderRef, 9100 + i)),
        ).toBeNull()
      else expect(await h.app.payments.markVoiding(paid.id, 'order not placed')).toBe(false)
    }
  })

  it('refuses to give back money no one marked voiding, and changes nothing', async () => {
    const paid = await paidByOpayo(h)
    await expect(h.app.payments.voidUnclaimed(paid.id, 'no reason')).rejects.toMatchObject({
      code: 'invalid_state',
    })
    const after = await row(h, paid.id)
    expect(after).toMatchObject({ state: 'captured', resolution: null })
    expect(h.sims.opayo.ledger(paid.providerRefs.opayoTransactionId!)).toMatchObject({ voided: false })
  })
})
