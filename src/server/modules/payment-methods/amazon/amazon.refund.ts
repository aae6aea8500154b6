/**
 * Amazon Pay refunds and cancellations of a placed order's charge (ADR 0210). A refund is
 * POST /v2/refunds with the required x-amz-pay-idempotency-key derived from our refund id (a
 * repeat answers the first refund). Amazon refunds asynchronously: the answer is always
 * RefundInitiated (`pending`), and Refunded or Declined follows, announced by an IPN for the
 * REFUND object (the shop GETs /v2/refunds/{id}; the IPN carries no state) or found by the
 * reconciler. A charge not captured yet (Authorized) is cancelled instead: DELETE …/cancel.
 * An authorisation lapses 30 days after it was made (Canceled, ExpiredUnused): nothing is held
 * any more, so nothing is cancelled or refunded, and the answer says so (0 given back).
 */
import { amazonIdempotencyKey } from '../../payments/idempotency.ts'
import { toDecimalString } from '../../payments/money.ts'
import { isRecord, str, TransportError, type HttpResult } from '../../payments/providers/http.ts'
import type { AttemptContext } from '../../payments/providers/types.ts'
import type {
  RefundAnswer,
  RefundContext,
  RefundRefs,
  RefundRequest,
  RefundStatusAnswer,
} from '../../payments/refunds.types.ts'
import { type AmazonClient, AmazonAdapter } from './amazon.provider.ts'

export const amazonRefundKey = (refundId: string) =>
  amazonIdempotencyKey({ attemptId: refundId, op: 'refund' })

/** The charge's state and reason as Amazon states them. */
function chargeState(res: HttpResult): { state?: string; reason?: string } {
  const details = isRecord(res.json) && isRecord(res.json.statusDetails) ? res.json.statusDetails : {}
  return { state: str(details.state), reason: str(details.reasonCode) }
}

/** The authorisation lapsed unused: Amazon holds nothing of the buyer's money any more. */
const lapsed = (s: { state?: string; reason?: string }) =>
  s.state === 'Canceled' && s.reason === 'ExpiredUnused'

export const AMAZON_AUTHORISATION_EXPIRED =
  'The Amazon Pay authorisation expired unused (Amazon cancels one not captured within 30 days of being made): no money was held, so nothing was cancelled or given back.'

function throwIfLost(res: HttpResult, what: string): void {
  if (res.status >= 500 || res.status === 408)
    throw new TransportError('network', `Amazon ${what}: HTTP ${res.status}`)
}

const said = (res: HttpResult) =>
  isRecord(res.json)
    ? `${str(res.json.reasonCode) ?? res.status}: ${str(res.json.message) ?? ''}`.trim()
    : `HTTP ${res.status}`

/** A Refund object → the ledger's answer. */
function refundAnswer(body: Record<string, unknown>, refs: RefundRefs): RefundAnswer {
  const withId = { ...refs, amazonRefundId: String(body.refundId) }
  const details = isRecord(body.statusDetails) ? body.statusDetails : {}
  const state = str(details.state)
  const reason = str(details.reasonCode) ?? str(details.reasonDescription)
  if (state === 'Refunded') return { status: 'succeeded', how: 'refund', refs: withId }
  if (state === 'RefundInitiated')
    return { status: 'pending', how: 'refund', refs: withId, message: 'Amazon RefundInitiated' }
  return {
    status: 'failed',
    how: 'refund',
    refs: withId,
    message: `Amazon ${state ?? 'no state'}${reason ? `: ${reason}` : ''}`,
  }
}

/**
 * Refund `amountMinor` of the attempt's charge (or cancel it while not captured, when `mayVoid`).
 * A refusal is `failed` with Amazon's reason code; a time-out, a dropped connection or a 5xx throws.
 */
export async function amazonRefund(
  client: AmazonClient,
  attempt: AttemptContext,
  request: RefundRequest,
): Promise<RefundAnswer> {
  const chargeId = attempt.refs.amazonChargeId
  const key = amazonRefundKey(request.refundId)
  const refs: RefundRefs = { amazonIdempotencyKey: key }
  if (!chargeId) return { status: 'failed', how: 'refund', refs, message: 'no Amazon charge to refund' }
  if (request.mayVoid) {
    const got = await client.getCharge(chargeId)
    throwIfLost(got, 'charge')
    const charge = chargeState(got)
    const state = charge.state
    // Lapsed: there is no hold to cancel; nothing was given back (not the amount asked for).
    if (lapsed(charge))
      return {
        status: 'succeeded',
        how: 'void',
        refs: {},
        amountMinor: 0,
        message: AMAZON_AUTHORISATION_EXPIRED,
      }
    if (state === 'Canceled') return { status: 'succeeded', how: 'void', refs: {} }
    if (state === 'Authorized' || state === 'AuthorizationInitiated') {
      const res = await client.cancelCharge(chargeId, 'Order cancelled')
      throwIfLost(res, 'cancel')
      if (res.status === 200) return { status: 'succeeded', how: 'void', refs: {} }
      return { status: 'failed', how: 'void', refs: {}, message: `Amazon cancel: ${said(res)}` }
    }
  }
  const res = await client.createRefund(
    {
      chargeId,
      refundAmount: {
        amount: toDecimalString(request.amountMinor, request.currency),
        currencyCode: request.currency,
      },
      softDescriptor: 'REFUND',
    },
    key,
  )
  throwIfLost(res, 'refund')
  if (
    (res.status === 201 || res.status === 200) &&
    isRecord(res.json) &&
    typeof res.json.refundId === 'string'
  )
    return refundAnswer(res.json, refs)
  if (res.status === 422 && isRecord(res.json) && res.json.reasonCode === 'InvalidChargeStatus') {
    // Say why in words a person acts on: a lapsed authorisation never took any money.
    const got = await client.getCharge(chargeId)
    if (got.status === 200 && lapsed(chargeState(got)))
      return { status: 'failed', how: 'refund', refs, message: AMAZON_AUTHORISATION_EXPIRED }
  }
  return { status: 'failed', how: 'refund', refs, message: `Amazon refused the refund: ${said(res)}` }
}

/**
 * What became of a refund: GET /v2/refunds/{id} when its id is known; else the refund is sent
 * again with its same idempotency key (Amazon answers the first one, or runs it now). A charge
 * cancelled (a lost cancel's answer) is a void that succeeded.
 */
export async function amazonRefundStatus(
  client: AmazonClient,
  attempt: AttemptContext,
  refund: RefundContext,
): Promise<RefundStatusAnswer> {
  const id = refund.refs.amazonRefundId
  if (!id) return amazonRefund(client, attempt, refund)
  const res = await client.getRefund(id)
  throwIfLost(res, 'refund')
  if (res.status === 200 && isRecord(res.json) && typeof res.json.refundId === 'string')
    return refundAnswer(res.json, {})
  return { status: 'unknown', refs: {}, message: `Amazon refund ${id}: ${said(res)}` }
}

/**
 * The Amazon adapter with a placed order's refunds and voids (ADR 0210). It lives here, beside the
 * refund calls, so the provider client never imports its refunds (no import cycle).
 */
export class AmazonAdapterWithRefunds extends AmazonAdapter {
  refund(attempt: AttemptContext, request: RefundRequest) {
    return amazonRefund(this.client, attempt, request)
  }

  refundStatus(attempt: AttemptContext, refund: RefundContext) {
    return amazonRefundStatus(this.client, attempt, refund)
  }
}
