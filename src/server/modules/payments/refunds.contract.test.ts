/**
 * The refund ledger against the simulators and a real database (PGlite, or PostgreSQL with
 * DATABASE_URL: its row locks are what make two refunds at once wait for each other). Orders are
 * rows of the real `orders` table, each claiming a payment attempt paid through the simulator.
 */
import { randomUUID } from 'node:crypto'
import { asc, eq, like, sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { startPaymentsHarness, type PaymentsHarness } from '../../../../tests/http/payments/harness.ts'
import {
  paidByOpayo,
  paidByPaya,
  approvedPaypal,
  returnedFromAmazon,
} from '../../../../tests/http/payments/paid.ts'
import { mailJobs, orderEvents, orders } from '../../db/schema.ts'
import { DomainError } from '../../lib/domain-error.ts'
import { AMAZON_AUTHORISATION_EXPIRED } from '../payment-methods/amazon/amazon.refund.ts'
import type { PaymentAttempt } from './payments.service.ts'
import type { RefundSettled } from './refunds.types.ts'

let h: PaymentsHarness
beforeAll(async () => {
  h = await startPaymentsHarness()
  h.sims.paypal.setWebhookUrl(`${h.shopOrigin}/payments/notify/paypal`)
  h.sims.amazon.setIpnUrl(`${h.shopOrigin}/payments/notify/amazon`)
}, 180_000)
afterAll(async () => h?.close())

const settled = vi.fn<RefundSettled>(async () => undefined)
beforeEach(() => {
  settled.mockClear()
  h.app.payments.onRefundSettled = settled
  h.sims.faults.clear()
})

const staff = { kind: 'staff' as const, name: 'Jo in the office' }
const key = () => `key-${randomUUID()}`

/** An order row claiming `attempt` (or a purchase order of `totalMinor` when null); its id. */
async function orderFor(
  attempt: PaymentAttempt | null,
  totalMinor = attempt?.amountMinor ?? 0,
): Promise<string> {
  const address = {
    company: '',
    address1: '1 Quay',
    address2: '',
    town: 'Poole',
    county: '',
    postcode: 'BH15 1AA',
    country: 'GB',
  }
  const contact = { first_name: 'Sam', last_name: 'Jones', email: 'sam@example.com', phone: '', company: '' }
  const result = await h.app.db.execute(sql`
    insert into orders (site_id, cart_ref, status, currency, payment_method, contact, shipping_address,
      billing_address, goods_net, shipping_net, shipping_vat, vat, discount, total_inc_vat, payment_attempt_id)
    values (${await h.siteId(attempt?.currency === 'USD' ? 'northgate' : 'harbour')}, ${randomUUID()}, 'placed',
      ${attempt?.currency ?? 'GBP'}, ${attempt?.method ?? 'purchase_order'}, ${JSON.stringify(contact)}::jsonb,
      ${JSON.stringify(address)}::jsonb, ${JSON.stringify(address)}::jsonb, ${totalMinor}, 0, 0, 0, 0,
      ${totalMinor}, ${attempt?.id ?? null})
    returning id`)
  const rows = (Array.isArray(result) ? result : (result as { rows: { id: number }[] }).rows) as {
    id: number
  }[]
  return String(rows[0]!.id)
}

async function paidByPaypal(amountMinor = 2349): Promise<PaymentAttempt> {
  const { attempt } = await approvedPaypal(h, amountMinor)
  const captured = await h.app.payments.paypalCapture(attempt.id)
  expect(captured.state).toBe('captured')
  return captured
}

async function paidByAmazon(amountMinor = 2349): Promise<PaymentAttempt> {
  const { attempt } = await returnedFromAmazon(h, amountMinor)
  const completed = await h.app.payments.amazonComplete(attempt.id)
  expect(completed.state).toBe('captured')
  return completed
}

/** Lets the reconciler ask now about every pending or unknown refund, and runs its job. */
async function reconcileNow(): Promise<void> {
  await h.app.db.execute(
    sql`update payment_refunds set reconcile_after = now() - interval '1 second' where reconcile_after is not null`,
  )
  await h.app.jobs.runNow('refund-reconcile')
}

async function until(check: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const end = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out waiting')
    await new Promise((r) => setTimeout(r, 50))
  }
}

