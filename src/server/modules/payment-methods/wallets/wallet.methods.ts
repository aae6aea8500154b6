/**
 * What the PayPal and Amazon Pay checkout methods share (ADR 0065 seam, ADR 0073; each method is
 * in its own folder). The money is taken before the order transaction; settle() only records the
 * result the server verified with the provider, and refuses any paymentDetails it did not make.
 */
import type { PaymentMethod } from '../../payments/payment-methods.ts'
import { isVerified, verifiedDetails } from './wallet.shared.ts'

export const PAYPAL_ORDER_ID = /^[A-Za-z0-9-]{5,64}$/
export const AMAZON_SESSION_ID = /^[A-Za-z0-9-]{8,100}$/

const NOT_VERIFIED = 'The payment has not been confirmed. Please click on the payment button and try again.'

export function walletMethod(id: 'paypal' | 'amazon', available: PaymentMethod['available']): PaymentMethod {
  return {
    id,
    available,
    parseDetails(form) {
      const details = (form as { paymentDetails?: unknown }).paymentDetails
      // Only what wallets.routes.ts made after asking the provider; never the browser's JSON.
      if (!isVerified(details)) return { ok: false, errors: { payment_method: [NOT_VERIFIED] } }
      return { ok: true, details }
    },
    resume(row) {
      const refs = row.providerRefs
      return Promise.resolve(
        verifiedDetails(
          id === 'paypal'
            ? {
                orderID: refs.paypalOrderId ?? '',
                reApprovalRequired: false,
                attemptId: row.id,
                attemptState: row.state,
                captureId: refs.paypalCaptureId ?? null,
              }
            : {
                amazonOrderData: {
                  amazonCheckoutSessionId: refs.amazonCheckoutSessionId ?? '',
                  paymentDescriptor: '',
                  hasViewedDeliveryOptions: false,
                },
                attemptId: row.id,
                attemptState: row.state,
                chargeId: refs.amazonChargeId ?? null,
                chargePermissionId: refs.amazonChargePermissionId ?? null,
              },
        ),
      )
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

export const originOf = (url: string) => {
  try {
    return [new URL(url).origin]
  } catch {
    return []
  }
}
