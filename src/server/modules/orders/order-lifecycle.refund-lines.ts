/**
 * A refund asked for by order lines (ADR 0200): each line has a cap of its own besides the
 * order's. A line gives back at most what it was charged (after discount, with VAT), less what
 * earlier refunds of that line gave or may still give; and no more of it than was ordered, less
 * the quantities earlier refunds took. Each line's share is worked out on the running quantity
 * (`floor(charged × refunded-so-far ÷ ordered)` less what was given before), so a line refunded
 * one unit at a time gives back exactly what it was charged, never a penny more or less.
 * Pure arithmetic on what the caller read under the order's row lock (order-lifecycle.refunds.ts).
 */
import { DomainError } from '../../lib/domain-error.ts'
import { invalidInput } from './order-lifecycle.types.ts'
import type { OrderItemRow, OrderRow } from './orders.tables.ts'

/** One line of a refund by lines, as its `refund_requested` row records it. */
export interface RefundedLine {
  lineId: number
  quantity: number
  amountMinor: number
}

/** What earlier refunds took of each line: quantity and money, by line id. */
type LineRefunds = Map<number, { quantity: number; amountMinor: number }>

/** Sums the lines of the refunds that count (not refused, not settled as failed). */
export function lineRefundsOf(requests: readonly (readonly RefundedLine[])[]): LineRefunds {
  const taken: LineRefunds = new Map()
  for (const lines of requests)
    for (const l of lines) {
      const t = taken.get(l.lineId) ?? { quantity: 0, amountMinor: 0 }
      taken.set(l.lineId, { quantity: t.quantity + l.quantity, amountMinor: t.amountMinor + l.amountMinor })
    }
  return taken
}

/** What a line was charged: its total after discount, with VAT. */
const chargedOf = (item: OrderItemRow) => item.lineTotal + item.vat

/**
 * The lines asked for, each with its share of money, checked against each line's own cap. A line
 * named twice counts once with both quantities. Refuses, naming the line, what exceeds it.
 */
export function linesAsked(
  order: OrderRow,
  items: readonly OrderItemRow[],
  asked: readonly { lineId: number; quantity: number }[],
  earlier: LineRefunds,
): RefundedLine[] {
  if (!Array.isArray(asked) || asked.length === 0)
    throw invalidInput('lines', 'Name at least one line to refund.')
  const byId = new Map(items.map((i) => [i.id, i]))
  const wanted = new Map<number, { quantity: number; index: number }>()
  for (const [i, line] of asked.entries()) {
    if (!byId.has(line.lineId))
      throw invalidInput(`lines.${i}.lineId`, `Line ${line.lineId} is not on order ${order.orderNumber}.`)
    if (!Number.isSafeInteger(line.quantity) || line.quantity <= 0)
      throw invalidInput(`lines.${i}.quantity`, 'A quantity to refund must be a positive whole number.')
    const w = wanted.get(line.lineId)
    wanted.set(line.lineId, { quantity: (w?.quantity ?? 0) + line.quantity, index: w?.index ?? i })
  }
  return [...wanted].map(([lineId, { quantity, index }]) => {
    const item = byId.get(lineId)!
    const before = earlier.get(lineId) ?? { quantity: 0, amountMinor: 0 }
    const charged = chargedOf(item)
    const leftQuantity = Math.max(0, item.quantity - before.quantity)
    const leftMinor = Math.max(0, charged - before.amountMinor)
    if (quantity > leftQuantity) {
      const message =
        leftQuantity === 0
          ? `Line ${lineId} (${item.sku}) has been refunded in full already (${item.quantity} of ${item.quantity}): nothing more can be refunded for it.`
          : `Line ${lineId} (${item.sku}) has ${leftQuantity} of ${item.quantity} left to refund (at most ${leftMinor} ${order.currency} minor units); a refund cannot take ${quantity}.`
      throw new DomainError(
        'refund_exceeds_refundable',
        message,
        { [`lines.${index}.quantity`]: [message] },
        { lineId, lineRefundableQuantity: leftQuantity, lineRefundableMinor: leftMinor },
      )
    }
    const upTo = Math.floor((charged * (before.quantity + quantity)) / item.quantity)
    const amountMinor = Math.min(leftMinor, Math.max(0, upTo - before.amountMinor))
    return { lineId, quantity, amountMinor }
  })
}
