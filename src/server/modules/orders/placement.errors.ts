/**
 * Why nothing was ordered, as domain errors (lib/domain-error.ts): codes and messages, never an
 * HTTP status; plugins/error-handler.ts answers them. Every refusal is thrown before or inside
 * the order's transaction, so nothing of the order is written.
 */
import type { Cart } from '../../../shared/cart.ts'
import { CHECKOUT_TEXT } from '../../../shared/checkout.ts'
import { CUSTOMER_TEXT } from '../../../shared/customer.ts'
import { DomainError, firstMessage, type DomainCode } from '../../lib/domain-error.ts'
import type { Authorisation } from '../payments/payment-methods.ts'
import type { PlacementRefusal } from './placement.invariant.ts'

/** The order was refused; `paymentReturned` when a payment taken for it was given back. */
export class OrderRefused extends DomainError {
  constructor(
    code: DomainCode,
    message: string,
    fields: Record<string, string[]> = {},
    readonly cart: Cart | null = null,
    /** A payment taken for it was given back (or handed to a person to refund) */
    readonly paymentReturned = false,
    answer: Record<string, unknown> = cart ? { cart } : {},
  ) {
    super(code, message, fields, answer)
    this.name = 'OrderRefused'
  }
}

/** Field messages: the first one is the answer's message. */
export const invalid = (fields: Record<string, string[]>) =>
  new OrderRefused('invalid', firstMessage(fields), fields)

export const emptyBasket = () => new OrderRefused('empty_basket', CHECKOUT_TEXT.emptyBasket)

export const notFound = () => new OrderRefused('not_found', 'Not Found')

/** The basket's delivery or total moved: the shopper sees it re-priced. */
export const moved = (message: string, cart: Cart | null) =>
  new OrderRefused('basket_moved', message, {}, cart)

/** The money invariant's refusal as the shopper's answer (nothing was ordered). */
export function refusalFor(refusal: PlacementRefusal, cart: Cart): OrderRefused {
  switch (refusal) {
    case 'delivery_not_offered':
      return invalid({ 'shipping_address.country': [CUSTOMER_TEXT.countryNotAllowed] })
    case 'delivery_not_for_address':
      return moved(CHECKOUT_TEXT.deliveryChanged, cart)
    case 'payment_missing':
    case 'payment_not_confirmed':
      return invalid({ payment_method: [CHECKOUT_TEXT.paymentNotConfirmed] })
    case 'payment_currency_differs':
    case 'payment_amount_differs':
      return moved(CHECKOUT_TEXT.totalChanged, cart)
  }
}

/**
 * A payment method's own refusal (declined, 3-D Secure challenge, still unknown) as a domain
 * error: its code, its message, and what else it said for the page, as it wrote them.
 */
export function paymentRefused(authorisation: Extract<Authorisation, { ok: false }>): DomainError {
  return new DomainError(authorisation.code, authorisation.message, {}, authorisation.answer ?? {})
}
