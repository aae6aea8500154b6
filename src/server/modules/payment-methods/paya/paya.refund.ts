/**
 * Paya Connect refunds and voids of a placed order's payment (ADR 0210). Paya has no idempotency
 * header: every refund carries its own `transaction_api_id` derived from our refund id (unique per
 * location), and before anything is sent Paya is asked for that id, so a retry after a lost
 * answer finds the first refund instead of making a second. A sale whose batch has not settled
 * is voided (PUT action void, status 201); a settled one is refunded (POST action refund with
 * `previous_transaction_id`, status 111); a decline is status 301 or a 422 with Paya's words.
 */
import { payaTransactionApiId } from '../../payments/idempotency.ts'
import { toDecimalString } from '../../payments/money.ts'
import { isRecord, TransportError, type HttpResult } from '../../payments/providers/http.ts'
import type { AttemptContext } from '../../payments/providers/types.ts'
import type {
  RefundAnswer,
  RefundContext,
  RefundRefs,
  RefundRequest,
  RefundStatusAnswer,
} from '../../payments/refunds.types.ts'
import { PAYA_STATUS, type PayaClient, type PayaTransaction, PayaAdapter } from './paya.provider.ts'

/** The refund's transaction_api_id: the same refund id always gives the same one. */
export const payaRefundApiId = (refundId: string) =>
  payaTransactionApiId({ attemptId: refundId, op: 'refund' })

function throwIfLost(res: HttpResult, what: string): void {
  if (res.status >= 500 || res.status === 408)
    throw new TransportError('network', `Paya ${what}: HTTP ${res.status}`)
}

function transactionOf(res: HttpResult): PayaTransaction | null {
  return isRecord(res.json) && isRecord(res.json.transaction)
    ? (res.json.transaction as unknown as PayaTransaction)
    : null
}

/** Paya's 422 errors as one sentence: `field: message; …`. */
function errorsOf(res: HttpResult): string {
  const errors = isRecord(res.json) && isRecord(res.json.errors) ? res.json.errors : null
  if (!errors) return `HTTP ${res.status} ${res.text.slice(0, 200)}`
  return Object.entries(errors)
    .map(([field, v]) => `${field}: ${Array.isArray(v) ? v.map(String).join(' ') : String(v)}`)
    .join('; ')
}

/** A refund transaction → the ledger's answer (111 refunded; 301 declined; anything else failed). */
function refundAnswer(t: PayaTransaction, refs: RefundRefs): RefundAnswer {
  const withId = { ...refs, payaRefundTransactionId: t.id }
  if (Number(t.status_id) === PAYA_STATUS.refunded)
    return { status: 'succeeded', how: 'refund', refs: withId }
  return {
    status: 'failed',
    how: 'refund',
    refs: withId,
    message: `Paya ${t.status_id}: ${t.verbiage ?? 'not refunded'}`,
  }
}

async function payment(client: PayaClient, attempt: AttemptContext): Promise<PayaTransaction | null> {
  const id = attempt.refs.payaTransactionId
  if (id) {
    const res = await client.getTransaction(id)
    throwIfLost(res, 'transaction')
    return transactionOf(res)
  }
  const apiId = attempt.refs.payaTransactionApiId
  if (!apiId) return null
  const found = await client.findByApiId(apiId)
  throwIfLost(found.res, 'lookup')
  return found.transaction
}

/**
 * Refund (or, when `mayVoid` and the batch has not settled, void) a Paya sale. A decline or a
 * refusal is `failed` with Paya's words; a time-out, a dropped connection or a 5xx throws.
 */
export async function payaRefund(
  client: PayaClient,
  attempt: AttemptContext,
  request: RefundRequest,
): Promise<RefundAnswer> {
  const sale = await payment(client, attempt)
  if (!sale) return { status: 'failed', how: 'refund', refs: {}, message: 'Paya has no such transaction' }
  if (request.mayVoid && !sale.settle_date) {
    const status = Number(sale.status_id)
    if (status === PAYA_STATUS.voided) return { status: 'succeeded', how: 'void', refs: {} }
    const res = await client.update(sale.id, 'void')
    throwIfLost(res, 'void')
    if (res.status >= 200 && res.status < 300) return { status: 'succeeded', how: 'void', refs: {} }
    // Refused: the batch settled meanwhile (an auth-only cannot be refunded: said below).
  }
  return lookThenSend(client, sale, request)
}

/** Look-up-before-send: Paya is asked for the refund's api id first; only if it has none, sent. */
async function lookThenSend(
  client: PayaClient,
  sale: PayaTransaction,
  request: RefundRequest,
): Promise<RefundAnswer> {
  const apiId = payaRefundApiId(request.refundId)
  const refs: RefundRefs = { payaTransactionApiId: apiId }
  const earlier = await client.findByApiId(apiId)
  throwIfLost(earlier.res, 'lookup')
  if (earlier.transaction) return refundAnswer(earlier.transaction, refs)
  const res = await client.refund({
    action: 'refund',
    payment_method: 'cc',
    previous_transaction_id: sale.id,
    transaction_amount: toDecimalString(request.amountMinor, 'USD'),
    transaction_api_id: apiId,
    location_id: client.config.locationId,
    product_transaction_id: client.config.productTransactionId,
  })
  throwIfLost(res, 'refund')
  const made = transactionOf(res)
  if ((res.status === 200 || res.status === 201) && made) return refundAnswer(made, refs)
  return { status: 'failed', how: 'refund', refs, message: `Paya refused the refund: ${errorsOf(res)}` }
}

/**
 * What became of a refund whose answer was lost: the refund by its id or its api id, else (never
 * arrived) sent now; a void whose answer was lost: the sale's status says whether it is voided.
 */
export async function payaRefundStatus(
  client: PayaClient,
  attempt: AttemptContext,
  refund: RefundContext,
): Promise<RefundStatusAnswer> {
  if (refund.refs.payaRefundTransactionId) {
    const res = await client.getTransaction(refund.refs.payaRefundTransactionId)
    throwIfLost(res, 'transaction')
    const t = transactionOf(res)
    return t ? refundAnswer(t, {}) : { status: 'unknown', refs: {}, message: 'Paya does not show the refund' }
  }
  const sale = await payment(client, attempt)
  if (!sale) return { status: 'failed', how: 'refund', refs: {}, message: 'Paya has no such transaction' }
  if (refund.how === 'void' && Number(sale.status_id) === PAYA_STATUS.voided)
    return { status: 'succeeded', how: 'void', refs: {} }
  if (refund.how === 'void' && !sale.settle_date) return payaRefund(client, attempt, refund)
  return lookThenSend(client, sale, refund)
}

/**
 * The Paya adapter with a placed order's refunds and voids (ADR 0210). It lives here, beside the
 * refund calls, so the provider client never imports its refunds (no import cycle).
 */
export class PayaAdapterWithRefunds extends PayaAdapter {
  refund(attempt: AttemptContext, request: RefundRequest) {
    return payaRefund(this.client, attempt, request)
  }

  refundStatus(attempt: AttemptContext, refund: RefundContext) {
    return payaRefundStatus(this.client, attempt, refund)
  }
}
