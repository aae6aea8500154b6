/**
 * The money invariant of placement, pure: the one place that decides whether an order may be
 * written (ADR 0118). `CheckoutService.place` calls it inside the transaction that writes the
 * order, with what it read there under the basket's lock:
 *
 *  1. the basket re-priced on the server, its delivery quoted for the zone of the ORDER's shipping
 *     address (not whatever zone the basket last had);
 *  2. for every method but the purchase order, the payment attempt the order claims, with the
 *     amount and currency the PROVIDER confirmed (never the browser's): they must equal the
 *     re-priced total and the site's currency;
 *  3. the delivery rate serves the shipping address's country and zone.
 *
 * Otherwise nothing is written, and the caller gives back any money already taken. The order's
 * recorded amount is the confirmed amount (equal to the re-priced total by then).
 */
import type { ConfirmedAmount, AttemptState } from '../payments/payments.types.ts'
import type { OrderStatus } from './orders.tables.ts'

export interface PlacementFacts {
  /** The basket re-priced now, in minor units, and the site's currency */
  total: number
  currency: string
  delivery: {
    /** The zone of the order's shipping address (null: the site does not deliver there) */
    addressZone: string | null
    /** The zone the total was priced for */
    pricedZone: string | null
    /** The delivery rate in the total (null: the zone has none) */
    rateId: number | null
  }
  payment:
    | { kind: 'purchase_order' }
    | {
        kind: 'provider'
        /** The claimed attempt, or null when the order names none it may claim */
        attempt: { state: AttemptState; confirmed: ConfirmedAmount | null } | null
      }
}

export type PlacementRefusal =
  | 'delivery_not_offered'
  | 'delivery_not_for_address'
  | 'payment_missing'
  | 'payment_not_confirmed'
  | 'payment_currency_differs'
  | 'payment_amount_differs'

export type PlacementVerdict =
  | { ok: true; amount: number; status: Extract<OrderStatus, 'placed' | 'pending_payment'> }
  | { ok: false; refusal: PlacementRefusal }

export function placementVerdict(f: PlacementFacts): PlacementVerdict {
  if (f.delivery.addressZone === null) return { ok: false, refusal: 'delivery_not_offered' }
  if (f.delivery.pricedZone !== f.delivery.addressZone || f.delivery.rateId === null)
    return { ok: false, refusal: 'delivery_not_for_address' }
  if (f.payment.kind === 'purchase_order') return { ok: true, amount: f.total, status: 'placed' }
  const attempt = f.payment.attempt
  if (!attempt) return { ok: false, refusal: 'payment_missing' }
  const settled = attempt.state === 'captured' || attempt.state === 'authorised'
  if ((!settled && attempt.state !== 'pending') || !attempt.confirmed)
    return { ok: false, refusal: 'payment_not_confirmed' }
  if (attempt.confirmed.currency !== f.currency) return { ok: false, refusal: 'payment_currency_differs' }
  if (attempt.confirmed.amountMinor !== f.total) return { ok: false, refusal: 'payment_amount_differs' }
  return { ok: true, amount: attempt.confirmed.amountMinor, status: settled ? 'placed' : 'pending_payment' }
}

/**
 * A pending order's payment settled (or failed): the event for the order machine. Confirmed
 * only when the provider's final word is a success for exactly the order's amount and currency.
 */
export function settlementEvent(
  order: { total: number; currency: string },
  attempt: { state: AttemptState; confirmed: ConfirmedAmount | null },
): 'payment_confirmed' | 'payment_failed' | null {
  if (attempt.state === 'pending' || attempt.state === 'unknown' || attempt.state === 'requires_action')
    return null
  if (
    (attempt.state === 'captured' || attempt.state === 'authorised') &&
    attempt.confirmed?.amountMinor === order.total &&
    attempt.confirmed.currency === order.currency
  )
    return 'payment_confirmed'
  return 'payment_failed'
}