describe('refunds of a card payment (Opayo)', () => {
  it('refunds part of a settled payment, then refuses more than is left, then refunds the rest', async () => {
    const paid = await paidByOpayo(h, 2349)
    const orderId = await orderFor(paid)
    h.sims.opayo.endOfDay()

    const first = await h.app.refunds.refund({
      orderId,
      amountMinor: 1000,
      idempotencyKey: key(),
      reason: 'damaged',
      actor: staff,
    })
    expect(first).toMatchObject({ status: 'succeeded', how: 'refund', amountMinor: 1000 })

    const tooMuch = h.app.refunds.refund({
      orderId,
      amountMinor: 1400,
      idempotencyKey: key(),
      reason: 'more',
      actor: staff,
    })
    await expect(tooMuch).rejects.toMatchObject({
      code: 'refund_exceeds_refundable',
      answer: { refundableMinor: 1349 },
    })

    const rest = await h.app.refunds.giveBackAll({
      orderId,
      idempotencyKey: key(),
      reason: 'cancelled',
      actor: staff,
    })
    expect(rest).toMatchObject({ status: 'succeeded', how: 'refund', amountMinor: 1349 })
    expect(
      h.sims.opayo.ledger(paid.providerRefs.opayoTransactionId!)!.refunds.map((r) => r.amountMinor),
    ).toEqual([1000, 1349])
    expect(await h.app.refunds.refundable(orderId)).toEqual({ refundableMinor: 0, currency: 'GBP' })
  })

  it('voids a same-day payment given back in full instead of refunding it', async () => {
    const paid = await paidByOpayo(h, 1500)
    const orderId = await orderFor(paid)
    const outcome = await h.app.refunds.giveBackAll({
      orderId,
      idempotencyKey: key(),
      reason: 'cancelled',
      actor: staff,
    })
    expect(outcome).toMatchObject({ status: 'succeeded', how: 'void', amountMinor: 1500 })
    expect(h.sims.opayo.ledger(paid.providerRefs.opayoTransactionId!)).toMatchObject({
      voided: true,
      refunds: [],
    })
  })

  it('never refunds beyond the captured amount when two refunds whose sum exceeds it run at once', async () => {
    const paid = await paidByOpayo(h, 2000)
    const orderId = await orderFor(paid)
    h.sims.opayo.endOfDay()
    const results = await Promise.allSettled([
      h.app.refunds.refund({ orderId, amountMinor: 1200, idempotencyKey: key(), reason: 'a', actor: staff }),
      h.app.refunds.refund({ orderId, amountMinor: 1200, idempotencyKey: key(), reason: 'b', actor: staff }),
    ])
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1)
    const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult
    expect(refused.reason).toBeInstanceOf(DomainError)
    expect(refused.reason).toMatchObject({ code: 'refund_exceeds_refundable' })
    expect(h.sims.opayo.ledger(paid.providerRefs.opayoTransactionId!)!.refunds).toHaveLength(1)
    expect(await h.app.refunds.forOrder(orderId)).toHaveLength(1)
  })

  it('answers the same idempotency key twice with the first refund and calls Opayo once', async () => {
    const paid = await paidByOpayo(h, 2000)
    const orderId = await orderFor(paid)
    h.sims.opayo.endOfDay()
    const same = { orderId, amountMinor: 700, idempotencyKey: key(), reason: 'late', actor: staff }
    const [a, b] = await Promise.all([h.app.refunds.refund(same), h.app.refunds.refund(same)])
    const again = await h.app.refunds.refund(same)
    expect(a.refundId).toBe(b.refundId)
    // The one that called Opayo has its answer; a repeat while that call was in flight answers
    // the first refund as it stood then (pending), and a later one as it stands now.
    expect([a.status, b.status]).toContain('succeeded')
    expect(again).toEqual({ refundId: a.refundId, status: 'succeeded', how: 'refund', amountMinor: 700 })
    expect(h.sims.opayo.ledger(paid.providerRefs.opayoTransactionId!)!.refunds).toHaveLength(1)
  })

  it('refuses a key used for another order, or another amount, and writes nothing', async () => {
    const paid = await paidByOpayo(h, 2000)
    const orderId = await orderFor(paid)
    const other = await orderFor(await paidByOpayo(h, 2000))
    h.sims.opayo.endOfDay()
    const k = key()
    await h.app.refunds.refund({ orderId, amountMinor: 300, idempotencyKey: k, reason: 'x', actor: staff })
    await expect(
      h.app.refunds.refund({
        orderId: other,
        amountMinor: 300,
        idempotencyKey: k,
        reason: 'x',
        actor: staff,
      }),
    ).rejects.toMatchObject({ code: 'invalid' })
    await expect(
      h.app.refunds.refund({ orderId, amountMinor: 301, idempotencyKey: k, reason: 'x', actor: staff }),
    ).rejects.toMatchObject({ code: 'invalid' })
    expect(await h.app.refunds.forOrder(other)).toEqual([])
  })

  it('refuses a zero, negative or fractional amount, an unknown order and a missing key, changing nothing', async () => {
    const paid = await paidByOpayo(h, 900)
    const orderId = await orderFor(paid)
    for (const amountMinor of [0, -5, 1.5, Number.NaN])
      await expect(
        h.app.refunds.refund({ orderId, amountMinor, idempotencyKey: key(), reason: 'x', actor: staff }),
      ).rejects.toMatchObject({ code: 'invalid' })
    await expect(
      h.app.refunds.refund({
        orderId: '99999999',
        amountMinor: 1,
        idempotencyKey: key(),
        reason: 'x',
        actor: staff,
      }),
    ).rejects.toMatchObject({ code: 'not_found' })
    await expect(
      h.app.refunds.refund({ orderId, amountMinor: 1, idempotencyKey: '', reason: 'x', actor: staff }),
    ).rejects.toMatchObject({ code: 'invalid' })
    expect(await h.app.refunds.forOrder(orderId)).toEqual([])
  })
})

