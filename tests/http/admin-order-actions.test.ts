/**
 * The back office's order actions over HTTP on a real database (issue 34): each through the order
 * lifecycle the ERP's API uses, the staff member on the timeline, one audit row per action in the
 * change's transaction, a viewer refused by the server, a stale page refused with the fresh order,
 * a double submit done once, an invalid transition's own message, bad input changing nothing.
 */
import { randomUUID } from 'node:crypto'
import { and, asc, eq, like } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  cartItems,
  categories,
  customers,
  orderBuilderLines,
  invoices,
  mailJobs,
  orderEvents,
  orderItems,
  orders,
} from '../../src/server/db/schema.ts'
import type { OrderRow } from '../../src/server/modules/orders/orders.tables.ts'
import { paymentRefunds } from '../../src/server/modules/payments/payments.tables.ts'
import { staffAudit } from '../../src/server/modules/staff/staff.tables.ts'
import { buildTestApp, type TestApp } from '../helpers/app.ts'
import { Visitor } from '../helpers/visitor.ts'
import { makeStaff, signIn, type MadeStaff, type StaffBrowser } from './staff.fixture.ts'

let t: TestApp
let template!: OrderRow
let staff: StaffBrowser
let staffUser: MadeStaff
let viewer: StaffBrowser

beforeAll(async () => {
  t = await buildTestApp({ trustProxy: true })
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
  staffUser = await makeStaff(t.app, 'staff')
  staff = await signIn(t.app, staffUser)
  viewer = await signIn(t.app, await makeStaff(t.app, 'viewer'))
})
afterAll(() => t?.close())

/** A placed, paid purchase order of the demo customer (refunds are credit notes) with these lines. */
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

const current = async (id: number) => (await t.app.db.select().from(orders).where(eq(orders.id, id)))[0]!
const timeline = (id: number) =>
  t.app.db.select().from(orderEvents).where(eq(orderEvents.orderId, id)).orderBy(asc(orderEvents.id))
const audits = (n: number) =>
  t.app.db
    .select()
    .from(staffAudit)
    .where(and(eq(staffAudit.targetType, 'order'), eq(staffAudit.targetId, String(n))))
    .orderBy(asc(staffAudit.id))

interface Page {
  notice: string | null
  errors: Record<string, string>
  quote: { amountMinor: number; refundableMinor: number } | null
  order: { version: number; status: string; staffNotes: { text: string }[]; timeline: { type: string }[] }
}
const act = async (
  who: StaffBrowser,
  o: OrderRow,
  body: Record<string, unknown>,
  opts: { version?: number; submission?: string } = {},
) => {
  const res = await who.post(`/admin/orders/${o.orderNumber}`, {
    version: opts.version ?? (await current(o.id)).version,
    submission: opts.submission ?? randomUUID(),
    ...body,
  })
  const page = res.headers['x-inertia'] ? (res.json().props as Page) : null
  return { status: res.statusCode, page }
}

