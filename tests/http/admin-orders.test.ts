/**
 * The ERP's order routes of the integration API over HTTP on a real database (ADR 0220): the
 * change feed never misses or repeats an order across pages and writes, one order with its ETag,
 * each write through the lifecycle with If-Match and an Idempotency-Key, replays that change
 * nothing, a stale version refused (412), and another site's token neither seeing nor changing.
 */
import { randomUUID } from 'node:crypto'
import { and, eq, like } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  adminInvoiceDocuments,
  customers,
  invoices,
  mailJobs,
  orderEvents,
  orderItems,
  orders,
  shipmentLines,
  shipments,
} from '../../src/server/db/schema.ts'
import { storedInvoicePdf } from '../../src/server/modules/admin/admin.invoices.ts'
import { AdminTokens } from '../../src/server/modules/admin/admin.tokens.ts'
import {
  createOrderLifecycle,
  type OrderEventRecord,
  type OrderMoney,
} from '../../src/server/modules/orders/order-lifecycle.ts'
import type { OrderRow } from '../../src/server/modules/orders/orders.tables.ts'
import { buildTestApp, type TestApp } from '../helpers/app.ts'
import { settled } from '../helpers/feed.ts'

let t: TestApp
let token: string
let otherSiteToken: string
let template!: OrderRow
const refunds: { amountMinor: number; idempotencyKey: string }[] = []
const events: OrderEventRecord[] = []

/** A money seam that succeeds and remembers each key's answer, as the refund ledger does. */
const money: OrderMoney = {
  async refund(input) {
    if (!refunds.some((r) => r.idempotencyKey === input.idempotencyKey)) refunds.push(input)
    return {
      refundId: input.idempotencyKey,
      status: 'succeeded',
      amountMinor: input.amountMinor,
      how: 'refund',
    }
  },
  async giveBackAll(input) {
    const [o] = await t.app.db
      .select()
      .from(orders)
      .where(eq(orders.id, Number(input.orderId)))
    return {
      refundId: input.idempotencyKey,
      status: 'succeeded',
      amountMinor: o!.totalIncVat - o!.refundedMinor,
      how: 'void',
    }
  },
}

beforeAll(async () => {
  t = await buildTestApp()
  const tokens = new AdminTokens(t.app.db)
  ;({ token } = await tokens.create('localhost', 'ERP sync'))
  ;({ token: otherSiteToken } = await tokens.create('127.0.0.1', 'other brand ERP'))
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
  // The app's lifecycle with a money seam that succeeds (the refunds branch wires the real one).
  Object.assign(t.app, {
    orderLifecycle: createOrderLifecycle({
      db: t.app.db,
      money,
      events: async (_tx, e) => void events.push(e),
      mail: { site: (id) => t.app.sites.byId(id), present: (ex, r) => t.app.orders.present(ex, r) },
    }),
  })
})
afterAll(() => t?.close())

