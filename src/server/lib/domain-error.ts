/**
 * A refusal a service expects to make (ADR 0171): a code and a message the shopper can read, and
 * never an HTTP status. Services throw it and know no HTTP; `plugins/error-handler.ts` turns each
 * code into its answer (status and body), in one table. Anything else thrown is a fault: a 500
 * with the generic message.
 */

/** Every code a domain error may carry; the error handler's table has one answer per code. */
export type DomainCode =
  /** What was asked for is not the asker's (another customer's address, an unknown id) */
  | 'not_found'
  /** The request's values are wrong: messages per field, nothing changed */
  | 'invalid'
  /** There is nothing to order: the basket is empty, gone or already ordered */
  | 'empty_basket'
  /** The basket's total or delivery moved since the shopper saw it: nothing was ordered */
  | 'basket_moved'
  /** A payment provider has not answered yet (the page asks again) */
  | 'payment_pending'
  /** The provider declined, or the shopper must act first (3-D Secure challenge) */
  | 'payment_declined'
  /** A payment step names an attempt or session that is not this shopper's */
  | 'payment_not_found'
  /** A payment step found the basket moved on from what was paid */
  | 'payment_moved'
  /** A payment step's own values are wrong */
  | 'payment_invalid'
  /** No order with that number (the order lifecycle, ADR 0200) */
  | 'order_not_found'
  /** The order changed since the caller read it (If-Match / expectVersion): read it again */
  | 'order_version_mismatch'
  /** The order's state does not allow the change; the message says why */
  | 'order_transition_refused'
  /** A refund asks for more than can still be given back */
  | 'refund_exceeds_refundable'
  /** A shipment holds more of a line than was ordered and not yet shipped */
  | 'shipment_exceeds_ordered'

export class DomainError extends Error {
  constructor(
    readonly code: DomainCode,
    message: string,
    /** Messages per field (`shipping_address.country`), for the page to show under each field */
    readonly fields: Record<string, string[]> = {},
    /**
     * What else the answer carries besides the message: the re-priced basket of a moved total,
     * or a payment method's own answer (its status for the page, a retry flag, a 3-D Secure form).
     */
    readonly answer: Record<string, unknown> = {},
  ) {
    super(message)
    this.name = 'DomainError'
  }
}
