import type {
  Currency,
  ProviderRefs,
  Outcome,
  RawNotification,
  VerifiedNotification,
  ProviderMethod,
} from '../payments.types.ts'

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

/** What the service needs from every provider adapter. */
export interface ProviderAdapter {
  readonly method: ProviderMethod
  /**
   * Ask the provider what became of the attempt, and if (and only if) the provider shows the
   * last operation never happened, repeat it with the same idempotency key.
   */
  reconcile(attempt: AttemptContext): Promise<Outcome>
  /**
   * Give back the money of an authorised or captured attempt whose order could not be placed
   * (void; adapters without it leave the attempt for a person). `ok: false` = the provider
   * refused; a network failure throws (the reconciler tries again).
   */
  void?(attempt: AttemptContext): Promise<{ ok: true } | { ok: false; message: string }>
  /** Verify an inbound notification; null = not authentic (answer 400, change nothing). */
  verifyNotification?(req: RawNotification): Promise<VerifiedNotification | null>
}

export function unknownOutcome(refs: ProviderRefs, code: string, message: string): Outcome {
  return { status: 'unknown', refs, code, message }
}
