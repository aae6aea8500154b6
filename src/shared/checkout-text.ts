/**
 * The checkout's numbers and texts without zod, for pages that show them but validate no form
 * (the order-complete page); shared/checkout.ts re-exports them beside its schemas. The limits
 * among the numbers are checkout-rules.ts's, named here for the pages.
 */
import { FEEDBACK_MAX, NOTES_MAX, PHONE_MAX, PHONE_MIN } from './checkout-rules.ts'

export const CHECKOUT = {
  numberOfSteps: 3,
  completedCeiling: 5,
  stepJumpDelayMs: 200,
  paymentMethodCookieDays: 1,
  notesMax: NOTES_MAX,
  phoneMin: PHONE_MIN,
  phoneMax: PHONE_MAX,
  feedbackMax: FEEDBACK_MAX,
  summaryOpenAbove: 768,
  challengeWindowBreakpoint: 640,
  addressSearchThrottleMs: 1000,
  printDelayMs: 1000,
  estimatedDeliveryDays: 1,
} as const

export const CHECKOUT_TEXT = {
  processing: 'Please wait, we are currently processing your order.',
  required: 'This field is required.',
  emailInvalid: 'This email provided is invalid.',
  phoneShort: `Please enter at least ${PHONE_MIN} characters.`,
  phoneLong: `Please enter no more than ${PHONE_MAX} characters.`,
  tooLong: (n: number) => `Please enter no more than ${n} characters.`,
  countryInvalid: 'Please choose a country from the list.',
  addressInvalid: 'Required address field is empty or invalid.',
  somethingWrong: 'Something went wrong.',
  methodFailedToLoad: (id: string) =>
    `Payment method: ${id} failed to load. Please refresh the page or try another payment method.`,
  testMode: 'payments go to test providers; no real money is taken. Use the test cards only.',
  unknownError: 'An unknown error occurred.',
  shippingRateError: 'An error occurred while updating shipping rate.',
  methodFailed: (id: string) =>
    `Payment method: ${id} failed to load. Please refresh the page or try another payment method.`,
  methodUnavailable: 'This payment method is not available. Please choose another one.',
  emptyBasket: 'Your basket is empty.',
  totalChanged:
    'The prices in your basket have changed since you started checking out. Nothing has been ordered: please check your basket and place your order again.',
  paymentReturned: (amount: string) =>
    `The payment of ${amount} you made for it has been cancelled and is being returned to you.`,
  paymentToRefund: (amount: string) =>
    `Your payment of ${amount} could not be cancelled automatically: our team has been told and will refund it.`,
  paymentNotConfirmed:
    'The payment has not been confirmed. Please try again or choose another payment method.',
  deliveryChanged: 'Please choose a delivery option again: the options for your basket have changed.',
  unavailable: (name: string) => `${name} is no longer available. Please remove it from your basket.`,
  notPriced: (name: string) => `${name} cannot be ordered at the moment. Please remove it from your basket.`,
  minimumOrder: (minimum: string, short: string) =>
    `The minimum order value is ${minimum} (excluding VAT). Please add ${short} more to your basket.`,
  idempotencyReused: 'This Idempotency-Key was already used for another basket.',
  feedbackEmpty: 'The feedback box is empty.',
  feedbackTooLong: `Too many characters used! Maximum is ${FEEDBACK_MAX} characters.`,
  feedbackFailed: 'An error occurred while submitting feedback.',
  feedbackThanks: 'Thank you! Your feedback has been received.',
  optOut: (choice: 'out of' | 'in to') =>
    `You opted ${choice} receiving marketing emails. If this was a mistake, please amend and re-submit the form above.`,
  orderTitle: 'Order Complete',
} as const

/** What the customer paid: the order's total with VAT plus delivery. */
export function orderTotal(order: { totalCostIncTax: number; totalShippingCost: number }): number {
  return order.totalCostIncTax + order.totalShippingCost
}
