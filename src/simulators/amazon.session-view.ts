/** The Amazon Pay simulator's view of a checkout session, with the constraints still open. */
import type { Session } from './amazon.state.ts'

const constraintsOf = (s: Session) => [
  ...(s.resultReturnUrl
    ? []
    : [
        {
          constraintId: 'CheckoutResultReturnUrlNotSet',
          description: 'checkoutResultReturnUrl is not set.',
        },
      ]),
  ...(s.paymentDetails?.chargeAmount
    ? []
    : [{ constraintId: 'ChargeAmountNotSet', description: 'chargeAmount is not set.' }]),
  ...(s.paymentDetails?.paymentIntent
    ? []
    : [{ constraintId: 'PaymentIntentNotSet', description: 'paymentIntent is not set.' }]),
]
/** A checkout session as the API shows it (an Open one older than 24 hours expires here). */
export const sessionView = (s: Session, origin: () => string) => {
  if (s.state === 'Open' && Date.now() - s.createdAt > 24 * 3600_000)
    [s.state, s.reasonCode] = ['Canceled', 'Expired']
  const constraints = s.state === 'Open' ? constraintsOf(s) : []
  const wc = (s.payload.webCheckoutDetails ?? {}) as Record<string, string>
  return {
    checkoutSessionId: s.id,
    webCheckoutDetails: {
      checkoutReviewReturnUrl: wc.checkoutReviewReturnUrl ?? null,
      checkoutResultReturnUrl: s.resultReturnUrl,
      amazonPayRedirectUrl:
        s.state === 'Open' && constraints.length === 0
          ? `${origin()}/amazon/pay?amazonCheckoutSessionId=${s.id}`
          : null,
    },
    productType: 'PayAndShip',
    paymentDetails: {
      paymentIntent: null,
      canHandlePendingAuthorization: false,
      chargeAmount: null,
      totalOrderAmount: null,
      presentmentCurrency: 'GBP',
      ...(s.paymentDetails ?? {}),
    },
    merchantMetadata: s.merchantMetadata,
    buyer: s.card
      ? {
          buyerId: 'amzn1.account.SIMBUYER',
          name: 'Sam Buyer',
          email: 'sam.buyer@example.com',
          phoneNumber: '07700900123',
        }
      : null,
    shippingAddress: s.card
      ? {
          name: 'Sam Buyer',
          addressLine1: '1 Harbour Street',
          addressLine2: null,
          addressLine3: null,
          city: 'Bristol',
          county: null,
          district: null,
          stateOrRegion: null,
          postalCode: 'BS1 4AA',
          countryCode: 'GB',
          phoneNumber: '07700900123',
        }
      : null,
    billingAddress: s.card
      ? {
          name: 'Sam Buyer',
          addressLine1: '1 Harbour Street',
          city: 'Bristol',
          postalCode: 'BS1 4AA',
          countryCode: 'GB',
        }
      : null,
    paymentPreferences: s.card ? [{ paymentDescriptor: `Visa ****${s.card}` }] : null,
    statusDetails: {
      state: s.state,
      reasonCode: s.reasonCode,
      reasonDescription: s.reasonCode,
      lastUpdatedTimestamp: new Date().toISOString(),
    },
    constraints,
    chargeId: s.chargeId,
    chargePermissionId: s.chargePermissionId,
    creationTimestamp: new Date(s.createdAt).toISOString(),
    expirationTimestamp: new Date(s.createdAt + 24 * 3600_000).toISOString(),
    storeId: s.payload.storeId,
  }
}
