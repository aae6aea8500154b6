/**
 * Shipments (ADR 0200): a parcel holds lines in quantities; none may hold more of a line than was
 * ordered minus what earlier parcels held (checked under the order's row lock, so two parcels
 * posted at once cannot both take the last unit). The order becomes `partially_shipped`, or
 * `shipped` once every line is covered; a held order ships nothing until it is released. A
 * shipment reference is unique per order: the same one again with the same carrier and tracking
 * number is a replay and changes nothing. A parcel may have no tracking number (the ERP's Maginus
 * status 2 says only that everything was sent): it is recorded, mailed and announced the same way.
 */
import { eq, inArray, sql } from 'drizzle-orm'
import type { Db, Executor } from '../../db/client.ts'
import { DomainError } from '../../lib/domain-error.ts'
import { orderTransition } from './order.state.ts'
import { orderItems, shipmentLines, shipments, type OrderRow } from './orders.tables.ts'
import { shippedMail, trackingLink } from './orders.lifecycle-mail.ts'
import {
  actorOf,
  applyChange,
  checkVersion,
  inTransaction,
  lockOrder,
  requiredText,
} from './order-lifecycle.write.ts'
import {
  invalidInput,
  summaryOf,
  transitionRefused,
  type OrderLifecycleDeps,
  type OrderLifecycleSummary,
  type ShipInput,
} from './order-lifecycle.types.ts'

/** Each line of the order: ordered, shipped so far, and what remains. */
export async function shippableLines(executor: Executor, orderId: number) {
  const items = await executor
    .select()
    .from(orderItems)
    .where(eq(orderItems.orderId, orderId))
    .orderBy(orderItems.id)
  const shipped =
    items.length === 0
      ? []
      : await executor
          .select({
            lineId: shipmentLines.orderLineId,
            quantity: sql<number>`sum(${shipmentLines.quantity})::int`,
          })
          .from(shipmentLines)
          .where(
            inArray(
              shipmentLines.orderLineId,
              items.map((i) => i.id),
            ),
          )
          .groupBy(shipmentLines.orderLineId)
  const byLine = new Map(shipped.map((s) => [s.lineId, Number(s.quantity)]))
  return items.map((i) => ({
    item: i,
    ordered: i.quantity,
    shipped: byLine.get(i.id) ?? 0,
    remaining: i.quantity - (byLine.get(i.id) ?? 0),
  }))
}

function shippedAtOf(value: ShipInput['shippedAt'], now: () => Date): Date {
  if (value === undefined) return now()
  const date = value instanceof Date ? value : new Date(value)
  if (Number.isNaN(date.getTime())) throw invalidInput('shippedAt', 'The shipping date is not a date.')
  return date
}

function optionalUrl(value: ShipInput['trackingUrl']): string | null {
  if (value === undefined || value === null || value.trim() === '') return null
  return requiredText('trackingUrl', value, 2000, 'The tracking URL')
}

