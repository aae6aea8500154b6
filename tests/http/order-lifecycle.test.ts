/**
 * Issue 33: the order lifecycle against a real database (PGlite, or PostgreSQL with
 * DATABASE_URL): hold, release, ship in parts, cancel and refund, each in one transaction with
 * its timeline row, its customer e-mail queued once and its webhook event; refusals that say why
 * and change nothing; two writers at once.
 */
import { randomUUID } from 'node:crypto'
import { and, asc, eq, like } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { customers, mailJobs, orderEvents, orderItems, orders } from '../../src/server/db/schema.ts'
import { DomainError } from '../../src/server/lib/domain-error.ts'
import {
  createOrderLifecycle,
  type Actor,
  type OrderEventRecord,
  type OrderLifecycle,
  type OrderMoney,
  type RefundOutcome,
} from '../../src/server/modules/orders/order-lifecycle.ts'
import type { OrderRow } from '../../src/server/modules/orders/orders.tables.ts'
import { buildTestApp, type TestApp } from '../helpers/app.ts'

const ERP: Actor = { kind: 'token', name: 'erp' }
const STAFF: Actor = { kind: 'staff', name: 'dana' }

let t: TestApp
let template: OrderRow
let lifecycle: OrderLifecycle
const events: OrderEventRecord[] = []
const moneyCalls: { op: 'refund' | 'giveBackAll'; input: Record<string, unknown> }[] = []
/** What the fake ledger answers next (by default: succeeded for what was asked). */
let nextOutcome: ((input: { amountMinor?: number }) => RefundOutcome) | null = null

/** A recording money seam: remembers each key's first answer, as the real ledger does. */
const answered = new Map<string, RefundOutcome>()
const money: OrderMoney = {
  async refund(input) {
    moneyCalls.push({ op: 'refund', input })
    const seen = answered.get(input.idempotencyKey)
    if (seen) return seen
    const outcome = nextOutcome?.(input) ?? {
      refundId: `r-${answered.size + 1}`,
      status: 'succeeded',
      amountMinor: input.amountMinor,
      how: 'refund',
    }
    answered.set(input.idempotencyKey, outcome)
    return outcome
  },
  async giveBackAll(input) {
    moneyCalls.push({ op: 'giveBackAll', input })
    const [order] = await t.app.db
      .select()
      .from(orders)
      .where(eq(orders.id, Number(input.orderId)))
    const outcome = nextOutcome?.({}) ?? {
      refundId: `r-${answered.size + 1}`,
      status: 'succeeded',
      amountMinor: order!.totalIncVat - order!.refundedMinor,
      how: 'refund',
    }
    answered.set(input.idempotencyKey, outcome)
    return outcome
  },
}

beforeAll(async () => {
  t = await buildTestApp()
  const [demo] = await t.app.db
    .select()
    .from(customers)
    .where(eq(customers.email, 'demo@harbour-safety.example'))
  const [row] = await t.app.db
    .select()
    .from(orders)
    .where(and(eq(orders.customerId, demo!.id), eq(orders.status, 'placed')))
    .limit(1)
  template = row!
  lifecycle = createOrderLifecycle({
    db: t.app.db,
    money,
    events: async (_tx, e) => void events.push(e),
    mail: { site: (id) => t.app.sites.byId(id), present: (ex, r) => t.app.orders.present(ex, r) },
  })
})
afterAll(() => t?.close())
beforeEach(() => {
  events.length = 0
  moneyCalls.length = 0
  nextOutcome = null
})

/** A placed, paid order of the demo customer with lines of these quantities. */
async function newOrder(quantities: number[] = [3, 1], paymentStatus: OrderRow['paymentStatus'] = 'paid') {
  const { id: _id, orderNumber: _n, changeSeq: _s, changeXid: _x, ...rest } = template
  const [order] = await t.app.db
    .insert(orders)
    .values({
      ...rest,
      cartRef: randomUUID(),
      idempotencyKey: null,
      paymentStatus,
      version: 1,
      refundedMinor: 0,
    })
    .returning()
  const [item] = await t.app.db.select().from(orderItems).where(eq(orderItems.orderId, template.id)).limit(1)
  const { id: _i, orderId: _o, ...line } = item!
  const lines = await t.app.db
    .insert(orderItems)
    .values(
      quantities.map((quantity, i) => ({ ...line, orderId: order!.id, quantity, sku: `${line.sku}-${i}` })),
    )
    .returning()
  return { order: order!, lines }
}

