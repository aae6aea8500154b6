/**
 * Opayo Pi refunds and voids of a placed order's payment (ADR 0210). A refund is a new
 * transaction (`transactionType: Refund`, `referenceTransactionId`) whose vendorTxCode is derived
 * from our refund id, never random: a repeat after a lost answer is refused by Opayo as a reused
 * code (4042) instead of refunding twice. A void is the `void` instruction, allowed only until
 * the payment's batch settles (midnight). Opayo answers synchronously (Ok or an error); Pi has no
 * look-up by vendorTxCode, so an answer lost for good is a person's to check in MyOpayo.
 */
import { opayoVendorTxCode } from '../../payments/idempotency.ts'
import { isRecord, str, TransportError, type HttpResult } from '../../payments/providers/http.ts'
import type { AttemptContext } from '../../payments/providers/types.ts'
import type {
  RefundAnswer,
  RefundContext,
  RefundRefs,
  RefundRequest,
  RefundStatusAnswer,
} from '../../payments/refunds.types.ts'
import { type OpayoClient, OpayoAdapter } from './opayo.provider.ts'

/** The refund's vendorTxCode: the same refund id always gives the same code. */
export const opayoRefundCode = (refundId: string) => opayoVendorTxCode({ attemptId: refundId, op: 'refund' })

/** A time-out (408) or a 5xx: Opayo may have acted, the answer is not one. */
function throwIfLost(res: HttpResult, what: string): void {
  if (res.status >= 500 || res.status === 408)
    throw new TransportError('network', `Opayo ${what}: HTTP ${res.status}`)
}

/** Opayo's first error (code and description), whatever shape the body has. */
function errorOf(res: HttpResult): { code: string; description: string } {
  const body = res.json
  const first =
    isRecord(body) && Array.isArray(body.errors) && isRecord(body.errors[0]) ? body.errors[0] : body
  return isRecord(first)
    ? {
        code: str(first.code) ?? String(res.status),
        description: str(first.description) ?? res.text.slice(0, 200),
      }
    : { code: String(res.status), description: res.text.slice(0, 200) }
}

/**
 * Refund (or, when `mayVoid` and Opayo still allows it, void) a captured Opayo payment. A decline
 * or a refusal is `failed` with Opayo's words; a time-out, a dropped connection or a 5xx throws.
 */
export async function opayoRefund(
  client: OpayoClient,
  attempt: AttemptContext,
  request: RefundRequest,
): Promise<RefundAnswer> {
  const paymentId = attempt.refs.opayoTransactionId
  if (!paymentId)
    return { status: 'failed', how: 'refund', refs: {}, message: 'no Opayo transaction to refund' }
  if (request.mayVoid) {
    const voided = await client.instruction(paymentId, 'void')
    throwIfLost(voided, 'void')
    if (voided.status === 201) return { status: 'succeeded', how: 'void', refs: {} }
    // Refused (the batch settled at midnight): a refund of the whole amount instead.
  }
  return sendRefund(client, attempt, paymentId, request)
}

async function sendRefund(
  client: OpayoClient,
  attempt: AttemptContext,
  paymentId: string,
  request: RefundRequest,
): Promise<RefundAnswer> {
  const vendorTxCode = opayoRefundCode(request.refundId)
  const refs: RefundRefs = { vendorTxCode }
  const res = await client.createTransaction({
    transactionType: 'Refund',
    referenceTransactionId: paymentId,
    vendorTxCode,
    amount: request.amountMinor,
    description: `Refund of order ${attempt.orderRef}`.slice(0, 100),
  })
  throwIfLost(res, 'refund')
  return answerOf(res, refs)
}

function answerOf(res: HttpResult, refs: RefundRefs): RefundAnswer {
  const body = res.json
  if (isRecord(body) && typeof body.transactionId === 'string' && typeof body.status === 'string') {
    const withId = { ...refs, opayoRefundTransactionId: body.transactionId }
    if (body.status === 'Ok') return { status: 'succeeded', how: 'refund', refs: withId }
    return {
      status: 'failed',
      how: 'refund',
      refs: withId,
      message: `Opayo ${body.status}: ${str(body.statusDetail) ?? str(body.statusCode) ?? ''}`.trim(),
    }
  }
  const e = errorOf(res)
  return { status: 'failed', how: 'refund', refs, message: `Opayo ${e.code}: ${e.description}` }
}

/**
 * What became of a refund whose answer was lost. With Opayo's refund id: asked. Without it, the
 * refund is sent again with its same vendorTxCode: Opayo runs it if the first never arrived, or
 * refuses the reused code (4042) if it did, and then only MyOpayo can tell (a person checks).
 */
export async function opayoRefundStatus(
  client: OpayoClient,
  attempt: AttemptContext,
  refund: RefundContext,
): Promise<RefundStatusAnswer> {
  const known = refund.refs.opayoRefundTransactionId
  if (known) {
    const res = await client.getTransaction(known)
    throwIfLost(res, 'transaction')
    if (res.status === 404)
      return { status: 'unknown', refs: {}, message: 'Opayo does not show the refund yet' }
    return answerOf(res, {})
  }
  const paymentId = attempt.refs.opayoTransactionId
  if (!paymentId)
    return { status: 'failed', how: 'refund', refs: {}, message: 'no Opayo transaction to refund' }
  const code = opayoRefundCode(refund.refundId)
  const person = {
    status: 'unknown' as const,
    refs: { vendorTxCode: code },
    askPerson: true,
    message: `Opayo received ${refund.how} ${code} but its answer was lost: check it in MyOpayo`,
  }
  if (refund.how === 'void') {
    // A void's instruction cannot be looked up: repeated, it is refused once it took effect.
    const voided = await client.instruction(paymentId, 'void')
    throwIfLost(voided, 'void')
    if (voided.status === 201) return { status: 'succeeded', how: 'void', refs: {} }
    return person
  }
  const answer = await sendRefund(client, attempt, paymentId, refund)
  return answer.message?.startsWith('Opayo 4042') ? person : answer
}

/**
 * The Opayo adapter with a placed order's refunds and voids (ADR 0210). It lives here, beside the
 * refund calls, so the provider client never imports its refunds (no import cycle).
 */
export class OpayoAdapterWithRefunds extends OpayoAdapter {
  refund(attempt: AttemptContext, request: RefundRequest) {
    return opayoRefund(this.client, attempt, request)
  }

  refundStatus(attempt: AttemptContext, refund: RefundContext) {
    return opayoRefundStatus(this.client, attempt, refund)
  }
}
