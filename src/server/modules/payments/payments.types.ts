/**
 * The one payment model every provider maps onto (design: payments.md §7). Amounts are integer
 * minor units here; each adapter converts at its own edge (money.ts).
 */

/** The payment methods the spec names. `purchase_order` has no provider (the checkout owns it). */
export const METHOD_IDS = ['sagepay', 'paya', 'paypal', 'amazon', 'purchase_order'] as const
export type MethodId = (typeof METHOD_IDS)[number]
/** Methods that talk to a payment provider. */
export type ProviderMethod = Exclude<MethodId, 'purchase_order'>

export type Currency = 'GBP' | 'USD'

export const ATTEMPT_STATES = [
  'created',
  'requires_action',
  'authorised',
  'captured',
  'pending',
  'declined',
  'failed',
  'unknown',
  'voided',
] as const
export type AttemptState = (typeof ATTEMPT_STATES)[number]

/** What became of a paid attempt's order (see `payment_attempts.resolution` and attempt.state.ts). */
export const ATTEMPT_RESOLUTIONS = ['order_placed', 'voiding', 'voided', 'needs_attention'] as const
export type AttemptResolution = (typeof ATTEMPT_RESOLUTIONS)[number]

/** Whatever a provider needs to find its side of an attempt again. */
export interface ProviderRefs {
  opayoTransactionId?: string
  vendorTxCode?: string
  cardIdentifier?: string
  payaTransactionId?: string
  payaTransactionApiId?: string
  paypalOrderId?: string
  paypalCaptureId?: string
  paypalAuthorizationId?: string
  amazonCheckoutSessionId?: string
  amazonChargeId?: string
  amazonChargePermissionId?: string
  /** The money given back (ADR 0130): the refund each provider made, when it was a refund. */
  opayoRefundTransactionId?: string
  payaRefundTransactionId?: string
  paypalRefundId?: string
  amazonRefundId?: string
}

/** What the browser must do before the attempt can finish. */
export type NextAction =
  | {
      type: 'threeDSChallenge'
      acsUrl: string
      creq: string
      /** Opaque attempt reference (base64url), echoed back by the ACS: never the provider's id. */
      threeDSSessionData: string
    }
  /** Amazon amazonPayRedirectUrl, PayPal payer-action (re-approval). */
  | { type: 'redirect'; url: string }
  /** Paya: the hosted form in an iframe; its postMessage comes from expectedOrigin (a hint only). */
  | { type: 'hostedForm'; url: string; expectedOrigin: string }
  /** PayPal INSTRUMENT_DECLINED: the buttons' actions.restart(). */
  | { type: 'paypalRestart' }

/**
 * The amount and currency a provider says it took (or reserved, or will settle): read from the
 * provider's own answer to our server, never from the browser. Placement compares it with the
 * re-priced basket (the money invariant, ADR 0064 addendum).
 */
export interface ConfirmedAmount {
  amountMinor: number
  currency: string
}

/** A saved card as the provider returned it (Opayo reusable card identifier). */
export interface SavedInstrument {
  token: string
  cardType: string
  last4Digits: string
  /** MMYY */
  expiryDate: string | null
}

/**
 * The result of one provider call, already classified. `unknown` is the only answer to a time-out,
 * a dropped connection or a 5xx: the money may or may not have moved, so only the reconciler
 * (which asks the provider) may resolve it.
 */
export type Outcome =
  | {
      status: 'authorised' | 'captured'
      refs: ProviderRefs
      instrument?: SavedInstrument
      /** What the provider's own answer says it took or reserved; null when the answer does not say. */
      confirmed: ConfirmedAmount | null
    }
  | { status: 'requires_action'; refs: ProviderRefs; action: NextAction }
  | { status: 'pending'; refs: ProviderRefs; reason: string; confirmed: ConfirmedAmount | null }
  | {
      status: 'declined'
      refs: ProviderRefs
      code: string
      message: string
      /** Another card or funding source may work (Opayo decline, PayPal INSTRUMENT_DECLINED). */
      retryWithNewInstrument: boolean
    }
  /** Definitely nothing taken: a validation or authentication error the provider answered. */
  | { status: 'failed'; refs: ProviderRefs; code: string; message: string }
  | {
      status: 'unknown'
      refs: ProviderRefs
      code: string
      message: string
      /**
       * The provider took the request but offers no way to ask what became of it (Opayo Pi has no
       * look-up by vendorTxCode): a person must check the provider's portal.
       */
      askPerson?: boolean
    }

/** Provider-side notification after verification: what to look up again. */
export interface VerifiedNotification {
  eventId: string
  kind: string
  refs: ProviderRefs
}

export interface RawNotification {
  headers: Record<string, string | string[] | undefined>
  rawBody: string
}

/** A ledger row's status: `unknown` = the provider's answer was lost; the reconciler asks. */
export const REFUND_STATUSES = ['pending', 'succeeded', 'failed', 'unknown'] as const
export type RefundStatus = (typeof REFUND_STATUSES)[number]
export const REFUND_HOWS = ['refund', 'void', 'credit_note'] as const
export type RefundHow = (typeof REFUND_HOWS)[number]

/** What a provider needs to find a refund (or void) again: its ids and our idempotency key. */
export interface RefundRefs {
  opayoRefundTransactionId?: string
  /** Opayo: the refund's own vendorTxCode, derived from our refund id. */
  vendorTxCode?: string
  payaRefundTransactionId?: string
  /** Paya: the refund's transaction_api_id, derived from our refund id (looked up before a retry). */
  payaTransactionApiId?: string
  paypalRefundId?: string
  /** PayPal-Request-Id of the refund (or void), derived from our refund id. */
  paypalRequestId?: string
  amazonRefundId?: string
  /** x-amz-pay-idempotency-key of the refund, derived from our refund id. */
  amazonIdempotencyKey?: string
}
