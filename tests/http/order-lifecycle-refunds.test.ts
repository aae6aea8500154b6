/**
 * Issue 33: refunds through the order lifecycle against a real database: quoted, reserved under
 * the order's lock so two at once never exceed what was paid, recorded once per idempotency key,
 * a pending one finished by its settlement, each with its timeline row and e-mail.
 */
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { orders } from '../../src/server/modules/orders/orders.tables.ts'
import { paymentRefunds } from '../../src/server/modules/payments/payments.tables.ts'
import {
  answerNext,
  current,
  ERP,
  events,
  lifecycle,
  mails,
  moneyCalls,
  newOrder,
  refusal,
  t,
  timeline,
  useLifecycleFixture,
} from './order-lifecycle.fixture.ts'

useLifecycleFixture()

describe('refunding an order', () => {
  it('quotes, then refunds part: partially refunded, a refund row with the outcome, one e-mail with the amount', async () => {
    const { order } = await newOrder()
    expect(
      await lifecycle.quoteRefund(t.app.db, { orderNumber: order.orderNumber, amountMinor: 500 }),
    ).toEqual({
      refundableMinor: order.totalIncVat,
      amountMinor: 500,
      currency: order.currency,
    })
    const summary = await lifecycle.refundOrder(t.app.db, {
      orderNumber: order.orderNumber,
      amountMinor: 500,
      reason: 'Damaged',
      idempotencyKey: 'k1',
      actor: ERP,
    })
    expect(summary).toMatchObject({ paymentStatus: 'partially_refunded', status: 'placed' })
    expect(await current(order.id)).toMatchObject({ refundedMinor: 500, maginusStatus: null })
    expect((await timeline(order.id)).at(-1)).toMatchObject({
      type: 'refund',
      actorName: 'erp',
      data: { idempotencyKey: 'k1', status: 'succeeded', amountMinor: 500 },
    })
    const sent = await mails(order.id)
    expect(sent).toHaveLength(1)
    expect(sent[0]!.message.text).toContain('We have refunded £5.00')
    expect((await lifecycle.quoteRefund(t.app.db, { orderNumber: order.orderNumber })).refundableMinor).toBe(
      order.totalIncVat - 500,
    )
  })

  it('answers the same idempotency key again without refunding again', async () => {
    const { order } = await newOrder()
    const input = {
      orderNumber: order.orderNumber,
      amountMinor: 300,
      reason: 'r',
      idempotencyKey: 'same',
      actor: ERP,
    }
    const first = await lifecycle.refundOrder(t.app.db, input)
    expect(await lifecycle.refundOrder(t.app.db, input)).toEqual(first)
    expect(moneyCalls).toHaveLength(1)
    expect((await current(order.id)).refundedMinor).toBe(300)
    expect(await mails(order.id)).toHaveLength(1)
  })

  it('refuses more than can still be refunded, and two refunds at once never exceed what was paid', async () => {
    const { order } = await newOrder()
    const e = await refusal(
      lifecycle.refundOrder(t.app.db, {
        orderNumber: order.orderNumber,
        amountMinor: order.totalIncVat + 1,
        reason: 'r',
        idempotencyKey: 'too-much',
        actor: ERP,
      }),
    )
    expect(e).toMatchObject({
      code: 'refund_exceeds_refundable',
      answer: { refundableMinor: order.totalIncVat },
    })
    const most = Math.ceil(order.totalIncVat * 0.6)
    const refund = (key: string) =>
      lifecycle.refundOrder(t.app.db, {
        orderNumber: order.orderNumber,
        amountMinor: most,
        reason: 'r',
        idempotencyKey: key,
        actor: ERP,
      })
    const results = await Promise.allSettled([refund('a'), refund('b')])
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1)
    expect((results.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason).toMatchObject({
      code: 'refund_exceeds_refundable',
    })
    expect((await current(order.id)).refundedMinor).toBe(most)
  })

  it('refuses a refund of an unpaid purchase order', async () => {
    const { order } = await newOrder([1], 'unpaid')
    const e = await refusal(
      lifecycle.refundOrder(t.app.db, {
        orderNumber: order.orderNumber,
        amountMinor: 100,
        reason: 'r',
        idempotencyKey: 'po',
        actor: ERP,
      }),
    )
    expect(e.message).toContain('Nothing paid remains to refund')
  })

  it('refunds lines by their share of what was charged', async () => {
    const { order, lines } = await newOrder([4])
    const l = lines[0]!
    const quote = await lifecycle.quoteRefund(t.app.db, {
      orderNumber: order.orderNumber,
      lines: [{ lineId: l.id, quantity: 1 }],
    })
    expect(quote.amountMinor).toBe(Math.floor((l.lineTotal + l.vat) / 4))
  })

  it("records a cancel whose payment had nothing left to give back (a lapsed authorisation): voided with the provider's words, an update, no refund e-mail", async () => {
    const { order } = await newOrder()
    const words = 'The authorisation expired unused: no money was held.'
    answerNext(() => ({
      refundId: 'lapsed',
      status: 'succeeded',
      amountMinor: 0,
      how: 'void',
      message: words,
    }))
    const summary = await lifecycle.cancelOrder(t.app.db, {
      orderNumber: order.orderNumber,
      reason: 'Never collected',
      actor: ERP,
    })
    expect(summary).toMatchObject({ status: 'cancelled', paymentStatus: 'voided' })
    expect((await timeline(order.id)).at(-1)).toMatchObject({
      type: 'refund',
      data: { status: 'succeeded', how: 'void', amountMinor: 0, message: words },
    })
    expect((await current(order.id)).refundedMinor).toBe(0)
    expect((await mails(order.id)).map((m) => m.message.subject)).toEqual([
      expect.stringContaining('is cancelled'),
    ])
    expect(events.map((e) => e.type)).toEqual(['order.cancelled', 'order.updated'])
  })

  it('finishes a pending refund when it settles: refunded then, once, with its e-mail', async () => {
    const { order } = await newOrder()
    answerNext((input) => ({
      refundId: 'pend-1',
      status: 'pending',
      amountMinor: input.amountMinor!,
      how: 'refund',
    }))
    const summary = await lifecycle.refundOrder(t.app.db, {
      orderNumber: order.orderNumber,
      amountMinor: order.totalIncVat,
      reason: 'r',
      idempotencyKey: 'pending',
      actor: ERP,
    })
    expect(summary.paymentStatus).toBe('paid')
    expect(await mails(order.id)).toHaveLength(0)
    // While pending, nothing more can be refunded.
    expect((await lifecycle.quoteRefund(t.app.db, { orderNumber: order.orderNumber })).refundableMinor).toBe(
      0,
    )
    const settle = () =>
      t.app.db.transaction((tx) =>
        lifecycle.onRefundSettled(tx, {
          refundId: 'pend-1',
          orderId: String(order.id),
          status: 'succeeded',
          amountMinor: order.totalIncVat,
        }),
      )
    await settle()
    await settle()
    expect(await current(order.id)).toMatchObject({
      paymentStatus: 'refunded',
      refundedMinor: order.totalIncVat,
    })
    expect((await timeline(order.id)).filter((e) => e.type === 'refund_settled')).toHaveLength(1)
    expect(await mails(order.id)).toHaveLength(1)
  })
})

describe('the app', () => {
  it("gives a purchase order's money back through the payments module's ledger: a credit note, on the timeline", async () => {
    const { order } = await newOrder()
    await t.app.db.update(orders).set({ paymentMethod: 'purchase_order' }).where(eq(orders.id, order.id))
    const summary = await t.app.orderLifecycle.refundOrder(t.app.db, {
      orderNumber: order.orderNumber,
      amountMinor: 100,
      reason: 'Returned',
      idempotencyKey: 'app-credit-note',
      actor: ERP,
    })
    expect(summary).toMatchObject({ paymentStatus: 'partially_refunded', status: 'placed' })
    const notes = await t.app.db
      .select()
      .from(paymentRefunds)
      .where(eq(paymentRefunds.orderId, String(order.id)))
    expect(notes).toHaveLength(1)
    expect(notes[0]).toMatchObject({ how: 'credit_note', status: 'succeeded', amountMinor: 100 })
    expect(notes[0]!.creditNoteNumber).toBeGreaterThan(0)
    expect((await current(order.id)).refundedMinor).toBe(100)
    expect((await timeline(order.id)).at(-1)).toMatchObject({
      type: 'refund',
      data: { status: 'succeeded', amountMinor: 100 },
    })
  })
})