const current = async (id: number) => (await t.app.db.select().from(orders).where(eq(orders.id, id)))[0]!
const timeline = (id: number) =>
  t.app.db.select().from(orderEvents).where(eq(orderEvents.orderId, id)).orderBy(asc(orderEvents.id))
const mails = (id: number) =>
  t.app.db
    .select()
    .from(mailJobs)
    .where(like(mailJobs.dedupeKey, `order:${id}:v%`))
    .orderBy(asc(mailJobs.id))

async function refusal(p: Promise<unknown>): Promise<DomainError> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  )
  expect(e).toBeInstanceOf(DomainError)
  return e as DomainError
}

describe('holding and releasing an order', () => {
  it('holds a placed order: held, customer word 1, one timeline row with the actor, one e-mail, one event', async () => {
    const { order } = await newOrder()
    const summary = await lifecycle.holdOrder(t.app.db, {
      orderNumber: order.orderNumber,
      reason: 'Address check',
      actor: ERP,
      expectVersion: 1,
    })
    expect(summary).toEqual({
      number: order.orderNumber,
      status: 'held',
      version: 2,
      paymentStatus: 'paid',
      fulfilmentStatus: 'unfulfilled',
    })
    const row = await current(order.id)
    expect(row).toMatchObject({ maginusStatus: 1, heldFrom: 'placed', holdReason: 'Address check' })
    expect(row.changeSeq).toBeGreaterThan(order.changeSeq)
    expect(await timeline(order.id)).toMatchObject([
      {
        type: 'held',
        actorKind: 'token',
        actorName: 'erp',
        data: { reason: 'Address check', from: 'placed', version: 2 },
      },
    ])
    const sent = await mails(order.id)
    expect(sent).toHaveLength(1)
    expect(sent[0]!.message.to).toEqual([order.contact.email])
    expect(sent[0]!.message.text).toContain(`Your order ${order.orderNumber} is on hold`)
    expect(events).toMatchObject([{ type: 'order.held', orderId: order.id, version: 2 }])
  })

  it('releases a held order back where it was, with no e-mail', async () => {
    const { order } = await newOrder()
    await lifecycle.holdOrder(t.app.db, {
      orderNumber: order.orderNumber,
      reason: 'Fraud check',
      actor: STAFF,
    })
    const released = await lifecycle.releaseOrder(t.app.db, { orderNumber: order.orderNumber, actor: STAFF })
    expect(released).toMatchObject({ status: 'placed', version: 3 })
    expect(await current(order.id)).toMatchObject({ maginusStatus: null, heldFrom: null, holdReason: null })
    expect((await timeline(order.id)).map((e) => e.type)).toEqual(['held', 'released'])
    expect(await mails(order.id)).toHaveLength(1)
  })

  it('lets only one of two holds sent at once with the same version through; the other is told to read again', async () => {
    const { order } = await newOrder()
    const hold = (name: string) =>
      lifecycle.holdOrder(t.app.db, {
        orderNumber: order.orderNumber,
        reason: name,
        actor: { kind: 'token', name },
        expectVersion: 1,
      })
    const results = await Promise.allSettled([hold('a'), hold('b')])
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1)
    const lost = results.find((r) => r.status === 'rejected') as PromiseRejectedResult
    expect(lost.reason).toMatchObject({ code: 'order_version_mismatch', answer: { version: 2 } })
    expect(await timeline(order.id)).toHaveLength(1)
    expect(await mails(order.id)).toHaveLength(1)
    expect((await current(order.id)).version).toBe(2)
  })

  it('refuses a change naming an old version, and changes nothing', async () => {
    const { order } = await newOrder()
    const e = await refusal(
      lifecycle.holdOrder(t.app.db, {
        orderNumber: order.orderNumber,
        reason: 'x',
        actor: ERP,
        expectVersion: 7,
      }),
    )
    expect(e.code).toBe('order_version_mismatch')
    expect(e.message).toContain('version 1, not 7')
    expect(await current(order.id)).toMatchObject({ status: 'placed', version: 1 })
  })

  it('refuses a hold without a reason, an unknown order and an order of another site', async () => {
    const { order } = await newOrder()
    expect(
      (
        await refusal(
          lifecycle.holdOrder(t.app.db, { orderNumber: order.orderNumber, reason: ' ', actor: ERP }),
        )
      ).code,
    ).toBe('invalid')
    expect(
      (await refusal(lifecycle.holdOrder(t.app.db, { orderNumber: 99_999_999, reason: 'x', actor: ERP })))
        .code,
    ).toBe('order_not_found')
    const other = await refusal(
      lifecycle.holdOrder(t.app.db, {
        orderNumber: order.orderNumber,
        siteId: order.siteId + 1000,
        reason: 'x',
        actor: ERP,
      }),
    )
    expect(other.code).toBe('order_not_found')
    expect(await timeline(order.id)).toHaveLength(0)
  })
})

