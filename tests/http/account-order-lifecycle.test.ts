/**
 * Issue 33 item 3 on the account's order page, and the CLI's order commands: after the ERP or
 * the CLI holds, ships and refunds an order, the customer sees the spec's status words, each
 * parcel with its carrier and tracking (a link only for https) and each refund, done or pending.
 */
import { randomUUID } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { customers, orderItems, orders } from '../../src/server/db/schema.ts'
import { executeOrdersCommand, parseOrdersArgs } from '../../src/server/modules/admin/cli.orders.ts'
import {
  createOrderLifecycle,
  type OrderLifecycle,
  type OrderMoney,
} from '../../src/server/modules/orders/order-lifecycle.ts'
import type { AccountOrder, OrderSummary } from '../../src/shared/account.ts'
import { buildTestApp, type TestApp } from '../helpers/app.ts'
import { Visitor } from '../helpers/visitor.ts'

const DEMO = { email: 'demo@harbour-safety.example', password: 'Harbour-demo-2026' }
const ERP = { kind: 'token' as const, name: 'erp' }

let t: TestApp
let lifecycle: OrderLifecycle
let refundStatus: 'succeeded' | 'pending' = 'succeeded'
let n = 0
const money: OrderMoney = {
  refund: async (i) => ({
    refundId: `r${++n}`,
    status: refundStatus,
    amountMinor: i.amountMinor,
    how: 'refund',
  }),
  giveBackAll: async () => ({ refundId: `r${++n}`, status: 'succeeded', amountMinor: 0, how: 'void' }),
}

beforeAll(async () => {
  t = await buildTestApp()
  lifecycle = createOrderLifecycle({
    db: t.app.db,
    money,
    events: async () => {},
    mail: { site: (id) => t.app.sites.byId(id), present: (ex, r) => t.app.orders.present(ex, r) },
  })
})
afterAll(() => t?.close())

async function newOrder(quantities: number[]) {
  const [demo] = await t.app.db.select().from(customers).where(eq(customers.email, DEMO.email))
  const [template] = await t.app.db
    .select()
    .from(orders)
    .where(and(eq(orders.customerId, demo!.id), eq(orders.status, 'placed')))
    .limit(1)
  const { id: _id, orderNumber: _n, changeSeq: _s, changeXid: _x, ...rest } = template!
  const [order] = await t.app.db
    .insert(orders)
    .values({
      ...rest,
      cartRef: randomUUID(),
      idempotencyKey: null,
      paymentStatus: 'paid',
      orderDate: new Date(),
      // A fresh order, whichever placed order the template is (an earlier test may have changed it).
      version: 1,
      refundedMinor: 0,
      fulfilmentStatus: 'unfulfilled',
    })
    .returning()
  const [item] = await t.app.db.select().from(orderItems).where(eq(orderItems.orderId, template!.id)).limit(1)
  const { id: _i, orderId: _o, ...line } = item!
  const lines = await t.app.db
    .insert(orderItems)
    .values(
      quantities.map((quantity, i) => ({ ...line, orderId: order!.id, quantity, sku: `${line.sku}-${i}` })),
    )
    .returning()
  return { order: order!, lines }
}

async function page(orderNumber: number) {
  const v = await new Visitor(t.app).start()
  expect((await v.post('/login', { ...DEMO, remember: '', redirect: false })).statusCode).toBe(303)
  const props = (await v.visit(`/customer/orders/${orderNumber}`)).json().props as {
    order: AccountOrder
    orders: OrderSummary[]
  }
  return props
}

