/**
 * What PayPal and Amazon Pay share at checkout (ADR 0073): the shopper's details come from the
 * provider (read-only, §4 "address details are imported"), never from the browser or the
 * address book; the payment is taken BEFORE the order is written (the order transaction must
 * not call a provider, ADR 0065), and only after the server has checked everything the order
 * transaction will check, so money is not taken for an order that would then be refused.
 *
 * A verified payment reaches the PaymentMethod's settle() only through `verifiedDetails`: an
 * object the server made (a WeakSet knows it), which no JSON from a browser can forge.
 */
import { fieldErrors } from '../../../../shared/cart.schemas.ts'
import {
  CHECKOUT_TEXT,
  checkoutAddressSchema,
  checkoutContactSchema,
  type OrderForm,
} from '../../../../shared/checkout.ts'
import type { Cart } from '../../../../shared/cart.ts'
import type { AddressData } from '../../../../shared/customer.ts'
import type { Site } from '../../sites/sites.service.ts'

/** Text the spec leaves open (ADR 0073 records these). */
export const WALLET_TEXT = {
  /** §8, word for word */
  paypalOpen: 'Error opening PayPal window. Please refresh the page and try again.',
  paypalAddress:
    'Error getting address information from PayPal. Payment has not been taken. Please click on the PayPal button and try again.',
  paypalShipping: 'Error updating shipping options. Please click on the PayPal button and try again.',
  paypalTimeout: 'Loading of PayPal timed out after 6 seconds',
  amazonRender: 'Amazon payment button failed to render',
  /** Ours: the spec has a re-approval button but no words for it */
  paypalReApproval:
    'PayPal needs you to approve the new total of your order. Payment has not been taken. Please click on the PayPal button below to approve it.',
  paypalDeclined:
    'PayPal could not take the payment with the method you chose. Payment has not been taken. Please click on the PayPal button and choose another way to pay.',
  amazonDeclined:
    'Amazon Pay could not take the payment. Payment has not been taken. Please try again or choose another payment method.',
  amazonCanceled: 'The Amazon Pay checkout was cancelled. Payment has not been taken.',
  amazonSession: 'Your Amazon Pay session has expired. Please click on the Amazon Pay button and try again.',
  confirming:
    'We are still confirming your payment with the provider. Please wait a minute and press Complete Order again; you will not be charged twice.',
  alreadyPaid: 'This basket has already been paid for. Please wait while we complete your order.',
  tooManyAttempts:
    'Too many payment attempts for this basket. Please try again later or choose another payment method.',
  /** create-order's `reApproval` field is neither true nor false */
  reApprovalField: 'The reApproval field must be true or false.',
} as const

/** The buyer and address a provider holds, as the checkout's own contact and address fields. */
export interface ImportedDetails {
  contact: { firstName: string; lastName: string; email: string; phone: string; company: string }
  shipping: AddressData
}

const verified = new WeakSet<object>()

/** paymentDetails the server vouches for (settle() trusts nothing else). */
export function verifiedDetails<T extends Record<string, unknown>>(details: T): T {
  verified.add(details)
  return details
}

export function isVerified(details: unknown): details is Record<string, unknown> {
  return typeof details === 'object' && details !== null && verified.has(details)
}

export function splitName(full: string): { firstName: string; lastName: string } {
  const parts = full.trim().split(/\s+/).filter(Boolean)
  if (parts.length <= 1) return { firstName: parts[0] ?? '', lastName: parts[0] ?? '' }
  return { firstName: parts.slice(0, -1).join(' '), lastName: parts.at(-1)! }
}

/**
 * The order form with the provider's details in place of the browser's: no address-book ids,
 * billing the same as shipping. Field errors when the provider's details do not pass the
 * checkout's own rules (checked here, before any money moves).
 */
export function formWithImported(
  form: OrderForm,
  site: Site,
  imported: ImportedDetails,
  paymentDetails: Record<string, unknown>,
): { ok: true; form: OrderForm } | { ok: false; errors: Record<string, string[]> } {
  const errors: Record<string, string[]> = {}
  const contact = checkoutContactSchema.safeParse(imported.contact)
  if (!contact.success)
    for (const [k, v] of Object.entries(fieldErrors(contact.error))) errors[`contact.${k}`] = v
  const shipping = checkoutAddressSchema('shipping').safeParse(imported.shipping)
  if (!shipping.success)
    for (const [k, v] of Object.entries(fieldErrors(shipping.error))) errors[`shipping_address.${k}`] = v
  const country = imported.shipping.country.trim().toUpperCase()
  if (country && !site.settings.countries.some((c) => c.code === country))
    errors['shipping_address.country'] = [CHECKOUT_TEXT.countryInvalid]
  if (Object.keys(errors).length) return { ok: false, errors }
  return {
    ok: true,
    form: {
      ...form,
      customer_contact_id: null,
      customer_shipping_address_id: null,
      customer_billing_address_id: null,
      contact: imported.contact,
      shipping_address: imported.shipping,
      billing_address: imported.shipping,
      showingBillingAddress: false,
      VATNumber: null,
      transactions: [{ ...form.transactions[0]!, paymentDetails }],
    },
  }
}

/**
 * What the order transaction will refuse with 409, checked before any money moves: the total
 * the shopper saw and the delivery option must be the basket's now.
 */
export function basketMoved(form: OrderForm, cart: Cart): boolean {
  const selected = cart.shippingRates.find((r) => r.selected)
  return (
    !selected ||
    selected.id !== form.delivery_option ||
    form.transactions[0]!.amount !== cart.cart_total_price_inc_tax ||
    cart.errors.promotionCodes.length > 0
  )
}

/** The PayPal order breakdown of a basket (minor units): item_total + shipping + tax_total. */
export function breakdownOf(cart: Cart) {
  return {
    totalMinor: cart.cart_total_price_inc_tax,
    itemTotalMinor: cart.cart_total_price - cart.cart_total_shipping,
    shippingMinor: cart.cart_total_shipping,
    taxTotalMinor: cart.cart_total_tax,
    discountMinor: 0,
  }
}

// --- Session state -------------------------------------------------------------------

/** The PayPal order this browser created (ids from a browser are checked against it). */
export interface PaypalSession {
  orderId: string
  attemptId: string
  cartRef: string
  /** Capture tries of this attempt (a new funding source after a decline needs a new request id) */
  captureSeq: number
  reApproval: boolean
}

/** The Amazon Pay checkout of this browser: the return's state, then the bound session. */
export interface AmazonSession {
  state: string
  cartRef: string
  checkoutSessionId: string | null
  deliveryViewed: boolean
  attemptId: string | null
  /** Set when the shopper was sent to Amazon to pay: what to place on the way back */
  pending: { form: OrderForm; idempotencyKey: string | null } | null
}

/** The browser session's wallet state, read and written through the route's session. */
export interface WalletSessionState {
  paypal(): PaypalSession | null
  setPaypal(v: PaypalSession | null): void
  amazon(): AmazonSession | null
  setAmazon(v: AmazonSession | null): void
}

/**
 * What a wallet step knows of the browser's request, as plain values (the routes make it from the
 * request): the site, the session's basket, the customer, the shop's own origin, the session's
 * wallet state and a logger.
 */
export interface WalletContext {
  site: Site
  /** The basket id the browser's session holds, or null. */
  cartId: string | null
  customerId: number | null
  /** The shop's own origin for this request (return URLs). */
  baseUrl: string
  session: WalletSessionState
  log: { warn(details: Record<string, unknown>, message: string): void }
}
