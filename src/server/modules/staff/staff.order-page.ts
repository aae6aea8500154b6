/**
 * Everything the back office's order page shows beyond the read-only summary (order-search.ts
 * `orderDetail`): the version the page's actions are checked against, each line's id with what
 * remains to ship and its builder preview, the shipments, the refunds of the ledger, the invoice,
 * every e-mail the order's timeline names, the timeline itself and the staff's notes.
 */
import { and, asc, desc, eq, inArray, isNotNull } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import type { PrintableSign } from '../cart/cart.tables.ts'
import { orderBuilderLines } from '../builders/builders.tables.ts'
import { mailJobs } from '../mail/mail.tables.ts'
import {
  invoices,
  orderEvents,
  orderItems,
  orders,
  shipmentLines,
  shipments,
  type OrderRow,
} from '../orders/orders.tables.ts'
import { shippableLines } from '../orders/order-lifecycle.shipments.ts'
import { paymentRefunds } from '../payments/payments.tables.ts'
import type { OrderData } from '../../../shared/checkout.ts'
import { orderDetail } from './order-search.ts'

/** The e-mail keys a timeline row names (orders.service.ts, order-lifecycle.write.ts, staff.orders.ts). */
function mailKeysOf(orderId: number, rows: { type: string; data: Record<string, unknown> }[]): string[] {
  const keys = ['acknowledgement', 'notification', 'payment-failed'].map((k) => `order:${orderId}:${k}`)
  for (const r of rows) {
    const v = r.data.version
    if (typeof v === 'number') {
      keys.push(`order:${orderId}:v${v}:${r.type}`)
      if (typeof r.data.idempotencyKey === 'string')
        keys.push(`order:${orderId}:v${v}:refund:${r.data.idempotencyKey}`)
      if (typeof r.data.refundId === 'string') keys.push(`order:${orderId}:v${v}:refund:${r.data.refundId}`)
    }
    if (typeof r.data.mailKey === 'string') keys.push(r.data.mailKey)
  }
  return keys
}

/** How the shop presents an order (OrdersService.present): its lines carry their builder previews. */
type Present = (db: Db, order: OrderRow) => Promise<OrderData>

export async function orderPage(db: Db, orderNumber: number, present: Present) {
  const base = await orderDetail(db, orderNumber)
  if (!base) return null
  const [row] = await db.select().from(orders).where(eq(orders.orderNumber, orderNumber))
  const o = row!
  const [lines, presented, timeline, parcels, refunds, [invoice], signs] = await Promise.all([
    shippableLines(db, o.id),
    present(db, o),
    db.select().from(orderEvents).where(eq(orderEvents.orderId, o.id)).orderBy(asc(orderEvents.id)),
    db.select().from(shipments).where(eq(shipments.orderId, o.id)).orderBy(asc(shipments.id)),
    db
      .select()
      .from(paymentRefunds)
      .where(eq(paymentRefunds.orderId, String(o.id)))
      .orderBy(asc(paymentRefunds.createdAt)),
    db
      .select({ number: invoices.invoiceNumber, date: invoices.invoiceDate, amount: invoices.amount })
      .from(invoices)
      .where(eq(invoices.orderId, o.id))
      .limit(1),
    db
      .select({ id: orderBuilderLines.orderItemId })
      .from(orderBuilderLines)
      .where(and(eq(orderBuilderLines.orderId, o.id), isNotNull(orderBuilderLines.printableSign))),
  ])
  const proofs = new Set(signs.map((s) => s.id))
  const parcelLines = parcels.length
    ? await db
        .select()
        .from(shipmentLines)
        .where(
          inArray(
            shipmentLines.shipmentId,
            parcels.map((p) => p.id),
          ),
        )
    : []
  const nameOf = new Map(lines.map((l) => [l.item.id, l.item.name]))
  const mails = await db
    .select({
      key: mailJobs.dedupeKey,
      message: mailJobs.message,
      status: mailJobs.status,
      sentAt: mailJobs.sentAt,
    })
    .from(mailJobs)
    .where(inArray(mailJobs.dedupeKey, mailKeysOf(o.id, timeline)))
    .orderBy(desc(mailJobs.id))
  return {
    ...base,
    version: o.version,
    paymentStatus: o.paymentStatus,
    fulfilmentStatus: o.fulfilmentStatus,
    refundedMinor: o.refundedMinor,
    holdReason: o.holdReason,
    lines: lines.map((l, i) => ({
      ...base.lines[i]!,
      id: l.item.id,
      shipped: l.shipped,
      remaining: l.remaining,
      options: (l.item.options ?? []).map((op) => `${op.title}: ${op.name}`),
      preview: presented.items[i]?.preview ?? null,
      proof: proofs.has(l.item.id) ? `/admin/orders/${o.orderNumber}/proofs/${l.item.id}.pdf` : null,
    })),
    shipments: parcels.map((p) => ({
      ref: p.shipmentRef,
      carrier: p.carrier,
      trackingNumber: p.trackingNumber,
      trackingUrl: p.trackingUrl,
      shippedAt: p.shippedAt.toISOString(),
      lines: parcelLines
        .filter((l) => l.shipmentId === p.id)
        .map((l) => `${l.quantity} × ${nameOf.get(l.orderLineId) ?? `line ${l.orderLineId}`}`),
    })),
    refunds: refunds.map((r) => ({
      id: r.id,
      method: r.method,
      how: r.how,
      status: r.status,
      amount: r.amountMinor,
      currency: r.currency,
      reason: r.reason,
      by: r.actorName,
      creditNote: r.creditNoteNumber,
      message: r.message,
      at: r.createdAt.toISOString(),
    })),
    invoice: invoice
      ? { number: invoice.number, date: invoice.date.toISOString(), amount: invoice.amount }
      : null,
    allMails: mails.map((m) => ({
      key: m.key,
      subject: String((m.message as { subject?: unknown }).subject ?? ''),
      to: String((m.message as { to?: unknown }).to ?? ''),
      status: m.status,
      sentAt: m.sentAt?.toISOString() ?? null,
    })),
    timeline: timeline.map((e) => ({
      id: e.id,
      type: e.type,
      actor: `${e.actorKind}: ${e.actorName}`,
      at: e.createdAt.toISOString(),
      data: e.data,
    })),
    staffNotes: timeline
      .filter((e) => e.type === 'note')
      .map((e) => ({
        id: e.id,
        by: e.actorName,
        at: e.createdAt.toISOString(),
        text: String(e.data.note ?? ''),
      })),
  }
}

/** A designed sign line of an order, for its printable proof: the sign as ordered and its quantity. */
export async function orderSignLine(
  db: Db,
  orderNumber: number,
  lineId: number,
): Promise<{ sign: PrintableSign; quantity: number; siteId: number } | null> {
  const [row] = await db
    .select({ sign: orderBuilderLines.printableSign, quantity: orderItems.quantity, siteId: orders.siteId })
    .from(orderBuilderLines)
    .innerJoin(orders, eq(orders.id, orderBuilderLines.orderId))
    .innerJoin(orderItems, eq(orderItems.id, orderBuilderLines.orderItemId))
    .where(and(eq(orders.orderNumber, orderNumber), eq(orderBuilderLines.orderItemId, lineId)))
  return row?.sign ? { sign: row.sign, quantity: row.quantity, siteId: row.siteId } : null
}
