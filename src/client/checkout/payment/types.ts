/**
 * The contract between the checkout page and one payment method's component (ADR 0070). The page
 * owns the steps, the form, the submitting modal and the error box; a method's component renders
 * inside the payment box and talks to the page only through these props.
 */
import type { ComponentType } from 'react'
import type { CustomerData } from '../../../shared/customer.ts'

export type FormValues = Record<string, string>

export interface PaymentForm {
  contact: FormValues
  shippingAddress: FormValues
  /** The billing address sent (the shipping address when no separate billing is shown). */
  billingAddress: FormValues
  showingBillingAddress: boolean
}

/** `/checkout/complete` answered something the page did not handle itself. */
export interface SubmitResult {
  /** true: the order was placed and the page is moving to Order Complete. */
  placed: boolean
  status: number
  data: Record<string, unknown> | null
}

export interface PaymentMethodProps {
  methodId: string
  site: { name: string; currency: 'GBP' | 'USD' }
  /** The basket's re-priced total, minor units. */
  total: number
  cartId: string
  form: PaymentForm
  customer: CustomerData | null
  /** The server's set-up for this method (`paymentConfig[methodId]` of the page props). */
  config: Record<string, unknown>
  /** The page is busy (delivery, totals, a submit): nothing may be sent. */
  loading: boolean
  /** The form is valid and a delivery option chosen: the order may be submitted. */
  canSubmit: boolean
  /** For methods that keep the page's Complete Order button: what it sends as paymentDetails. */
  setPaymentDetails(details: Record<string, unknown>): void
  /** The order form as `/checkout/complete` takes it, with this method's details and fields. */
  orderBody(
    paymentDetails: Record<string, unknown>,
    extra?: Record<string, unknown>,
  ): Promise<Record<string, unknown>>
  /**
   * Posts the order (bot-check token included) behind the submitting modal. The page handles
   * success (moves on), 409 (fresh basket and warning) and an empty basket; anything else comes
   * back with the modal closed, for the method to act on (3-D Secure) or report.
   */
  submitOrder(paymentDetails: Record<string, unknown>, extra?: Record<string, unknown>): Promise<SubmitResult>
  /** Shows a message in the checkout's error box. */
  reportError(message: string): void
  /** Opens step 3 again (after a provider error). */
  reopenStep3(): void
  /** The method failed to load: the page removes it, closes the steps and shows the §8 message. */
  removeMethod(): void
  /** Wallets: the order the provider holds for this visit (null before approval). */
  walletOrder?: WalletOrder | null
  /** PayPal: the total grew after approval; the next approval is a re-approval. */
  walletReApproval?: boolean
  /** Wallets: the provider's order exists (approved in PayPal, back from Amazon's review). */
  walletApproved?(order: WalletOrder): void
}

/**
 * A wallet's (PayPal, Amazon Pay) order once the provider has it (§4): what Complete Order sends
 * and the buyer's details, imported read-only into step 2.
 */
export interface WalletOrder {
  /** The order's paymentDetails. */
  paymentDetails: Record<string, unknown>
  /** Top-level fields of the order form (orderID, amazonCheckoutSessionId…). */
  extra: Record<string, unknown>
  contact: FormValues
  shippingAddress: FormValues
  /** PayPal: the delivery option the buyer chose in PayPal's window. */
  deliveryOption?: number | null
  /** Amazon: the delivery options were already viewed (the page may go on to step 3). */
  deliveryViewed?: boolean
  /** Amazon: the payment descriptor shown in the payment box. */
  descriptor?: string
}

export interface PaymentMethodEntry {
  Component: ComponentType<PaymentMethodProps>
  /** true: the component renders its own submit (provider buttons); the page hides Complete Order. */
  replacesCompleteButton: boolean
  /**
   * true: a wallet (§4): its component is shown on step 2, where the provider's order is made and
   * the buyer's details imported; step 2 passes only once that order exists.
   */
  wallet?: boolean
}
