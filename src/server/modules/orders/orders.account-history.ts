/**
 * What the account's order page shows of the order's life after it was placed (issue 33): its
 * shipments (carrier, tracking number, a tracking link only for an https URL) and its refunds,
 * read from the timeline's refund rows (amount, date, pending or done; a failed one is not money
 * given back and is not shown). The caller has already checked the order is the customer's.
 */
import { and, asc, eq, inArray } from 'drizzle-orm'
import type { Executor } from '../../db/client.ts'
import type { AccountRefund, AccountShipment } from '../../../shared/account.ts'
import { trackingLink } from './orders.lifecycle-mail.ts'
import { orderEvents, orderItems, shipmentLines, shipments } from './orders.tables.ts'

export async function orderShipments(db: Executor, orderId: number): Promise<AccountShipment[]> {
  const rows = await db
    .select()
    .from(shipments)
    .where(eq(shipments.orderId, orderId))
    .orderBy(asc(shipments.shippedAt), asc(shipments.id))
  if (rows.length === 0) return []
  const lines = await db
    .select({
      shipmentId: shipmentLines.shipmentId,
      sku: orderItems.sku,
      name: orderItems.name,
      quantity: shipmentLines.quantity,
    })
    .from(shipmentLines)
    .innerJoin(orderItems, eq(orderItems.id, shipmentLines.orderLineId))
    .where(
      inArray(
        shipmentLines.shipmentId,
        rows.map((r) => r.id),
      ),
    )
    .orderBy(asc(orderItems.id))
  return rows.map((r) => ({
    carrier: r.carrier,
    trackingNumber: r.trackingNumber,
    trackingUrl: trackingLink(r.trackingUrl),
    shippedAt: r.shippedAt.toISOString(),
    lines: lines
      .filter((l) => l.shipmentId === r.id)
      .map(({ sku, name, quantity }) => ({ sku, name, quantity })),
  }))
}

export async function orderRefunds(db: Executor, orderId: number): Promise<AccountRefund[]> {
  const rows = await db
    .select()
    .from(orderEvents)
    .where(and(eq(orderEvents.orderId, orderId), inArray(orderEvents.type, ['refund', 'refund_settled'])))
    .orderBy(asc(orderEvents.id))
  const settled = new Map<string, { status: string; amount: number; date: Date }>()
  for (const r of rows)
    if (r.type === 'refund_settled')
      settled.set(String(r.data.refundId), {
        status: String(r.data.status),
        amount: Number(r.data.amountMinor),
        date: r.createdAt,
      })
  const out: AccountRefund[] = []
  for (const r of rows) {
    if (r.type !== 'refund') continue
    const amount = Number(r.data.amountMinor)
    if (r.data.status === 'succeeded' && amount > 0)
      out.push({ amount, date: r.createdAt.toISOString(), status: 'done' })
    else if (r.data.status === 'pending') {
      const later = settled.get(String(r.data.refundId))
      if (!later) out.push({ amount, date: r.createdAt.toISOString(), status: 'pending' })
      else if (later.status === 'succeeded' && later.amount > 0)
        out.push({ amount: later.amount, date: later.date.toISOString(), status: 'done' })
    }
  }
  return out
}