describe("the account's order page after the order", () => {
  it("says the order is held, with the spec's words, in the list and on the order", async () => {
    const { order } = await newOrder([1])
    await lifecycle.holdOrder(t.app.db, { orderNumber: order.orderNumber, reason: 'Check', actor: ERP })
    const props = await page(order.orderNumber)
    expect(props.order.statusText).toBe("ORDER HELD (we're checking a few things)")
    expect(props.orders.find((o) => o.OrderNumber === order.orderNumber)?.statusText).toBe(
      "ORDER HELD (we're checking a few things)",
    )
  })

  it('shows each parcel with carrier and tracking, linking only an https tracking URL, then COMPLETED/SHIPPED', async () => {
    const { order, lines } = await newOrder([2, 1])
    await lifecycle.shipOrder(t.app.db, {
      orderNumber: order.orderNumber,
      shipmentRef: 'A',
      carrier: 'DPD',
      trackingNumber: 'DPD123',
      trackingUrl: 'https://track.example/DPD123',
      lines: [{ lineId: lines[0]!.id, quantity: 2 }],
      actor: ERP,
    })
    let props = await page(order.orderNumber)
    expect(props.order.statusText).toBe('BEING PROCESSED')
    await lifecycle.shipOrder(t.app.db, {
      orderNumber: order.orderNumber,
      shipmentRef: 'B',
      carrier: 'Royal Mail',
      trackingNumber: 'RM9',
      trackingUrl: 'javascript:alert(1)',
      actor: ERP,
    })
    props = await page(order.orderNumber)
    expect(props.order.statusText).toBe('COMPLETED/SHIPPED')
    expect(props.order.shipments).toMatchObject([
      {
        carrier: 'DPD',
        trackingNumber: 'DPD123',
        trackingUrl: 'https://track.example/DPD123',
        lines: [{ quantity: 2 }],
      },
      { carrier: 'Royal Mail', trackingNumber: 'RM9', trackingUrl: null, lines: [{ quantity: 1 }] },
    ])
  })

  it('shows refunds done and pending, and a cancelled order as ORDER CANCELLED/REJECTED', async () => {
    const { order } = await newOrder([1])
    refundStatus = 'succeeded'
    await lifecycle.refundOrder(t.app.db, {
      orderNumber: order.orderNumber,
      amountMinor: 100,
      reason: 'r',
      idempotencyKey: 'a',
      actor: ERP,
    })
    refundStatus = 'pending'
    await lifecycle.refundOrder(t.app.db, {
      orderNumber: order.orderNumber,
      amountMinor: 50,
      reason: 'r',
      idempotencyKey: 'b',
      actor: ERP,
    })
    let props = await page(order.orderNumber)
    expect(props.order.refunds).toMatchObject([
      { amount: 100, status: 'done' },
      { amount: 50, status: 'pending' },
    ])
    const other = await newOrder([1])
    await lifecycle.cancelOrder(t.app.db, {
      orderNumber: other.order.orderNumber,
      reason: 'Asked',
      actor: ERP,
    })
    props = await page(other.order.orderNumber)
    expect(props.order.statusText).toBe('ORDER CANCELLED/REJECTED (check email)')
  })
})

describe('npm run admin -- orders', () => {
  it('holds, shows, releases and ships an order as the CLI staff actor, and says why it refuses', async () => {
    const { order } = await newOrder([1])
    const out: string[] = []
    const run = (args: string[]) =>
      executeOrdersCommand(
        { db: t.app.db, lifecycle, actor: { kind: 'staff', name: 'cli:test' }, out: (l) => void out.push(l) },
        parseOrdersArgs(args),
      )
    await run(['hold', String(order.orderNumber), '--reason', 'Stock check', '--version', '1'])
    expect(out.pop()).toBe(`order ${order.orderNumber}: held, payment paid, unfulfilled, version 2`)
    await expect(
      run(['ship', String(order.orderNumber), '--ref', 'S', '--carrier', 'DPD', '--tracking', 'T']),
    ).rejects.toMatchObject({
      message: 'An order that is held cannot be shipped: release it first.',
    })
    await run(['release', String(order.orderNumber)])
    await run(['ship', String(order.orderNumber), '--ref', 'S', '--carrier', 'DPD', '--tracking', 'T'])
    expect(out.pop()).toBe(`order ${order.orderNumber}: shipped, payment paid, shipped, version 4`)
    out.length = 0
    await run(['show', String(order.orderNumber)])
    expect(out.join('\n')).toMatch(/held\tstaff:cli:test/)
    expect(out.join('\n')).toContain('shipment S: DPD T')
  })
})
