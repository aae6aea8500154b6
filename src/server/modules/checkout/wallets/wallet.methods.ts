/**
 * PayPal and Amazon Pay as checkout payment methods (ADR 0065 seam, ADR 0073). The money is
 * taken before the order transaction (wallets.routes.ts); settle() only records the result the
 * server verified with the provider, and refuses any paymentDetails it did not make itself.
 */
import type { PaymentMethod } from '../payment-methods.ts'
import { isVerified } from './wallet.shared.ts'

export const PAYPAL_ORDER_ID = /^[A-Za-z0-9-]{5,64}$/
export const AMAZON_SESSION_ID = /^[A-Za-z0-9-]{8,100}$/

const NOT_VERIFIED = 'The payment has not been confirmed. Please click on the payment button and try again.'

function walletMethod(id: 'paypal' | 'amazon', available: PaymentMethod['available']): PaymentMethod {
  return {
    id,
    available,
    parseDetails(form) {
      const details = (form as { paymentDetails?: unknown }).paymentDetails
      // Only what wallets.routes.ts made after asking the provider; never the browser's JSON.
      if (!isVerified(details)) return { ok: false, errors: { payment_method: [NOT_VERIFIED] } }
      return { ok: true, details }
    },
    settle({ amount, details }) {
      const state = details.attemptState
      const paymentDetails =
        id === 'paypal'
          ? {
              orderID: details.orderID,
              reApprovalRequired: details.reApprovalRequired === true,
              captureId: details.captureId ?? null,
              attemptId: details.attemptId,
            }
          : {
              amazonOrderData: details.amazonOrderData,
              chargeId: details.chargeId ?? null,
              chargePermissionId: details.chargePermissionId ?? null,
              attemptId: details.attemptId,
            }
      return {
        status: state === 'captured' || state === 'authorised' ? 'placed' : 'pending_payment',
        transaction: {
          paymentDetails,
          amount,
          message: String(state ?? ''),
          authCode: 'empty',
        },
      }
    },
  }
}

/** PayPal: on every site that lists it (GBP or USD). */
export const paypalMethod = walletMethod('paypal', () => true)

/** Amazon Pay's UK checkout is GBP and en_GB only (§9): never on a USD site. */
export const amazonMethod = walletMethod('amazon', ({ site }) => site.currency === 'GBP')
