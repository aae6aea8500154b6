/**
 * The order state machine, pure (no clock, no database), beside the payment attempt's
 * (payments/attempt.state.ts). An order is written `placed` when its payment is confirmed for its
 * amount, or `pending_payment` when the provider accepted the payment but settles it later
 * (a PENDING PayPal capture, an Amazon charge still initiating). Only the provider's word moves
 * a pending order on, through an event:
 *
 *   pending_payment ─┬─ payment_confirmed ─> placed          (its e-mails are queued then)
 *                    └─ payment_failed ────> payment_failed  (the shopper is told by e-mail)
 *
 * `payment_confirmed` needs the confirmed amount and currency to equal the order's: a settlement
 * for anything else is `payment_failed` (and the money is given back by the caller).
 * Placed and payment_failed are final here; the after-sale states (hold, ship, cancel, refund)
 * are added by the order lifecycle.
 */
import type { OrderStatus } from './orders.tables.ts'

export type OrderEvent = 'payment_confirmed' | 'payment_failed'

export const ORDER_TRANSITIONS: Readonly<
  Record<OrderStatus, Readonly<Partial<Record<OrderEvent, OrderStatus>>>>
> = {
  pending_payment: { payment_confirmed: 'placed', payment_failed: 'payment_failed' },
  placed: {},
  payment_failed: {},
}

export type OrderTransition = { ok: true; from: OrderStatus; to: OrderStatus } | { ok: false; reason: string }

export function orderTransition(from: OrderStatus, event: OrderEvent): OrderTransition {
  const to = ORDER_TRANSITIONS[from][event]
  return to ? { ok: true, from, to } : { ok: false, reason: `an order that is ${from} cannot take ${event}` }
}

/** States no event leaves. */
export const FINAL_ORDER_STATES: ReadonlySet<OrderStatus> = new Set(
  (Object.keys(ORDER_TRANSITIONS) as OrderStatus[]).filter(
    (s) => Object.keys(ORDER_TRANSITIONS[s]).length === 0,
  ),
)
