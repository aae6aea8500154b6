/**
 * PayPal refunds of a placed order's capture (ADR 0210): POST /v2/payments/captures/{id}/refund
 * with the amount (partial or whole) and a PayPal-Request-Id derived from our refund id, so a
 * repeat after a lost answer returns the first refund's latest state instead of refunding twice.
 * PayPal usually answers COMPLETED; PENDING (an eCheck) finishes later, announced by a webhook
 * (PAYMENT.CAPTURE.REFUNDED / …REFUND.FAILED) or read with GET /v2/payments/refunds/{id}. With
 * the shop's CAPTURE intent there is nothing to void; an authorisation never captured is voided.
 */
import { paypalRequestId } from '../../payments/idempotency.ts'
import { isRecord, str, TransportError, type HttpResult } from '../../payments/providers/http.ts'
import type { AttemptContext } from '../../payments/providers/types.ts'
import type {
  RefundAnswer,
  RefundContext,
  RefundRefs,
  RefundRequest,
  RefundStatusAnswer,
} from '../../payments/refunds.types.ts'
import { money, type PaypalOrder } from './paypal.order-request.ts'
import { type PaypalClient, PaypalAdapter } from './paypal.provider.ts'

export const paypalRefundRequestId = (refundId: string) =>
  paypalRequestId({ attemptId: refundId, op: 'refund' })

function throwIfLost(res: HttpResult, what: string): void {
  if (res.status >= 500 || res.status === 408)
    throw new TransportError('network', `PayPal ${what}: HTTP ${res.status}`)
}

/** PayPal's issue and its description (REFUND_AMOUNT_EXCEEDED: "The refund amount must be…"). */
function issueOf(res: HttpResult): string {
  const details = isRecord(res.json) && Array.isArray(res.json.details) ? res.json.details : []
  const first = isRecord(details[0]) ? details[0] : null
  if (first) return `${str(first.issue) ?? ''}: ${str(first.description) ?? ''}`.trim()
  return isRecord(res.json) ? (str(res.json.message) ?? `HTTP ${res.status}`) : `HTTP ${res.status}`
}

/** A refund resource → the ledger's answer. */
function refundAnswer(body: Record<string, unknown>, refs: RefundRefs): RefundAnswer {
  const withId = { ...refs, paypalRefundId: String(body.id) }
  const details = isRecord(body.status_details) ? str(body.status_details.reason) : undefined
  switch (body.status) {
    case 'COMPLETED':
      return { status: 'succeeded', how: 'refund', refs: withId }
    case 'PENDING':
      return {
        status: 'pending',
        how: 'refund',
        refs: withId,
        message: `PayPal PENDING: ${details ?? ''}`.trim(),
      }
    default:
      return {
        status: 'failed',
        how: 'refund',
        refs: withId,
        message: `PayPal ${str(body.status) ?? 'no status'}${details ? `: ${details}` : ''}`,
      }
  }
}

/** The capture (or authorisation) PayPal holds for the attempt's order. */
async function paymentsOf(
  client: PaypalClient,
  attempt: AttemptContext,
): Promise<{ captureId?: string; authorizationId?: string }> {
  if (attempt.refs.paypalCaptureId) return { captureId: attempt.refs.paypalCaptureId }
  const orderId = attempt.refs.paypalOrderId
  if (!orderId) return {}
  const res = await client.getOrder(orderId)
  throwIfLost(res, 'order')
  const payments = isRecord(res.json)
    ? (res.json as unknown as PaypalOrder).purchase_units?.[0]?.payments
    : undefined
  const captureId = payments?.captures?.[0]?.id
  const authorizationId = payments?.authorizations?.[0]?.id
  return { ...(captureId ? { captureId } : {}), ...(authorizationId ? { authorizationId } : {}) }
}

/**
 * Refund `amountMinor` of the attempt's capture (or void an authorisation never captured). A
 * refusal (REFUND_AMOUNT_EXCEEDED, CAPTURE_FULLY_REFUNDED…) is `failed` with PayPal's words; a
 * time-out, a dropped connection or a 5xx throws.
 */
export async function paypalRefund(
  client: PaypalClient,
  attempt: AttemptContext,
  request: RefundRequest,
): Promise<RefundAnswer> {
  const requestId = paypalRefundRequestId(request.refundId)
  const refs: RefundRefs = { paypalRequestId: requestId }
  const found = await paymentsOf(client, attempt)
  if (!found.captureId && found.authorizationId && request.mayVoid) {
    const voidId = paypalRequestId({ attemptId: request.refundId, op: 'void' })
    const res = await client.voidAuthorization(found.authorizationId, voidId)
    throwIfLost(res, 'void')
    if (res.status === 204 || res.status === 200)
      return { status: 'succeeded', how: 'void', refs: { paypalRequestId: voidId } }
    return {
      status: 'failed',
      how: 'void',
      refs: { paypalRequestId: voidId },
      message: `PayPal void: ${issueOf(res)}`,
    }
  }
  if (!found.captureId)
    return { status: 'failed', how: 'refund', refs, message: 'PayPal holds no capture to refund' }
  const res = await client.refundCapture(found.captureId, requestId, {
    amount: money(request.amountMinor, request.currency),
    note_to_payer: 'Refund from the shop',
  })
  throwIfLost(res, 'refund')
  if ((res.status === 200 || res.status === 201) && isRecord(res.json) && typeof res.json.id === 'string')
    return refundAnswer(res.json, refs)
  return { status: 'failed', how: 'refund', refs, message: `PayPal refused the refund: ${issueOf(res)}` }
}

/**
 * What became of a refund: GET /v2/payments/refunds/{id} when its id is known; else the refund
 * is sent again with its same PayPal-Request-Id (PayPal answers the first one, or runs it now if
 * it never arrived).
 */
export async function paypalRefundStatus(
  client: PaypalClient,
  attempt: AttemptContext,
  refund: RefundContext,
): Promise<RefundStatusAnswer> {
  const id = refund.refs.paypalRefundId
  if (!id) return paypalRefund(client, attempt, refund)
  const res = await client.call('GET', `/v2/payments/refunds/${encodeURIComponent(id)}`)
  throwIfLost(res, 'refund')
  if (res.status === 200 && isRecord(res.json) && typeof res.json.id === 'string')
    return refundAnswer(res.json, {})
  return { status: 'unknown', refs: {}, message: `PayPal refund ${id}: ${issueOf(res)}` }
}

/**
 * The Paypal adapter with a placed order's refunds and voids (ADR 0210). It lives here, beside the
 * refund calls, so the provider client never imports its refunds (no import cycle).
 */
export class PaypalAdapterWithRefunds extends PaypalAdapter {
  refund(attempt: AttemptContext, request: RefundRequest) {
    return paypalRefund(this.client, attempt, request)
  }

  refundStatus(attempt: AttemptContext, refund: RefundContext) {
    return paypalRefundStatus(this.client, attempt, refund)
  }
}