describe('shipping an order', () => {
  it('ships in two parcels: partially shipped, then shipped with customer word 2, one e-mail each with its tracking', async () => {
    const { order, lines } = await newOrder([3, 1])
    const first = await lifecycle.shipOrder(t.app.db, {
      orderNumber: order.orderNumber,
      shipmentRef: 'P1',
      carrier: 'DPD',
      trackingNumber: 'TRK1',
      trackingUrl: 'https://track.example/TRK1',
      lines: [{ lineId: lines[0]!.id, quantity: 2 }],
      actor: ERP,
    })
    expect(first).toMatchObject({
      status: 'partially_shipped',
      fulfilmentStatus: 'partially_shipped',
      version: 2,
    })
    expect((await current(order.id)).maginusStatus).toBeNull()
    const second = await lifecycle.shipOrder(t.app.db, {
      orderNumber: order.orderNumber,
      shipmentRef: 'P2',
      carrier: 'Royal Mail',
      trackingNumber: 'TRK2',
      trackingUrl: 'http://insecure.example/TRK2',
      actor: ERP,
      expectVersion: 2,
    })
    expect(second).toMatchObject({ status: 'shipped', fulfilmentStatus: 'shipped', version: 3 })
    expect((await current(order.id)).maginusStatus).toBe(2)
    const sent = await mails(order.id)
    expect(sent).toHaveLength(2)
    expect(sent[0]!.message.text).toContain('Tracking number: TRK1')
    expect(sent[0]!.message.html).toContain('href="https://track.example/TRK1"')
    expect(sent[1]!.message.text).toContain('The rest of your order')
    expect(sent[1]!.message.text).not.toContain('insecure.example')
    const rows = await timeline(order.id)
    expect(rows.map((r) => r.type)).toEqual(['shipped', 'shipped'])
    expect(rows[1]!.data).toMatchObject({
      trackingUrl: null,
      lines: [
        { lineId: lines[0]!.id, quantity: 1 },
        { lineId: lines[1]!.id, quantity: 1 },
      ],
    })
    expect(events.map((e) => e.type)).toEqual(['order.shipped', 'order.shipped'])
  })

  it('refuses a parcel holding more of a line than was ordered and not yet shipped', async () => {
    const { order, lines } = await newOrder([3, 1])
    await lifecycle.shipOrder(t.app.db, {
      orderNumber: order.orderNumber,
      shipmentRef: 'A',
      carrier: 'DPD',
      trackingNumber: '1',
      lines: [{ lineId: lines[0]!.id, quantity: 2 }],
      actor: ERP,
    })
    const e = await refusal(
      lifecycle.shipOrder(t.app.db, {
        orderNumber: order.orderNumber,
        shipmentRef: 'B',
        carrier: 'DPD',
        trackingNumber: '2',
        lines: [
          { lineId: lines[0]!.id, quantity: 1 },
          { lineId: lines[0]!.id, quantity: 1 },
        ],
        actor: ERP,
      }),
    )
    expect(e.code).toBe('shipment_exceeds_ordered')
    expect(e.message).toContain('has 1 left to ship of 3 ordered')
    expect(await timeline(order.id)).toHaveLength(1)
  })

  it('refuses a line of another order', async () => {
    const { order } = await newOrder([1])
    const other = await newOrder([1])
    const e = await refusal(
      lifecycle.shipOrder(t.app.db, {
        orderNumber: order.orderNumber,
        shipmentRef: 'X',
        carrier: 'DPD',
        trackingNumber: '1',
        lines: [{ lineId: other.lines[0]!.id, quantity: 1 }],
        actor: ERP,
      }),
    )
    expect(e.message).toContain('is not on order')
  })

  it('never ships the last unit twice when two parcels are posted at once', async () => {
    const { order, lines } = await newOrder([1, 1])
    const ship = (ref: string) =>
      lifecycle.shipOrder(t.app.db, {
        orderNumber: order.orderNumber,
        shipmentRef: ref,
        carrier: 'DPD',
        trackingNumber: ref,
        lines: [{ lineId: lines[0]!.id, quantity: 1 }],
        actor: ERP,
      })
    const results = await Promise.allSettled([ship('one'), ship('two')])
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1)
    expect((results.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason).toMatchObject({
      code: 'shipment_exceeds_ordered',
    })
  })

  it('treats the same shipment reference again as a replay, and refuses it with other details', async () => {
    const { order } = await newOrder([2])
    const input = {
      orderNumber: order.orderNumber,
      shipmentRef: 'S',
      carrier: 'DPD',
      trackingNumber: 'T',
      actor: ERP,
    }
    const first = await lifecycle.shipOrder(t.app.db, input)
    expect(await lifecycle.shipOrder(t.app.db, input)).toEqual(first)
    expect((await refusal(lifecycle.shipOrder(t.app.db, { ...input, trackingNumber: 'U' }))).code).toBe(
      'order_transition_refused',
    )
    expect(await mails(order.id)).toHaveLength(1)
  })

  it('ships nothing while the order is held', async () => {
    const { order } = await newOrder()
    await lifecycle.holdOrder(t.app.db, { orderNumber: order.orderNumber, reason: 'Check', actor: ERP })
    const e = await refusal(
      lifecycle.shipOrder(t.app.db, {
        orderNumber: order.orderNumber,
        shipmentRef: 'S',
        carrier: 'DPD',
        trackingNumber: 'T',
        actor: ERP,
      }),
    )
    expect(e).toMatchObject({
      code: 'order_transition_refused',
      message: 'An order that is held cannot be shipped: release it first.',
    })
    expect(await t.app.db.select().from(orderEvents).where(eq(orderEvents.orderId, order.id))).toHaveLength(1)
  })

  it('refuses to hold a shipped order, saying why', async () => {
    const { order } = await newOrder([1])
    await lifecycle.shipOrder(t.app.db, {
      orderNumber: order.orderNumber,
      shipmentRef: 'S',
      carrier: 'DPD',
      trackingNumber: 'T',
      actor: ERP,
    })
    const e = await refusal(
      lifecycle.holdOrder(t.app.db, { orderNumber: order.orderNumber, reason: 'late', actor: ERP }),
    )
    expect(e).toMatchObject({
      code: 'order_transition_refused',
      message: 'An order that is shipped cannot be held.',
    })
  })
})

