/**
 * The money seam of an order after placement (contracts.md, issue 33): what the order lifecycle
 * calls to give money back, and what the providers' refund clients answer. The names of `Actor`,
 * `OrderMoney` and `RefundOutcome` are the shared contract's, exactly (the orders side declares
 * the same shapes; the integrator unifies the two copies).
 */
import type { Tx } from '../../db/client.ts'
import type { Currency, RefundRefs } from './payments.types.ts'

// The ledger's columns' values live with the attempt's (payments.types.ts: the tables import them).
export { REFUND_STATUSES } from './payments.types.ts'
export type { RefundRefs, RefundStatus } from './payments.types.ts'

export type Actor = { kind: 'token' | 'staff' | 'provider' | 'system'; name: string }

export interface OrderMoney {
  /** Refund amountMinor of the order's captured payment(s); never beyond captured − refunded. */
  refund(input: {
    orderId: string
    amountMinor: number
    idempotencyKey: string
    reason: string
    actor: Actor
  }): Promise<RefundOutcome>
  /** Give back everything not yet given back (void if the provider still can, else refund). */
  giveBackAll(input: {
    orderId: string
    idempotencyKey: string
    reason: string
    actor: Actor
  }): Promise<RefundOutcome>
}

export type RefundOutcome = {
  refundId: string
  status: 'succeeded' | 'pending' | 'failed'
  amountMinor: number
  how: 'refund' | 'void' | 'credit_note'
  message?: string
}

/** One refund (or void) as the provider client sees it. */
export interface RefundRequest {
  /** Our ledger row's id: every provider key derives from it. */
  refundId: string
  amountMinor: number
  currency: Currency
  /** The idempotency key the shop's caller gave (kept for the record; providers get derived keys). */
  idempotencyKey: string
  /**
   * Everything captured is being given back and nothing was refunded before: the client may void
   * (cancel) the payment instead, while the provider still allows it.
   */
  mayVoid?: boolean
}

/**
 * A provider's answer to a refund or void, already classified. A time-out, a dropped connection
 * or a 5xx is not an answer: the client throws, the row becomes `unknown`, the reconciler asks.
 */
export interface RefundAnswer {
  status: 'succeeded' | 'pending' | 'failed'
  how: 'refund' | 'void'
  refs: RefundRefs
  /**
   * What was given back, when the provider says it differs from what was asked: 0 for an
   * authorisation that had already lapsed (an Amazon Pay charge 30 days old), nothing being held.
   */
  amountMinor?: number
  /** The provider's own words for a decline or a pending reason. */
  message?: string
}

/**
 * What the reconciler learns of a refund whose answer was lost or pending. `unknown`: the
 * provider still cannot say (ask again later); `askPerson`: it never will (a person checks the
 * provider's portal).
 */
export type RefundStatusAnswer =
  RefundAnswer | { status: 'unknown'; refs: RefundRefs; message: string; askPerson?: boolean }

/** The ledger row as a provider client sees it when asked again. */
export interface RefundContext extends RefundRequest {
  how: 'refund' | 'void'
  refs: RefundRefs
}

/**
 * Told inside the transaction that settles a refund later (a notification or the reconciler):
 * the orders side updates the order's payment status in that same transaction.
 */
export type RefundSettled = (
  tx: Tx,
  settled: { refundId: string; orderId: string; status: 'succeeded' | 'failed'; amountMinor: number },
) => Promise<void>