/** A placed, paid order of the demo customer with lines of these quantities. */
async function newOrder(quantities: number[] = [3, 1]) {
  const { id: _id, orderNumber: _n, changeSeq: _s, changeXid: _x, ...rest } = template
  const [order] = await t.app.db
    .insert(orders)
    .values({
      ...rest,
      cartRef: randomUUID(),
      idempotencyKey: null,
      paymentStatus: 'paid',
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

const call = (
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  opts: { body?: unknown; key?: string | null; ifMatch?: string | null; as?: string; host?: string } = {},
) =>
  t.app.inject({
    method,
    url: `/api/admin/v1${path}`,
    headers: {
      host: opts.host ?? 'localhost',
      authorization: `Bearer ${opts.as ?? token}`,
      ...(method !== 'GET' && opts.key !== null ? { 'idempotency-key': opts.key ?? randomUUID() } : {}),
      ...(opts.ifMatch ? { 'if-match': opts.ifMatch } : {}),
    },
    ...(opts.body === undefined ? {} : { payload: opts.body as object }),
  })

const versionOf = async (id: number) =>
  (await t.app.db.select().from(orders).where(eq(orders.id, id)))[0]!.version

describe('the orders feed', () => {
  it('never misses or repeats an order across pages, and serves a changed order again after it', async () => {
    const made = [await newOrder(), await newOrder(), await newOrder()]
    const seen: { number: number; version: number }[] = []
    let cursor: string | null = null
    let changed = false
    await settled(t.app.db)
    for (let i = 0; i < 500; i++) {
      const res = await call('GET', `/orders?limit=2${cursor ? `&after=${cursor}` : ''}`)
      expect(res.statusCode, res.body).toBe(200)
      const page = res.json() as {
        orders: { number: number; version: number }[]
        next_cursor: string
        has_more: boolean
      }
      seen.push(...page.orders)
      cursor = page.next_cursor
      // A write between two pages, to an order already served: it comes again, at its new version.
      if (!changed && seen.some((o) => o.number === made[0]!.order.orderNumber)) {
        const hold = await call('POST', `/orders/${made[0]!.order.orderNumber}/hold`, {
          body: { reason: 'Checking' },
          ifMatch: '"v1"',
        })
        expect(hold.statusCode, hold.body).toBe(200)
        changed = true
        await settled(t.app.db)
      }
      if (!page.has_more && changed) break
    }
    const keys = seen.map((o) => `${o.number}@${o.version}`)
    expect(new Set(keys).size).toBe(keys.length)
    for (const m of made) expect(seen.map((o) => o.number)).toContain(m.order.orderNumber)
    expect(keys).toContain(`${made[0]!.order.orderNumber}@2`)
    const filtered = await call('GET', '/orders?status=held&limit=200')
    expect(filtered.json().orders.every((o: { status: string }) => o.status === 'held')).toBe(true)
    expect((await call('GET', '/orders?status=lost')).statusCode).toBe(422)
  })

  it("shows another site's token none of this site's orders", async () => {
    const { order } = await newOrder()
    const theirs = await call('GET', '/orders?limit=200', { as: otherSiteToken, host: '127.0.0.1' })
    expect(theirs.statusCode).toBe(200)
    expect(theirs.json().orders.map((o: { number: number }) => o.number)).not.toContain(order.orderNumber)
    const one = await call('GET', `/orders/${order.orderNumber}`, { as: otherSiteToken, host: '127.0.0.1' })
    expect(one.statusCode).toBe(404)
    const write = await call('POST', `/orders/${order.orderNumber}/hold`, {
      as: otherSiteToken,
      host: '127.0.0.1',
      body: { reason: 'Not mine' },
      ifMatch: '"v1"',
    })
    expect(write.statusCode).toBe(404)
    expect(await versionOf(order.id)).toBe(1)
  })
})

describe('one order', () => {
  it('answers everything the ERP needs with the version as its ETag', async () => {
    const { order, lines } = await newOrder([2])
    const res = await call('GET', `/orders/${order.orderNumber}`)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.headers.etag).toBe('"v1"')
    const body = res.json()
    expect(body).toMatchObject({
      number: order.orderNumber,
      status: 'placed',
      version: 1,
      currency: order.currency,
    })
    expect(body.lines).toEqual([
      expect.objectContaining({
        lineId: lines[0]!.id,
        sku: lines[0]!.sku,
        quantity: 2,
        unitPriceExVat: lines[0]!.unitPrice,
      }),
    ])
    expect(body.lines[0].unitPriceIncVat).toBeGreaterThanOrEqual(body.lines[0].unitPriceExVat)
    expect(body.shippingAddress.postcode).toBe(order.shippingAddress.postcode)
    expect(body.contact.email).toBe(order.contact.email)
    expect((await call('GET', '/orders/999999999')).statusCode).toBe(404)
    expect((await call('GET', '/orders/abc')).statusCode).toBe(422)
  })
})

describe('order writes', () => {
  it('acknowledges with If-Match, and a replay of the same key answers the same without a change', async () => {
    const { order } = await newOrder()
    const key = randomUUID()
    const first = await call('POST', `/orders/${order.orderNumber}/acknowledge`, {
      body: { erpRef: 'SO-1' },
      key,
      ifMatch: '"v1"',
    })
    expect(first.statusCode, first.body).toBe(200)
    expect(first.json()).toMatchObject({ number: order.orderNumber, version: 2 })
    expect(first.headers.etag).toBe('"v2"')
    const replay = await call('POST', `/orders/${order.orderNumber}/acknowledge`, {
      body: { erpRef: 'SO-1' },
      key,
      ifMatch: '"v1"',
    })
    expect(replay.statusCode).toBe(200)
    expect(replay.headers['idempotent-replayed']).toBe('true')
    expect(replay.headers.etag).toBe('"v2"')
    expect(replay.json()).toEqual(first.json())
    expect(await versionOf(order.id)).toBe(2)
    const [row] = await t.app.db.select().from(orders).where(eq(orders.id, order.id))
    expect(row!.erpRef).toBe('SO-1')
  })

  it('refuses a stale version (412), no If-Match (428), an ill-formed one (400) and no key (400), changing nothing', async () => {
    const { order } = await newOrder()
    const path = `/orders/${order.orderNumber}/hold`
    const stale = await call('POST', path, { body: { reason: 'x' }, ifMatch: '"v7"' })
    expect(stale.statusCode).toBe(412)
    const none = await call('POST', path, { body: { reason: 'x' } })
    expect(none.statusCode).toBe(428)
    expect(none.json().message).toContain('If-Match')
    for (const bad of ['v1', '"1"', 'W/"v1"', '"v1", "v2"', '*']) {
      const res = await call('POST', path, { body: { reason: 'x' }, ifMatch: bad })
      expect(res.statusCode, bad).toBe(400)
    }
    const noKey = await call('POST', path, { body: { reason: 'x' }, ifMatch: '"v1"', key: null })
    expect(noKey.statusCode).toBe(400)
    expect(noKey.json().message).toContain('Idempotency-Key')
    expect(await versionOf(order.id)).toBe(1)
  })

  it('holds, releases and ships in two parts, each answering the new version', async () => {
    const { order, lines } = await newOrder([3, 1])
    const n = order.orderNumber
    let res = await call('POST', `/orders/${n}/hold`, { body: { reason: 'Address check' }, ifMatch: '"v1"' })
    expect(res.json()).toMatchObject({ status: 'held', version: 2 })
    res = await call('POST', `/orders/${n}/release`, { ifMatch: '"v2"' })
    expect(res.json()).toMatchObject({ status: 'placed', version: 3 })
    res = await call('POST', `/orders/${n}/shipments`, {
      body: {
        shipmentRef: 'P1',
        carrier: 'DPD',
        trackingNumber: 'T1',
        lines: [{ lineId: lines[0]!.id, quantity: 2 }],
      },
      ifMatch: '"v3"',
    })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toMatchObject({
      status: 'partially_shipped',
      fulfilmentStatus: 'partially_shipped',
      version: 4,
    })
    res = await call('POST', `/orders/${n}/shipments`, {
      body: {
        shipmentRef: 'P2',
        carrier: 'DPD',
        trackingNumber: 'T2',
        trackingUrl: 'https://track.example/T2',
      },
      ifMatch: '"v4"',
    })
    expect(res.json()).toMatchObject({ status: 'shipped', version: 5 })
    const detail = (await call('GET', `/orders/${n}`)).json()
    expect(detail.shipments.map((s: { shipmentRef: string }) => s.shipmentRef)).toEqual(['P1', 'P2'])
    // A hold after shipping is refused with the lifecycle's reason, and changes nothing.
    const refused = await call('POST', `/orders/${n}/hold`, { body: { reason: 'late' }, ifMatch: '"v5"' })
    expect(refused.statusCode).toBe(409)
    expect(await versionOf(order.id)).toBe(5)
  })

  it('quotes and makes a refund once for its key, and cancels another order', async () => {
    const { order } = await newOrder()
    const n = order.orderNumber
    const quote = await call('POST', `/orders/${n}/refunds/quote`, { body: { amountMinor: 100 } })
    expect(quote.statusCode, quote.body).toBe(200)
    expect(quote.json()).toMatchObject({ amountMinor: 100, refundableMinor: order.totalIncVat })
    const key = randomUUID()
    const body = { amountMinor: 100, reason: 'Damaged' }
    const first = await call('POST', `/orders/${n}/refunds`, { body, key, ifMatch: '"v1"' })
    expect(first.statusCode, first.body).toBe(200)
    const again = await call('POST', `/orders/${n}/refunds`, { body, key, ifMatch: '"v1"' })
    expect(again.headers['idempotent-replayed']).toBe('true')
    expect(refunds.filter((r) => r.idempotencyKey.endsWith(key))).toHaveLength(1)
    const [row] = await t.app.db.select().from(orders).where(eq(orders.id, order.id))
    expect(row!.refundedMinor).toBe(100)
    const tooMuch = await call('POST', `/orders/${n}/refunds`, {
      body: { amountMinor: order.totalIncVat, reason: 'All' },
      ifMatch: `"v${row!.version}"`,
    })
    expect(tooMuch.statusCode).toBe(422)

    const other = await newOrder()
    const cancel = await call('POST', `/orders/${other.order.orderNumber}/cancel`, {
      body: { reason: 'Asked' },
      ifMatch: '"v1"',
    })
    expect(cancel.statusCode, cancel.body).toBe(200)
    expect(cancel.json().status).toBe('cancelled')
  })

  it('refuses a line refund beyond what the line has left (quote and refund), 422 naming the line', async () => {
    const { order, lines } = await newOrder([2, 1])
    const n = order.orderNumber
    const line = lines[0]!
    const body = { lines: [{ lineId: line.id, quantity: 2 }], reason: 'Damaged' }
    const first = await call('POST', `/orders/${n}/refunds`, { body, ifMatch: '"v1"' })
    expect(first.statusCode, first.body).toBe(200)
    const version = first.json().version as number
    const quote = await call('POST', `/orders/${n}/refunds/quote`, {
      body: { lines: [{ lineId: line.id, quantity: 1 }] },
    })
    expect(quote.statusCode, quote.body).toBe(422)
    expect(quote.json().message).toContain(`Line ${line.id} (${line.sku}) has been refunded in full already`)
    const again = await call('POST', `/orders/${n}/refunds`, { body, ifMatch: `"v${version}"` })
    expect(again.statusCode, again.body).toBe(422)
    expect(again.json().message).toContain(`Line ${line.id}`)
    expect(await versionOf(order.id)).toBe(version)
  })

  it('maps Maginus status 1 to hold and 3 to cancel; the same status again changes nothing', async () => {
    const { order } = await newOrder()
    const n = order.orderNumber
    const held = await call('PUT', `/orders/${n}/status`, { body: { maginusStatus: 1 }, ifMatch: '"v1"' })
    expect(held.json()).toMatchObject({ status: 'held', version: 2 })
    const same = await call('PUT', `/orders/${n}/status`, { body: { maginusStatus: 1 }, ifMatch: '"v2"' })
    expect(same.json()).toMatchObject({ status: 'held', version: 2 })
    const cancelled = await call('PUT', `/orders/${n}/status`, {
      body: { maginusStatus: 3 },
      ifMatch: '"v2"',
    })
    expect(cancelled.json()).toMatchObject({ status: 'cancelled' })
    expect(
      (await call('PUT', `/orders/${n}/status`, { body: { maginusStatus: 4 }, ifMatch: '"v3"' })).statusCode,
    ).toBe(422)
  })

  it('ships an order with no shipment on Maginus status 2: one parcel of every line, carrier Not given, no tracking, with its timeline row, e-mail and webhook', async () => {
    const { order, lines } = await newOrder([2, 1])
    const n = order.orderNumber
    const res = await call('PUT', `/orders/${n}/status`, { body: { maginusStatus: 2 }, ifMatch: '"v1"' })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toMatchObject({ status: 'shipped', fulfilmentStatus: 'shipped', version: 2 })
    const parcels = await t.app.db.select().from(shipments).where(eq(shipments.orderId, order.id))
    expect(parcels).toHaveLength(1)
    expect(parcels[0]).toMatchObject({ carrier: 'Not given', trackingNumber: null, trackingUrl: null })
    const held = await t.app.db
      .select()
      .from(shipmentLines)
      .where(eq(shipmentLines.shipmentId, parcels[0]!.id))
    expect(held.map((l) => [l.orderLineId, l.quantity]).sort()).toEqual(
      lines.map((l) => [l.id, l.quantity]).sort(),
    )
    const [row] = await t.app.db.select().from(orders).where(eq(orders.id, order.id))
    expect(row!.maginusStatus).toBe(2)
    const shipped = (
      await t.app.db.select().from(orderEvents).where(eq(orderEvents.orderId, order.id))
    ).filter((e) => e.type === 'shipped')
    expect(shipped).toHaveLength(1)
    expect(shipped[0]).toMatchObject({
      actorName: 'ERP sync',
      data: { carrier: 'Not given', trackingNumber: null },
    })
    const mail = await t.app.db
      .select()
      .from(mailJobs)
      .where(like(mailJobs.dedupeKey, `order:${order.id}:v2:%`))
    expect(mail).toHaveLength(1)
    expect(mail[0]!.message.text).toContain('Carrier: Not given')
    expect(mail[0]!.message.text).not.toContain('Tracking number')
    expect(events.filter((e) => e.orderId === order.id).map((e) => e.type)).toEqual(['order.shipped'])
    const again = await call('PUT', `/orders/${n}/status`, { body: { maginusStatus: 2 }, ifMatch: '"v2"' })
    expect(again.json()).toMatchObject({ status: 'shipped', version: 2 })
  })

  it('records the ERP invoice with its PDF by its number, safely repeated, and refuses a second number', async () => {
    const { order } = await newOrder()
    const n = order.orderNumber
    const pdf = Buffer.from('%PDF-1.4\n% test invoice\n').toString('base64')
    const put = await call('PUT', `/orders/${n}/invoices/880001`, {
      body: { invoiceDate: '2026-03-31', amountMinor: order.totalIncVat, pdfBase64: pdf },
    })
    expect(put.statusCode, put.body).toBe(200)
    expect(put.json()).toEqual({ invoiceNumber: 880001, created: true, pdf: 'stored' })
    const again = await call('PUT', `/orders/${n}/invoices/880001`, {
      body: { invoiceDate: '2026-04-01', amountMinor: order.totalIncVat },
    })
    expect(again.json()).toEqual({ invoiceNumber: 880001, created: false, pdf: 'stored' })
    const [inv] = await t.app.db.select().from(invoices).where(eq(invoices.invoiceNumber, 880001))
    expect(inv!.invoiceDate.toISOString().slice(0, 10)).toBe('2026-04-01')
    expect(
      await t.app.db.select().from(adminInvoiceDocuments).where(eq(adminInvoiceDocuments.invoiceId, inv!.id)),
    ).toHaveLength(1)
    // The account's PDF download serves the ERP's own PDF for this invoice.
    const served = await storedInvoicePdf(t.app.db, order.siteId, 880001)
    expect(served?.toString('latin1').startsWith('%PDF-1.4')).toBe(true)
    expect(await storedInvoicePdf(t.app.db, order.siteId + 1000, 880001)).toBeNull()
    const second = await call('PUT', `/orders/${n}/invoices/880002`, {
      body: { invoiceDate: '2026-03-31', amountMinor: 1 },
    })
    expect(second.statusCode).toBe(409)
    const notPdf = await call('PUT', `/orders/${(await newOrder()).order.orderNumber}/invoices/880003`, {
      body: { invoiceDate: '2026-03-31', amountMinor: 1, pdfBase64: Buffer.from('hello').toString('base64') },
    })
    expect(notPdf.statusCode).toBe(422)
    expect(notPdf.json().errors).toEqual([{ row: 0, field: 'pdfBase64', message: 'must be a PDF file' }])
  })
})