describe('cancelling an order', () => {
  it('cancels an unshipped order and gives its money back once: customer word 3, cancelled and refunded e-mails', async () => {
    const { order } = await newOrder()
    const summary = await lifecycle.cancelOrder(t.app.db, {
      orderNumber: order.orderNumber,
      reason: 'Customer asked',
      actor: STAFF,
    })
    expect(summary).toMatchObject({ status: 'cancelled', paymentStatus: 'refunded', version: 3 })
    expect(moneyCalls).toMatchObject([
      {
        op: 'giveBackAll',
        input: { orderId: String(order.id), idempotencyKey: `order:${order.id}:cancel`, actor: STAFF },
      },
    ])
    expect(await current(order.id)).toMatchObject({
      maginusStatus: 3,
      cancelReason: 'Customer asked',
      refundedMinor: order.totalIncVat,
    })
    expect((await timeline(order.id)).map((e) => e.type)).toEqual(['cancelled', 'refund_requested', 'refund'])
    const sent = await mails(order.id)
    expect(sent.map((m) => m.message.subject)).toEqual([
      expect.stringContaining('is cancelled'),
      expect.stringContaining('refund of'),
    ])
    expect(events.map((e) => e.type)).toEqual(['order.cancelled', 'order.refunded'])
    // Cancelled is final: a second cancel is refused and gives nothing back again.
    expect(
      (
        await refusal(
          lifecycle.cancelOrder(t.app.db, { orderNumber: order.orderNumber, reason: 'again', actor: STAFF }),
        )
      ).code,
    ).toBe('order_transition_refused')
    expect(moneyCalls).toHaveLength(1)
  })

  it('refuses to cancel once part of the order was sent', async () => {
    const { order, lines } = await newOrder([2])
    await lifecycle.shipOrder(t.app.db, {
      orderNumber: order.orderNumber,
      shipmentRef: 'S',
      carrier: 'DPD',
      trackingNumber: 'T',
      lines: [{ lineId: lines[0]!.id, quantity: 1 }],
      actor: ERP,
    })
    const e = await refusal(
      lifecycle.cancelOrder(t.app.db, { orderNumber: order.orderNumber, reason: 'x', actor: STAFF }),
    )
    expect(e.message).toContain('refund the rest instead')
    expect(moneyCalls).toHaveLength(0)
  })

  it('keeps the cancel when the money cannot be given back, and records the refusal for a person', async () => {
    const { order } = await newOrder()
    const unavailable = createOrderLifecycle({
      db: t.app.db,
      money: {
        refund: () =>
          Promise.reject(new DomainError('order_transition_refused', 'Refunds are not available yet.')),
        giveBackAll: () =>
          Promise.reject(new DomainError('order_transition_refused', 'Refunds are not available yet.')),
      },
      events: async (_tx, e) => void events.push(e),
      mail: { site: (id) => t.app.sites.byId(id), present: (ex, r) => t.app.orders.present(ex, r) },
    })
    const summary = await unavailable.cancelOrder(t.app.db, {
      orderNumber: order.orderNumber,
      reason: 'x',
      actor: STAFF,
    })
    expect(summary).toMatchObject({ status: 'cancelled', paymentStatus: 'paid' })
    expect((await timeline(order.id)).at(-1)).toMatchObject({
      type: 'refund',
      data: { status: 'failed', message: 'Refunds are not available yet.' },
    })
    expect(events.map((e) => e.type)).toEqual(['order.cancelled', 'payment.needs_attention'])
  })
})

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

  it('finishes a pending refund when it settles: refunded then, once, with its e-mail', async () => {
    const { order } = await newOrder()
    nextOutcome = (input) => ({
      refundId: 'pend-1',
      status: 'pending',
      amountMinor: input.amountMinor!,
      how: 'refund',
    })
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
  it('has a lifecycle that refuses refunds until the payments module is wired', async () => {
    const { order } = await newOrder()
    const e = await refusal(
      t.app.orderLifecycle.refundOrder(t.app.db, {
        orderNumber: order.orderNumber,
        amountMinor: 100,
        reason: 'r',
        idempotencyKey: 'app',
        actor: ERP,
      }),
    )
    expect(e.message).toBe('Refunds are not available yet.')
    expect((await current(order.id)).refundedMinor).toBe(0)
    expect((await lifecycle.quoteRefund(t.app.db, { orderNumber: order.orderNumber })).refundableMinor).toBe(
      order.totalIncVat,
    )
  })
})