describe('a refund whose answer is lost for good (Opayo)', () => {
  it('is left for a person, its amount still held against the cap, instead of refunding twice', async () => {
    const paid = await paidByOpayo(h, 2000)
    const orderId = await orderFor(paid)
    h.sims.opayo.endOfDay()
    h.sims.faults.add({ provider: 'opayo', match: 'POST /transactions$', kind: 'timeoutAfter' })
    const outcome = await h.app.refunds.refund({
      orderId,
      amountMinor: 800,
      idempotencyKey: key(),
      reason: 'lost',
      actor: staff,
    })
    expect(outcome.status).toBe('pending')
    await reconcileNow()
    const row = await h.app.refunds.get(outcome.refundId)
    expect(row).toMatchObject({ status: 'unknown', reconcileAfter: null })
    expect(row!.message).toContain('MyOpayo')
    expect(await h.app.refunds.refundable(orderId)).toEqual({ refundableMinor: 1200, currency: 'GBP' })
    expect(h.sims.opayo.ledger(paid.providerRefs.opayoTransactionId!)!.refunds).toHaveLength(1)
    expect(settled).not.toHaveBeenCalled()
  })
})

describe('two reconciler passes at once (two instances)', () => {
  it('ask the provider about a refund once, and tell the orders side once', async () => {
    const paid = await paidByPaypal(2500)
    const orderId = await orderFor(paid)
    h.sims.faults.add({ provider: 'paypal', match: 'POST /v2/payments/captures', kind: 'timeoutAfter' })
    const outcome = await h.app.refunds.refund({
      orderId,
      amountMinor: 500,
      idempotencyKey: key(),
      reason: 'lost',
      actor: staff,
    })
    await h.app.db.execute(
      sql`update payment_refunds set reconcile_after = now() - interval '1 second' where id = ${outcome.refundId}`,
    )
    const asked = vi.spyOn(h.app.payments.adapters.paypal!, 'refundStatus')
    try {
      await Promise.all([h.app.refunds.reconcileDue(), h.app.refunds.reconcileDue()])
      expect(asked).toHaveBeenCalledTimes(1)
    } finally {
      asked.mockRestore()
    }
    expect(await h.app.refunds.get(outcome.refundId)).toMatchObject({ status: 'succeeded' })
    expect(settled).toHaveBeenCalledTimes(1)
  })
})

