/**
 * Deterministic idempotency keys: the same (attempt, operation, sequence) always gives the same
 * key, so a retried call is recognised by the provider as the same request. Each provider has
 * its own mechanism and limits (payments.md §7.1); the mapping lives here, nowhere else.
 */
import { createHash } from 'node:crypto'

export type Operation = 'create' | 'pay' | 'capture' | 'authorize' | 'complete' | 'update' | 'void' | 'refund'

export interface KeyParts {
  attemptId: string
  op: Operation
  /** Retries of the same operation that must NOT be recognised as the same request (new card). */
  seq?: number
}

/** The canonical key; providers get a shortened form of it. */
export function idempotencyKey({ attemptId, op, seq = 0 }: KeyParts): string {
  return `${attemptId}:${op}:${seq}`
}

function digest(parts: KeyParts, length: number): string {
  return createHash('sha256').update(idempotencyKey(parts)).digest('hex').slice(0, length)
}

/** PayPal-Request-Id: any string up to 108 characters; the canonical key fits. */
export function paypalRequestId(parts: KeyParts): string {
  return idempotencyKey(parts)
}

/** Amazon x-amz-pay-idempotency-key: at most 32 alphanumeric characters. */
export function amazonIdempotencyKey(parts: KeyParts): string {
  return digest(parts, 32)
}

/** Opayo vendorTxCode: unique per vendor, at most 40 characters of [A-Za-z0-9{}._-]. */
export function opayoVendorTxCode(parts: KeyParts): string {
  return `SHOP-${digest(parts, 32)}`
}

/** Paya transaction_api_id: unique per location, at most 64 characters. */
export function payaTransactionApiId(parts: KeyParts): string {
  return `shop-${digest(parts, 48)}`
}
