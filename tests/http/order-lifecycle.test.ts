/**
 * Issue 33: the order lifecycle against a real database (PGlite, or PostgreSQL with
 * DATABASE_URL): hold, release, ship in parts and cancel, each in one transaction with its
 * timeline row, its customer e-mail queued once and its webhook event; refusals that say why and
 * change nothing; two writers at once. Refunds: order-lifecycle-refunds.test.ts.
 */
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { orderEvents } from '../../src/server/db/schema.ts'
import { DomainError } from '../../src/server/lib/domain-error.ts'
import { createOrderLifecycle } from '../../src/server/modules/orders/order-lifecycle.ts'
import {
  current,
  ERP,
  events,
  lifecycle,
  mails,
  moneyCalls,
  newOrder,
  refusal,
  STAFF,
  t,
  timeline,
  useLifecycleFixture,
} from './order-lifecycle.fixture.ts'

useLifecycleFixture()

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