describe('refunds of a PayPal capture', () => {
  it('refunds part of a capture end to end', async () => {
    const paid = await paidByPaypal(2349)
    const orderId = await orderFor(paid)
    const outcome = await h.app.refunds.refund({
      orderId,
      amountMinor: 849,
      idempotencyKey: key(),
      reason: 'one item back',
      actor: staff,
    })
    expect(outcome).toMatchObject({ status: 'succeeded', how: 'refund', amountMinor: 849 })
    expect(h.sims.paypal.ledger(paid.providerRefs.paypalCaptureId!)).toMatchObject({
      status: 'PARTIALLY_REFUNDED',
      refunds: [{ status: 'COMPLETED', value: '8.49' }],
    })
  })

  it('reconciles a refund whose answer was lost once, and tells the orders side once', async () => {
    const paid = await paidByPaypal(3000)
    const orderId = await orderFor(paid)
    h.sims.faults.add({ provider: 'paypal', match: 'POST /v2/payments/captures', kind: 'timeoutAfter' })
    const outcome = await h.app.refunds.refund({
      orderId,
      amountMinor: 1000,
      idempotencyKey: key(),
      reason: 'lost',
      actor: staff,
    })
    expect(outcome.status).toBe('pending')
    expect((await h.app.refunds.get(outcome.refundId))!.status).toBe('unknown')

    await reconcileNow()
    await reconcileNow()

    expect(await h.app.refunds.get(outcome.refundId)).toMatchObject({
      status: 'succeeded',
      reconcileAfter: null,
    })
    expect(h.sims.paypal.ledger(paid.providerRefs.paypalCaptureId!)!.refunds).toHaveLength(1)
    expect(settled).toHaveBeenCalledTimes(1)
    expect(settled.mock.calls[0]![1]).toEqual({
      refundId: outcome.refundId,
      orderId,
      status: 'succeeded',
      amountMinor: 1000,
    })
  })

  it('keeps a PENDING refund counted against the cap until PayPal’s webhook says it completed', async () => {
    const paid = await paidByPaypal(2000)
    const orderId = await orderFor(paid)
    h.sims.paypal.refundNextAs('PENDING')
    const outcome = await h.app.refunds.refund({
      orderId,
      amountMinor: 1500,
      idempotencyKey: key(),
      reason: 'echeck',
      actor: staff,
    })
    expect(outcome.status).toBe('pending')
    await expect(
      h.app.refunds.refund({ orderId, amountMinor: 600, idempotencyKey: key(), reason: 'x', actor: staff }),
    ).rejects.toMatchObject({ code: 'refund_exceeds_refundable' })

    const row = await h.app.refunds.get(outcome.refundId)
    await h.sims.paypal.settleRefund(row!.providerRefs.paypalRefundId!, 'COMPLETED')
    await until(async () => (await h.app.refunds.get(outcome.refundId))!.status === 'succeeded')
    expect(settled).toHaveBeenCalledTimes(1)
  })
})

describe('refunds of an Amazon Pay charge', () => {
  it('stays pending while Amazon says RefundInitiated, then is settled by the REFUND IPN', async () => {
    h.sims.amazon.refundsSettleAfter(null)
    const paid = await paidByAmazon(2349)
    const orderId = await orderFor(paid)
    const outcome = await h.app.refunds.refund({
      orderId,
      amountMinor: 1349,
      idempotencyKey: key(),
      reason: 'returned',
      actor: staff,
    })
    expect(outcome).toMatchObject({ status: 'pending', how: 'refund', amountMinor: 1349 })

    const row = await h.app.refunds.get(outcome.refundId)
    await h.sims.amazon.settleRefund(row!.providerRefs.amazonRefundId!, 'Refunded')
    await until(async () => (await h.app.refunds.get(outcome.refundId))!.status === 'succeeded')
    expect(settled).toHaveBeenCalledTimes(1)
    expect(settled.mock.calls[0]![1]).toMatchObject({ status: 'succeeded', amountMinor: 1349 })
  })

  it('frees the amount again when Amazon declines the refund', async () => {
    h.sims.amazon.refundsSettleAfter(null)
    const paid = await paidByAmazon(2000)
    const orderId = await orderFor(paid)
    const outcome = await h.app.refunds.refund({
      orderId,
      amountMinor: 2000,
      idempotencyKey: key(),
      reason: 'x',
      actor: staff,
    })
    const row = await h.app.refunds.get(outcome.refundId)
    await h.sims.amazon.settleRefund(row!.providerRefs.amazonRefundId!, 'Declined')
    await until(async () => (await h.app.refunds.get(outcome.refundId))!.status === 'failed')
    expect(await h.app.refunds.refundable(orderId)).toEqual({ refundableMinor: 2000, currency: 'GBP' })
  })
})