export async function shipOrder(
  deps: OrderLifecycleDeps,
  db: Db,
  input: ShipInput,
): Promise<OrderLifecycleSummary> {
  const actor = actorOf(input.actor)
  const shipmentRef = requiredText('shipmentRef', input.shipmentRef, 100, 'The shipment reference')
  const carrier = requiredText('carrier', input.carrier, 100, 'The carrier')
  const trackingNumber =
    input.trackingNumber === undefined || input.trackingNumber === null
      ? null
      : requiredText('trackingNumber', input.trackingNumber, 100, 'The tracking number')
  const trackingUrl = optionalUrl(input.trackingUrl)
  const shippedAt = shippedAtOf(input.shippedAt, deps.now ?? (() => new Date()))
  return inTransaction(deps, db, input, async (tx, site) => {
    const order = await lockOrder(tx, input)
    const [existing] = await tx
      .select()
      .from(shipments)
      .where(sql`${shipments.orderId} = ${order.id} and ${shipments.shipmentRef} = ${shipmentRef}`)
    if (existing) {
      if (existing.carrier === carrier && existing.trackingNumber === trackingNumber) return summaryOf(order)
      throw transitionRefused(
        `Shipment ${shipmentRef} is already recorded on order ${order.orderNumber} with other details.`,
      )
    }
    checkVersion(order, input.expectVersion)
    const lines = await shippableLines(tx, order.id)
    const parcel = parcelOf(order, lines, input.lines)
    const complete = lines.every((l) => l.remaining === (parcel.get(l.item.id) ?? 0))
    const t = orderTransition(
      { status: order.status, heldFrom: order.heldFrom },
      complete ? 'ship_all' : 'ship_part',
    )
    if (!t.ok) throw transitionRefused(t.reason)
    const [shipment] = await tx
      .insert(shipments)
      .values({ orderId: order.id, shipmentRef, carrier, trackingNumber, trackingUrl, shippedAt })
      .returning()
    await tx
      .insert(shipmentLines)
      .values(
        [...parcel].map(([orderLineId, quantity]) => ({ shipmentId: shipment!.id, orderLineId, quantity })),
      )
    const held = lines.filter((l) => parcel.has(l.item.id))
    const mailLines = held.map((l) => ({
      name: l.item.name,
      sku: l.item.sku,
      quantity: parcel.get(l.item.id)!,
    }))
    const data = {
      shipmentRef,
      carrier,
      trackingNumber,
      trackingUrl: trackingLink(trackingUrl),
      shippedAt: shippedAt.toISOString(),
      lines: held.map((l) => ({ lineId: l.item.id, sku: l.item.sku, quantity: parcel.get(l.item.id)! })),
    }
    const changed = await applyChange(tx, deps, site, order, {
      set: { status: t.to, fulfilmentStatus: complete ? 'shipped' : 'partially_shipped' },
      timeline: { type: 'shipped', actor, data },
      event: { type: 'order.shipped', data },
      mail: (site, o, row) =>
        shippedMail(
          site,
          o,
          { carrier, trackingNumber, trackingUrl, shippedAt, lines: mailLines, complete },
          row.siteOrigin,
        ),
      mailName: `shipment:${shipment!.id}`,
    })
    return summaryOf(changed)
  })
}

/** The parcel's quantities by order line, checked against what remains of each line. */
function parcelOf(
  order: OrderRow,
  lines: Awaited<ReturnType<typeof shippableLines>>,
  asked: ShipInput['lines'],
): Map<number, number> {
  const parcel = new Map<number, number>()
  if (asked === undefined) {
    for (const l of lines) if (l.remaining > 0) parcel.set(l.item.id, l.remaining)
  } else {
    if (!Array.isArray(asked) || asked.length === 0)
      throw invalidInput('lines', 'Name at least one line to ship.')
    const byId = new Map(lines.map((l) => [l.item.id, l]))
    for (const [i, line] of asked.entries()) {
      if (!byId.has(line.lineId))
        throw invalidInput(`lines.${i}.lineId`, `Line ${line.lineId} is not on order ${order.orderNumber}.`)
      if (!Number.isSafeInteger(line.quantity) || line.quantity <= 0)
        throw invalidInput(`lines.${i}.quantity`, 'A quantity to ship must be a positive whole number.')
      parcel.set(line.lineId, (parcel.get(line.lineId) ?? 0) + line.quantity)
    }
    for (const [lineId, quantity] of parcel) {
      const l = byId.get(lineId)!
      if (quantity > l.remaining)
        throw new DomainError(
          'shipment_exceeds_ordered',
          `Line ${lineId} (${l.item.sku}) has ${l.remaining} left to ship of ${l.ordered} ordered; a parcel cannot hold ${quantity}.`,
          { lines: [`Line ${lineId}: at most ${l.remaining}.`] },
          { lineId, remaining: l.remaining },
        )
    }
  }
  if (parcel.size === 0) {
    const t = orderTransition({ status: order.status, heldFrom: order.heldFrom }, 'ship_all')
    throw transitionRefused(
      t.ok ? `Everything on order ${order.orderNumber} has been shipped already.` : t.reason,
    )
  }
  return parcel
}