describe('order actions in the back office', () => {
  it('holds an order with the staff member on the timeline and an audit row of before and after', async () => {
    const { order } = await newOrder()
    const { status, page } = await act(staff, order, { intent: 'hold', reason: 'Address to check' })
    expect(status).toBe(200)
    expect(page!.notice).toBe('The order is on hold.')
    expect(page!.order.status).toBe('held')
    const held = (await timeline(order.id)).find((e) => e.type === 'held')!
    expect(held.actorKind).toBe('staff')
    expect(held.actorName).toBe(staffUser.email)
    const [row] = await audits(order.orderNumber)
    expect(row).toMatchObject({ action: 'order.hold', actorEmail: staffUser.email })
    expect(row!.before).toMatchObject({ status: 'placed', version: 1 })
    expect(row!.after).toMatchObject({ status: 'held', version: 2, reason: 'Address to check' })
  })

  it('refuses a viewer with 403 even with a valid session and CSRF token, and changes nothing', async () => {
    const { order } = await newOrder()
    for (const body of [
      { intent: 'hold', reason: 'sneaky' },
      { intent: 'ship', carrier: 'DPD', trackingNumber: 'X1', scope: 'all' },
      { intent: 'refund', reason: 'sneaky', scope: 'all' },
      { intent: 'note', note: 'sneaky' },
    ]) {
      const { status } = await act(viewer, order, body)
      expect(status, body.intent).toBe(403)
    }
    expect((await current(order.id)).version).toBe(1)
    expect(await audits(order.orderNumber)).toEqual([])
  })

  it('refuses a stale page with a clear message and the fresh order, doing nothing', async () => {
    const { order } = await newOrder()
    await act(staff, order, { intent: 'hold', reason: 'first' })
    const { status, page } = await act(staff, order, { intent: 'release' }, { version: 1 })
    expect(status).toBe(409)
    expect(page!.errors.form).toMatch(/^This order changed since you opened it/)
    expect(page!.order).toMatchObject({ status: 'held', version: 2 })
    expect((await current(order.id)).status).toBe('held')
  })

  it('does a double submit once, whether the second comes after the first or at the same time', async () => {
    const { order } = await newOrder()
    const submission = randomUUID()
    const first = await act(staff, order, { intent: 'hold', reason: 'twice' }, { version: 1, submission })
    const again = await act(staff, order, { intent: 'hold', reason: 'twice' }, { version: 1, submission })
    expect(first.status).toBe(200)
    expect(again.status).toBe(200)
    expect(again.page!.notice).toMatch(/already done/)
    const { order: other } = await newOrder()
    const key = randomUUID()
    const both = await Promise.all(
      [1, 2].map(() =>
        act(staff, other, { intent: 'hold', reason: 'at once' }, { version: 1, submission: key }),
      ),
    )
    expect(both.map((b) => b.status)).toEqual([200, 200])
    for (const o of [order, other]) {
      expect((await timeline(o.id)).filter((e) => e.type === 'held')).toHaveLength(1)
      expect(await audits(o.orderNumber)).toHaveLength(1)
      expect((await current(o.id)).version).toBe(2)
    }
  })

  it("answers an invalid transition with the lifecycle's own message in the page's error box", async () => {
    const { order } = await newOrder()
    const { status, page } = await act(staff, order, { intent: 'release' })
    expect(status).toBe(422)
    expect(page!.errors.form).toBe('An order that is placed cannot be released.')
    expect((await current(order.id)).version).toBe(1)
    expect(await audits(order.orderNumber)).toEqual([])
  })

  it('names the fields of bad input and changes nothing', async () => {
    const { order } = await newOrder()
    const hold = await act(staff, order, { intent: 'hold', reason: '   ' })
    expect(hold.status).toBe(422)
    expect(hold.page!.errors.reason).toBe('The reason is required.')
    const ship = await act(staff, order, {
      intent: 'ship',
      carrier: 'DPD',
      trackingNumber: '',
      scope: 'lines',
    })
    expect(ship.page!.errors).toMatchObject({ trackingNumber: 'The tracking number is required.' })
    const noOrder = await staff.post('/admin/orders/not-a-number', {
      intent: 'release',
      version: 1,
      submission: randomUUID(),
    })
    expect(noOrder.statusCode).toBe(404)
    const junk = await act(staff, order, { intent: 'explode' })
    expect(junk.status).toBe(422)
    expect(junk.page!.errors.form).toBe('The request could not be understood.')
    expect((await current(order.id)).version).toBe(1)
  })

  it('ships some lines with tracking, then the rest, recording each parcel and auditing each', async () => {
    const { order, lines } = await newOrder([3, 1])
    const part = await act(staff, order, {
      intent: 'ship',
      carrier: 'Royal Mail',
      trackingNumber: 'RM123',
      trackingUrl: 'https://track.example/RM123',
      scope: 'lines',
      lines: { [lines[0]!.id]: '2' },
    })
    expect(part.page!.order.status).toBe('partially_shipped')
    const too = await act(staff, order, {
      intent: 'ship',
      carrier: 'DPD',
      trackingNumber: 'D1',
      scope: 'lines',
      lines: { [lines[1]!.id]: '5' },
    })
    expect(too.status).toBe(422)
    const rest = await act(staff, order, {
      intent: 'ship',
      carrier: 'DPD',
      trackingNumber: 'D2',
      scope: 'all',
    })
    expect(rest.page!.order.status).toBe('shipped')
    expect((await audits(order.orderNumber)).map((a) => a.action)).toEqual(['order.ship', 'order.ship'])
  })

  it('quotes a refund of one line without changing anything, then refunds it once however often it is sent', async () => {
    const { order, lines } = await newOrder([3, 1])
    const body = { reason: 'Damaged', scope: 'lines', lines: { [lines[1]!.id]: '1' } }
    const quote = await act(staff, order, { intent: 'quote', ...body })
    expect(quote.status).toBe(200)
    const share = lines[1]!.lineTotal + lines[1]!.vat
    expect(quote.page!.quote).toMatchObject({ amountMinor: share, refundableMinor: order.totalIncVat })
    expect((await current(order.id)).version).toBe(1)
    const submission = randomUUID()
    const refund = await act(staff, order, { intent: 'refund', ...body }, { version: 1, submission })
    expect(refund.status).toBe(200)
    expect(refund.page!.notice).toBe('The refund succeeded.')
    const again = await act(staff, order, { intent: 'refund', ...body }, { version: 1, submission })
    expect(again.page!.notice).toMatch(/already done/)
    const ledger = await t.app.db
      .select()
      .from(paymentRefunds)
      .where(eq(paymentRefunds.orderId, String(order.id)))
    expect(ledger).toHaveLength(1)
    expect(ledger[0]).toMatchObject({ amountMinor: share, method: 'purchase_order', status: 'succeeded' })
    expect(await current(order.id)).toMatchObject({
      refundedMinor: share,
      paymentStatus: 'partially_refunded',
    })
    expect((await audits(order.orderNumber)).map((a) => a.action)).toEqual(['order.refund'])
  })

  it('cancels an order before shipping and gives its payment back', async () => {
    const { order } = await newOrder()
    const { page } = await act(staff, order, { intent: 'cancel', reason: 'Customer asked' })
    expect(page!.order.status).toBe('cancelled')
    expect((await current(order.id)).paymentStatus).toBe('refunded')
    expect((await audits(order.orderNumber))[0]!.action).toBe('order.cancel')
  })

  it('adds an internal note, resends the acknowledgement and records an invoice, each audited', async () => {
    const { order } = await newOrder()
    const note = await act(staff, order, { intent: 'note', note: 'Rang the customer' })
    expect(note.page!.order.staffNotes.map((n) => n.text)).toEqual(['Rang the customer'])
    const resend = await act(staff, order, { intent: 'resend' })
    expect(resend.page!.notice).toBe('The acknowledgement e-mail was queued again.')
    const queued = await t.app.db
      .select()
      .from(mailJobs)
      .where(like(mailJobs.dedupeKey, `order:${order.id}:acknowledgement:again:%`))
    expect(queued).toHaveLength(1)
    const bad = await act(staff, order, { intent: 'invoice', invoiceDate: '2026-11-28', amount: 'lots' })
    expect(bad.status).toBe(422)
    expect(bad.page!.errors.amount).toMatch(/amount/)
    const made = await act(staff, order, { intent: 'invoice', invoiceDate: '2026-11-28', amount: '12.34' })
    expect(made.page!.notice).toMatch(/^Invoice \d+ was created; the shop draws its PDF\.$/)
    const [inv] = await t.app.db.select().from(invoices).where(eq(invoices.orderId, order.id))
    expect(inv!.amount).toBe(1234)
    // Attaching the ERP's PDF to the same invoice number: checked as a PDF, then kept.
    const notPdf = await act(staff, order, {
      intent: 'invoice',
      invoiceNumber: String(inv!.invoiceNumber),
      invoiceDate: '2026-11-28',
      amount: '12.34',
      pdfBase64: Buffer.from('hello').toString('base64'),
    })
    expect(notPdf.status).toBe(422)
    expect(notPdf.page!.errors.pdfBase64).toBe('The PDF must be a PDF file.')
    const attached = await act(staff, order, {
      intent: 'invoice',
      invoiceNumber: String(inv!.invoiceNumber),
      invoiceDate: '2026-11-28',
      amount: '12.34',
      pdfBase64: Buffer.from('%PDF-1.4\n%%EOF\n').toString('base64'),
    })
    expect(attached.page!.notice).toBe(`Invoice ${inv!.invoiceNumber} was updated with its PDF.`)
    expect((await audits(order.orderNumber)).map((a) => a.action)).toEqual([
      'order.note',
      'order.resend',
      'order.invoice',
      'order.invoice',
    ])
  })

  it('serves staff and viewers the printable proof of an ordered sign line, and no proof for a plain line', async () => {
    const { order, lines } = await newOrder([1, 1])
    // A sign designed in the shop's designer, as placing the order keeps it.
    const [category] = await t.app.db
      .select({ id: categories.id })
      .from(categories)
      .where(and(eq(categories.siteId, order.siteId), eq(categories.url, '/design-your-own-sign')))
    const shopper = await new Visitor(t.app).start()
    const added = await shopper.post('/design-a-sign/add', {
      items: [
        {
          sku: 'DAS-300x200-RP',
          catid: category!.id,
          qty: 1,
          url: `/design-a-sign/${category!.id}`,
          design: {
            type: 'safe',
            layout: 'symbol-text',
            orientation: 'landscape',
            symbol: 'first-aid',
            lines: ['First aid', 'room'],
          },
        },
      ],
    })
    expect(added.statusCode).toBe(200)
    const [designed] = await t.app.db
      .select({ sign: cartItems.printableSign })
      .from(cartItems)
      .where(eq(cartItems.cartId, (added.json() as { id: string }).id))
    await t.app.db.insert(orderBuilderLines).values({
      orderItemId: lines[0]!.id,
      orderId: order.id,
      siteId: order.siteId,
      printableSign: designed!.sign,
      previewToken: randomUUID().replace(/-/g, '').slice(0, 22),
      previewAlt: 'First aid room sign',
      previewSvg: '<svg xmlns="http://www.w3.org/2000/svg"/>',
    })
    const page = (await viewer.visit(`/admin/orders/${order.orderNumber}`)).json().props as {
      order: { lines: { id: number; proof: string | null }[] }
    }
    const proofUrl = page.order.lines.find((l) => l.id === lines[0]!.id)!.proof!
    expect(page.order.lines.find((l) => l.id === lines[1]!.id)!.proof).toBeNull()
    const proof = await viewer.visit(proofUrl, { 'x-inertia': '' })
    expect(proof.statusCode).toBe(200)
    expect(proof.headers['content-type']).toBe('application/pdf')
    expect(proof.rawPayload.subarray(0, 5).toString()).toBe('%PDF-')
    const none = await viewer.visit(`/admin/orders/${order.orderNumber}/proofs/${lines[1]!.id}.pdf`)
    expect(none.statusCode).toBe(404)
  })
})