describe('cancelling an order whose Amazon Pay authorisation lapsed', () => {
  it('cancels no hold that is gone: the timeline says it lapsed, nothing given back, no refund e-mail', async () => {
    const { attempt } = await returnedFromAmazon(h, 2100, '0701')
    const pending = await h.app.payments.amazonComplete(attempt.id)
    const chargeId = pending.providerRefs.amazonChargeId!
    await h.sims.amazon.settleCharge(chargeId, 'Authorized')
    expect((await h.app.payments.reconcile(attempt.id)).state).toBe('authorised')
    const orderId = Number(await orderFor(await h.app.payments.get(attempt.id).then((a) => a!)))
    await h.app.db.update(orders).set({ paymentStatus: 'paid' }).where(eq(orders.id, orderId))
    const [order] = await h.app.db.select().from(orders).where(eq(orders.id, orderId))
    h.sims.amazon.passTime(31 * 24 * 60 * 60 * 1000)

    const summary = await h.app.orderLifecycle.cancelOrder(h.app.db, {
      orderNumber: order!.orderNumber,
      reason: 'Never collected',
      actor: staff,
    })
    expect(summary).toMatchObject({ status: 'cancelled', paymentStatus: 'voided' })
    expect(h.sims.amazon.ledger(chargeId)).toMatchObject({ state: 'Canceled', reasonCode: 'ExpiredUnused' })
    const events = await h.app.db
      .select()
      .from(orderEvents)
      .where(eq(orderEvents.orderId, orderId))
      .orderBy(asc(orderEvents.id))
    expect(events.at(-1)).toMatchObject({
      type: 'refund',
      data: { status: 'succeeded', how: 'void', amountMinor: 0, message: AMAZON_AUTHORISATION_EXPIRED },
    })
    const [row] = await h.app.db.select().from(orders).where(eq(orders.id, orderId))
    expect(row!.refundedMinor).toBe(0)
    const mail = await h.app.db
      .select()
      .from(mailJobs)
      .where(like(mailJobs.dedupeKey, `order:${orderId}:v%`))
    expect(mail.map((m) => m.dedupeKey)).toEqual([expect.stringMatching(/:cancelled$/)])
  })
})

describe('refunds of a Paya sale', () => {
  it('looks the refund up by its api id after a lost answer, and never refunds twice', async () => {
    const paid = await paidByPaya(h, 1999)
    const orderId = await orderFor(paid)
    h.sims.paya.settleBatch()
    h.sims.faults.add({ provider: 'paya', match: 'POST /v2/transactions', kind: 'timeoutAfter' })
    const outcome = await h.app.refunds.refund({
      orderId,
      amountMinor: 999,
      idempotencyKey: key(),
      reason: 'x',
      actor: staff,
    })
    expect(outcome.status).toBe('pending')
    await reconcileNow()
    expect(await h.app.refunds.get(outcome.refundId)).toMatchObject({ status: 'succeeded' })
    expect(h.sims.paya.ledger(paid.providerRefs.payaTransactionId!)!.refunds).toEqual([
      { id: expect.any(String), transaction_amount: '9.99' },
    ])
  })

  it('voids a sale whose batch has not settled when the whole amount is given back', async () => {
    const paid = await paidByPaya(h, 1500)
    const orderId = await orderFor(paid)
    const outcome = await h.app.refunds.giveBackAll({
      orderId,
      idempotencyKey: key(),
      reason: 'cancelled',
      actor: staff,
    })
    expect(outcome).toMatchObject({ status: 'succeeded', how: 'void', amountMinor: 1500 })
  })
})

describe('a purchase order', () => {
  it('is refunded by a credit note with a number from the sequence, within its total', async () => {
    const orderId = await orderFor(null, 5000)
    const outcome = await h.app.refunds.refund({
      orderId,
      amountMinor: 2000,
      idempotencyKey: key(),
      reason: 'short',
      actor: staff,
    })
    expect(outcome).toMatchObject({ status: 'succeeded', how: 'credit_note', amountMinor: 2000 })
    const [row] = await h.app.refunds.forOrder(orderId)
    expect(row!.creditNoteNumber).toBeGreaterThanOrEqual(900001)
    const rest = await h.app.refunds.giveBackAll({
      orderId,
      idempotencyKey: key(),
      reason: 'cancel',
      actor: staff,
    })
    expect(rest.amountMinor).toBe(3000)
    await expect(
      h.app.refunds.giveBackAll({ orderId, idempotencyKey: key(), reason: 'again', actor: staff }),
    ).rejects.toMatchObject({ code: 'refund_exceeds_refundable' })
  })
})
