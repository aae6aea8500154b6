/**
 * Issue 33's refund faults, the whole way: the ERP's API, the order lifecycle, the payments
 * module's refund ledger and the provider simulators, on a real database (run with DATABASE_URL
 * for PostgreSQL's row locks). A refund whose answer was lost is reconciled once, and the order
 * then records it once (one e-mail, one webhook); two refunds at once from the ERP and from a
 * person never give back more than was captured, and the provider refunds once.
 */
import { randomUUID } from 'node:crypto'
import { and, asc, eq, like, sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { customers, mailJobs, orderEvents, orders } from '../../src/server/db/schema.ts'
import { AdminTokens } from '../../src/server/modules/admin/admin.tokens.ts'
import type { OrderRow } from '../../src/server/modules/orders/orders.tables.ts'
import type { PaymentAttempt } from '../../src/server/modules/payments/payments.service.ts'
import { webhookMessages } from '../../src/server/modules/webhooks/webhooks.tables.ts'
import { startPaymentsHarness, type PaymentsHarness } from './payments/harness.ts'
import { approvedPaypal, paidByOpayo } from './payments/paid.ts'

let h: PaymentsHarness
let token: string
let template: OrderRow

beforeAll(async () => {
  h = await startPaymentsHarness()
  ;({ token } = await new AdminTokens(h.app.db).create('localhost', 'ERP sync'))
  const [demo] = await h.app.db
    .select()
    .from(customers)
    .where(eq(customers.email, 'demo@harbour-safety.example'))
  const [row] = await h.app.db
    .select()
    .from(orders)
    .where(and(eq(orders.customerId, demo!.id), eq(orders.status, 'placed')))
    .limit(1)
  template = row!
}, 180_000)
afterAll(async () => h?.close())
beforeEach(() => h.sims.faults.clear())

/** A placed order of the demo customer (its totals) that claimed `attempt`, which paid them. */
async function orderPaidBy(attempt: PaymentAttempt): Promise<OrderRow> {
  const { id: _id, orderNumber: _n, changeSeq: _s, changeXid: _x, ...rest } = template
  const [order] = await h.app.db
    .insert(orders)
    .values({
      ...rest,
      cartRef: randomUUID(),
      idempotencyKey: null,
      status: 'placed',
      paymentMethod: attempt.method,
      paymentAttemptId: attempt.id,
      paymentStatus: 'paid',
      version: 1,
      refundedMinor: 0,
    })
    .returning()
  return order!
}

async function paidByPaypal(amountMinor: number): Promise<PaymentAttempt> {
  const { attempt } = await approvedPaypal(h, amountMinor)
  const captured = await h.app.payments.paypalCapture(attempt.id)
  expect(captured.state).toBe('captured')
  return captured
}

const refundCall = (number: number, body: object, key: string, version = 1) =>
  h.app.inject({
    method: 'POST',
    url: `/api/admin/v1/orders/${number}/refunds`,
    headers: {
      host: 'localhost',
      authorization: `Bearer ${token}`,
      'idempotency-key': key,
      'if-match': `"v${version}"`,
    },
    payload: body,
  })

const current = async (id: number) => (await h.app.db.select().from(orders).where(eq(orders.id, id)))[0]!
const timelineTypes = async (id: number) =>
  (await h.app.db.select().from(orderEvents).where(eq(orderEvents.orderId, id))).map((e) => e.type)
const refundMails = (id: number) =>
  h.app.db
    .select()
    .from(mailJobs)
    .where(like(mailJobs.dedupeKey, `order:${id}:v%`))
/** The statuses the order's `order.refunded` messages carry, in the order they were written. */
const refundWebhookStatuses = async (id: number) =>
  (
    await h.app.db
      .select({ body: webhookMessages.body })
      .from(webhookMessages)
      .where(and(eq(webhookMessages.orderId, id), eq(webhookMessages.type, 'order.refunded')))
      .orderBy(asc(webhookMessages.seq))
  ).map((m) => (JSON.parse(m.body) as { data: { status: string } }).data.status)

/** Lets the reconciler ask now about every pending or unknown refund, and runs its job. */
async function reconcileNow(): Promise<void> {
  await h.app.db.execute(
    sql`update payment_refunds set reconcile_after = now() - interval '1 second' where reconcile_after is not null`,
  )
  await h.app.jobs.runNow('refund-reconcile')
}

describe("an order's refund when something goes wrong", () => {
  it('reconciles a refund whose answer was lost once: PayPal refunds once, the order records it once with one e-mail and one outcome webhook', async () => {
    const paid = await paidByPaypal(template.totalIncVat)
    const order = await orderPaidBy(paid)
    const half = Math.floor(order.totalIncVat / 2)
    h.sims.faults.add({ provider: 'paypal', match: 'POST /v2/payments/captures', kind: 'timeoutAfter' })
    const body = { amountMinor: half, reason: 'One box arrived damaged' }
    const first = await refundCall(order.orderNumber, body, 'lost-answer')
    expect(first.statusCode, first.body).toBe(200)
    // Whether PayPal acted is not known yet: nothing is counted as refunded, nor told.
    expect(first.json()).toMatchObject({ paymentStatus: 'paid' })
    expect((await current(order.id)).refundedMinor).toBe(0)
    expect(await refundMails(order.id)).toHaveLength(0)

    await reconcileNow()
    await reconcileNow()
    // The ERP sends its request again: the first answer, and no second refund.
    const again = await refundCall(order.orderNumber, body, 'lost-answer')
    expect(again.json()).toEqual(first.json())

    expect(h.sims.paypal.ledger(paid.providerRefs.paypalCaptureId!)!.refunds).toHaveLength(1)
    expect(await current(order.id)).toMatchObject({
      refundedMinor: half,
      paymentStatus: 'partially_refunded',
    })
    expect((await timelineTypes(order.id)).filter((t) => t === 'refund_settled')).toHaveLength(1)
    expect(await refundMails(order.id)).toHaveLength(1)
    // The ERP heard of the refund under way (ADR 0200), then of its outcome: once each.
    expect(await refundWebhookStatuses(order.id)).toEqual(['pending', 'succeeded'])
  })

  it('never gives back more than was captured when the ERP and a person refund at once, and Opayo refunds once', async () => {
    const paid = await paidByOpayo(h, template.totalIncVat)
    const order = await orderPaidBy(paid)
    const most = Math.ceil(order.totalIncVat * 0.6)
    h.sims.opayo.endOfDay()
    const results = await Promise.allSettled([
      refundCall(order.orderNumber, { amountMinor: most, reason: 'ERP' }, 'at-once').then((r) => {
        if (r.statusCode !== 200) throw new Error(`${r.statusCode} ${r.body}`)
        return r
      }),
      h.app.orderLifecycle.refundOrder(h.app.db, {
        orderNumber: order.orderNumber,
        amountMinor: most,
        reason: 'a person in the office',
        idempotencyKey: 'staff-at-once',
        actor: { kind: 'staff', name: 'Jo in the office' },
      }),
    ])
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1)
    const refused = String((results.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason)
    // The ERP is told the order changed (412) or that this is more than is left; a person likewise.
    expect(refused).toMatch(/412|more than|exceed|changed/i)
    expect(h.sims.opayo.ledger(paid.providerRefs.opayoTransactionId!)!.refunds).toHaveLength(1)
    expect(await current(order.id)).toMatchObject({
      refundedMinor: most,
      paymentStatus: 'partially_refunded',
    })
    expect(await refundMails(order.id)).toHaveLength(1)
  })
})
