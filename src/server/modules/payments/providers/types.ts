import type {
  Currency,
  ProviderRefs,
  Outcome,
  RawNotification,
  VerifiedNotification,
  ProviderMethod,
} from '../payments.types.ts'
import { TransportError } from './http.ts'
import type { RefundAnswer, RefundContext, RefundRequest, RefundStatusAnswer } from '../refunds.types.ts'

/** What an adapter knows of the attempt it acts for (a read-only view of the row). */
export interface AttemptContext {
  id: string
  orderRef: string
  attemptNo: number
  amountMinor: number
  currency: Currency
  /** Opaque reference for cross-site returns (3-D Secure). */
  reference: string
  refs: ProviderRefs
  /** The operation in flight when the attempt became unknown (the reconciler repeats it idempotently). */
  lastOperation: string | null
  /** The provider request in flight when the attempt became unknown (no card data: tokens only). */
  pendingRequest: Record<string, unknown> | null
}

/**
 * What giving an attempt's money back did (ADR 0130). `how` says which way:
 * - `voided`: the authorisation or same-day payment was cancelled before it settled;
 * - `refunded`: a refund the provider completed in its answer;
 * - `refund_pending`: a refund the provider accepted and finishes later (Amazon RefundInitiated,
 *   a PayPal refund PENDING); it is announced by the provider's notification;
 * - `already_given_back`: an earlier call (whose answer may have been lost) already did it;
 * - `nothing_taken`: the provider shows no money taken (declined or cancelled there).
 * `refs` holds the refund's own id, to be merged into the attempt's refs.
 */
export type GiveBackResult =
  | {
      ok: true
      how?: 'voided' | 'refunded' | 'refund_pending' | 'already_given_back' | 'nothing_taken'
      refs?: ProviderRefs
    }
  | { ok: false; message: string }

/** What the service needs from every provider adapter. */
export interface ProviderAdapter {
  readonly method: ProviderMethod
  /**
   * Ask the provider what became of the attempt, and if (and only if) the provider shows the
   * last operation never happened, repeat it with the same idempotency key.
   */
  reconcile(attempt: AttemptContext): Promise<Outcome>
  /**
   * Give back the money of an authorised or captured attempt whose order could not be placed,
   * whichever way this provider needs (void before settlement, else a refund of the amount the
   * provider says it took), with an idempotency key derived from the attempt, so a repeat never
   * gives back twice (ADR 0130). `ok: false` = the provider refused (a person must look); a
   * network failure, a time-out or a 5xx throws (the caller tries again later, safely).
   */
  void?(attempt: AttemptContext): Promise<GiveBackResult>
  /**
   * Refund `amountMinor` of a captured attempt after its order was placed (ADR 0210), or void it
   * when `mayVoid` and the provider still can, with the provider's idempotency derived from the
   * refund id. A decline is `failed` with the provider's message; a time-out, a dropped
   * connection or a 5xx throws (the answer may be lost: the ledger row becomes `unknown`).
   */
  refund?(attempt: AttemptContext, request: RefundRequest): Promise<RefundAnswer>
  /**
   * What became of a refund whose answer was lost or is pending: looked up, or repeated with the
   * same idempotency key where the provider replays it. Throws like `refund` when not reachable.
   */
  refundStatus?(attempt: AttemptContext, refund: RefundContext): Promise<RefundStatusAnswer>
  /** Verify an inbound notification; null = not authentic (answer 400, change nothing). */
  verifyNotification?(req: RawNotification): Promise<VerifiedNotification | null>
}

/**
 * The provider cannot give the money back yet: the payment itself is still settling (a PayPal
 * capture PENDING, an Amazon charge CaptureInitiated). Thrown like a network failure: the caller
 * tries again later; nothing was given back.
 */
export class NotYetError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'NotYetError'
  }
}

export function unknownOutcome(refs: ProviderRefs, code: string, message: string): Outcome {
  return { status: 'unknown', refs, code, message }
}

/**
 * A provider call's failure seen from the attempt: a time-out, a dropped connection or a 5xx
 * (TransportError) leaves the outcome unknown — the reconciler asks the provider later — and
 * anything else is a bug, thrown on.
 */
export function unknownOrThrow(err: unknown, refs: ProviderRefs, provider: string): Outcome {
  if (err instanceof TransportError) return unknownOutcome(refs, `${provider}_${err.kind}`, err.message)
  throw err
}
