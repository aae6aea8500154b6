/**
 * Paya Connect (paya): a thin typed client (no npm SDK exists, payments.md §2) and its adapter.
 * The card goes into Paya's hosted PayForm (an iframe on Paya's origin); our server only chooses
 * the transaction_api_id and then asks Paya what happened to it. USD only.
 */
import { createHmac, timingSafeEqual } from 'node:crypto'
import { payaTransactionApiId } from '../../payments/idempotency.ts'
import { confirmedAmount, toDecimalString } from '../../payments/money.ts'
import type { PayaConfig } from '../../../config/payments.ts'
import type {
  Outcome,
  ProviderRefs,
  RawNotification,
  VerifiedNotification,
} from '../../payments/payments.types.ts'
import { httpRequest, isRecord, str, TransportError, type HttpResult } from '../../payments/providers/http.ts'
import {
  unknownOutcome,
  type AttemptContext,
  type GiveBackResult,
  type ProviderAdapter,
  unknownOrThrow,
} from '../../payments/providers/types.ts'

export interface PayaTransaction {
  id: string
  status_id: number
  reason_code_id: number
  verbiage?: string
  transaction_api_id?: string
  transaction_amount?: string
  last_four?: string
  account_type?: string
  /** yyyy-mm-dd once the batch holding it settled (then it can be refunded, no longer voided). */
  settle_date?: string | null
  previous_transaction_id?: string | null
}

/** status_id: 101 sale approved, 102 authonly, 201 voided, 301 declined (Transactions README). */
export const PAYA_STATUS = { sale: 101, authOnly: 102, refunded: 111, voided: 201, declined: 301 } as const

export class PayaClient {
  constructor(
    readonly config: PayaConfig,
    private readonly timeoutMs = 20_000,
  ) {}

  private headers(): Record<string, string> {
    return {
      'developer-id': this.config.developerId,
      'user-id': this.config.userId,
      'user-api-key': this.config.userApiKey,
    }
  }

  /** GET /v2/transactions?transaction_api_id=…: the authoritative answer after the hosted form or a time-out. */
  async findByApiId(
    transactionApiId: string,
  ): Promise<{ res: HttpResult; transaction: PayaTransaction | null }> {
    const res = await httpRequest(
      `${this.config.baseUrl}/v2/transactions?transaction_api_id=${encodeURIComponent(transactionApiId)}`,
      { method: 'GET', headers: this.headers(), timeoutMs: this.timeoutMs },
    )
    const list = isRecord(res.json) && Array.isArray(res.json.transactions) ? res.json.transactions : []
    const first = list.find((t) => isRecord(t) && t.transaction_api_id === transactionApiId)
    return { res, transaction: isRecord(first) ? (first as unknown as PayaTransaction) : null }
  }

  async getTransaction(id: string): Promise<HttpResult> {
    return httpRequest(`${this.config.baseUrl}/v2/transactions/${encodeURIComponent(id)}`, {
      method: 'GET',
      headers: this.headers(),
      timeoutMs: this.timeoutMs,
    })
  }

  /** PUT /v2/transactions/{id}: void or authcomplete. */
  async update(id: string, action: 'void' | 'authcomplete', amount?: string): Promise<HttpResult> {
    return httpRequest(`${this.config.baseUrl}/v2/transactions/${encodeURIComponent(id)}`, {
      method: 'PUT',
      headers: this.headers(),
      body: { transaction: { action, ...(amount ? { transaction_amount: amount } : {}) } },
      timeoutMs: this.timeoutMs,
    })
  }

  /** POST /v2/transactions action refund: a referenced refund of a settled sale. */
  async refund(body: Record<string, unknown>): Promise<HttpResult> {
    return httpRequest(`${this.config.baseUrl}/v2/transactions`, {
      method: 'POST',
      headers: this.headers(),
      body: { transaction: body },
      timeoutMs: this.timeoutMs,
    })
  }

  /** The PayForm iframe URL, signed: hash-key = HMAC-SHA256(user_hash_key, user_id + timestamp). */
  payFormUrl(data: Record<string, unknown>, nowSeconds: number): string {
    const timestamp = String(nowSeconds)
    const hashKey = createHmac('sha256', this.config.userHashKey)
      .update(this.config.userId + timestamp)
      .digest('hex')
    const q = new URLSearchParams({
      'developer-id': this.config.developerId,
      'hash-key': hashKey,
      'user-id': this.config.userId,
      timestamp,
      data: Buffer.from(JSON.stringify(data), 'utf8').toString('hex'),
    })
    // The browser's address of the form (formBaseUrl: a simulator service behind a proxy).
    return `${this.config.formBaseUrl ?? this.config.baseUrl}/v2/payform?${q.toString()}`
  }
}

export interface PayaFormInput {
  /** Billing street and zip for AVS. */
  billingStreet?: string
  billingZip?: string
  orderNumber: string
  /** Our page that receives postMessage; Paya redirects nowhere. */
  parentOrigin?: string
}

export class PayaAdapter implements ProviderAdapter {
  readonly method = 'paya' as const
  readonly client: PayaClient

  constructor(
    readonly config: PayaConfig,
    timeoutMs?: number,
    private readonly nowSeconds: () => number = () => Math.floor(Date.now() / 1000),
  ) {
    this.client = new PayaClient(config, timeoutMs)
  }

  private lastTimestamp = 0

  /**
   * The form's HMAC covers only user_id + timestamp, and Paya's one-time hash registry refuses a
   * hash used before: two forms signed in the same second would collide. Each form of this
   * process gets its own second (ahead of the clock by at most the burst, well inside the 5-minute
   * window). Two instances may still collide; the shopper then reloads the form.
   */
  private formTimestamp(): number {
    this.lastTimestamp = Math.max(this.nowSeconds(), this.lastTimestamp + 1)
    return this.lastTimestamp
  }

  /** The hosted form for this attempt: the iframe URL and the origin its postMessage comes from. */
  hostedForm(
    attempt: AttemptContext,
    input: PayaFormInput,
  ): { iframeUrl: string; expectedOrigin: string; transactionApiId: string } {
    if (attempt.currency !== 'USD') throw new Error('Paya takes USD only')
    const transactionApiId = payaTransactionApiId({ attemptId: attempt.id, op: 'pay' })
    const iframeUrl = this.client.payFormUrl(
      {
        transaction: {
          payment_method: 'cc',
          action: 'sale',
          transaction_amount: toDecimalString(attempt.amountMinor, 'USD'),
          location_id: this.config.locationId,
          product_transaction_id: this.config.productTransactionId,
          transaction_api_id: transactionApiId,
          order_num: input.orderNumber.slice(0, 32),
          ...(input.billingStreet ? { billing_street: input.billingStreet } : {}),
          ...(input.billingZip ? { billing_zip: input.billingZip } : {}),
          show_cvv: 1,
          require_zip: 1,
          parent_send_message: 1,
          parent_close: 1,
        },
      },
      this.formTimestamp(),
    )
    return {
      iframeUrl,
      expectedOrigin: new URL(this.config.formBaseUrl ?? this.config.baseUrl).origin,
      transactionApiId,
    }
  }

  /** The browser says the form finished: ask Paya (the postMessage is only a hint). */
  confirm(attempt: AttemptContext): Promise<Outcome> {
    return this.reconcile(attempt)
  }

  /**
   * Gives the payment back (ADR 0130): PUT action void while the batch has not settled, else a
   * referenced refund (POST action refund, previous_transaction_id) of the amount Paya says it
   * took. Paya has no idempotency header: the refund carries its own transaction_api_id derived
   * from the attempt (unique per location), and is looked up by it before anything is sent, so a
   * repeat after a lost answer finds the first refund instead of making a second. A time-out, a
   * dropped connection or a 5xx throws: the caller tries again.
   */
  async void(attempt: AttemptContext): Promise<GiveBackResult> {
    const payApiId =
      attempt.refs.payaTransactionApiId ?? payaTransactionApiId({ attemptId: attempt.id, op: 'pay' })
    let tx: PayaTransaction | null
    if (attempt.refs.payaTransactionId) {
      const got = await this.client.getTransaction(attempt.refs.payaTransactionId)
      if (got.status >= 500) throw new TransportError('network', `Paya transaction: HTTP ${got.status}`)
      tx =
        isRecord(got.json) && isRecord(got.json.transaction)
          ? (got.json.transaction as unknown as PayaTransaction)
          : null
    } else {
      const found = await this.client.findByApiId(payApiId)
      if (found.res.status >= 500)
        throw new TransportError('network', `Paya lookup: HTTP ${found.res.status}`)
      tx = found.transaction
    }
    if (!tx) return { ok: false, message: 'Paya has no such transaction' }
    const status = Number(tx.status_id)
    if (status === PAYA_STATUS.voided) return { ok: true, how: 'already_given_back' }
    if (status === PAYA_STATUS.declined) return { ok: true, how: 'nothing_taken' }
    if (status !== PAYA_STATUS.sale && status !== PAYA_STATUS.authOnly)
      return {
        ok: false,
        message: `Paya transaction ${tx.id} is in status ${tx.status_id}: not given back here`,
      }
    if (!tx.settle_date) {
      const res = await this.client.update(tx.id, 'void')
      if (res.status >= 500) throw new TransportError('network', `Paya void: HTTP ${res.status}`)
      if (res.status >= 200 && res.status < 300) return { ok: true, how: 'voided' }
      // Refused: the batch may have settled meanwhile; an auth-only cannot be refunded.
      if (status === PAYA_STATUS.authOnly)
        return { ok: false, message: `Paya void: HTTP ${res.status} ${res.text.slice(0, 200)}` }
    }
    const refundApiId = payaTransactionApiId({ attemptId: attempt.id, op: 'refund' })
    const earlier = await this.client.findByApiId(refundApiId)
    if (earlier.res.status >= 500)
      throw new TransportError('network', `Paya lookup: HTTP ${earlier.res.status}`)
    const done = (t: PayaTransaction): GiveBackResult | null =>
      Number(t.status_id) === PAYA_STATUS.refunded
        ? { ok: true, how: 'refunded', refs: { payaRefundTransactionId: t.id } }
        : null
    if (earlier.transaction) {
      return (
        done(earlier.transaction) ?? {
          ok: false,
          message: `Paya refund ${earlier.transaction.id} is in status ${earlier.transaction.status_id}`,
        }
      )
    }
    const res = await this.client.refund({
      action: 'refund',
      payment_method: 'cc',
      previous_transaction_id: tx.id,
      transaction_amount: tx.transaction_amount,
      transaction_api_id: refundApiId,
      location_id: this.config.locationId,
      product_transaction_id: this.config.productTransactionId,
    })
    if (res.status >= 500) throw new TransportError('network', `Paya refund: HTTP ${res.status}`)
    const made =
      isRecord(res.json) && isRecord(res.json.transaction)
        ? (res.json.transaction as unknown as PayaTransaction)
        : null
    if ((res.status === 200 || res.status === 201) && made)
      return (
        done(made) ?? {
          ok: false,
          message: `Paya refund ${made.id}: status ${made.status_id} ${made.verbiage ?? ''}`,
        }
      )
    return { ok: false, message: `Paya refund: HTTP ${res.status} ${res.text.slice(0, 200)}` }
  }

  async reconcile(attempt: AttemptContext): Promise<Outcome> {
    const apiId =
      attempt.refs.payaTransactionApiId ?? payaTransactionApiId({ attemptId: attempt.id, op: 'pay' })
    const refs: ProviderRefs = { ...attempt.refs, payaTransactionApiId: apiId }
    try {
      const { res, transaction } = await this.client.findByApiId(apiId)
      if (res.status >= 500) return unknownOutcome(refs, `paya_http_${res.status}`, res.text.slice(0, 300))
      if (res.status !== 200)
        return { status: 'failed', refs, code: `paya_http_${res.status}`, message: res.text.slice(0, 300) }
      if (!transaction) {
        // Nothing submitted yet: the shopper is still on the form (or left it).
        return {
          status: 'requires_action',
          refs,
          action: { type: 'hostedForm', url: '', expectedOrigin: new URL(this.config.baseUrl).origin },
        }
      }
      return this.toOutcome(refs, transaction)
    } catch (err) {
      return unknownOrThrow(err, refs, 'paya')
    }
  }

  toOutcome(baseRefs: ProviderRefs, t: PayaTransaction): Outcome {
    const refs: ProviderRefs = { ...baseRefs, payaTransactionId: t.id }
    switch (Number(t.status_id)) {
      // Paya Connect settles in US dollars only: the transaction states its amount, not a currency.
      case PAYA_STATUS.sale:
        return { status: 'captured', refs, confirmed: confirmedAmount(t.transaction_amount, 'USD') }
      case PAYA_STATUS.authOnly:
        return { status: 'authorised', refs, confirmed: confirmedAmount(t.transaction_amount, 'USD') }
      case PAYA_STATUS.declined:
        return {
          status: 'declined',
          refs,
          code: `paya_${t.reason_code_id}`,
          message: t.verbiage ?? 'Declined',
          retryWithNewInstrument: true,
        }
      default:
        return { status: 'failed', refs, code: `paya_status_${t.status_id}`, message: t.verbiage ?? '' }
    }
  }

  /**
   * A postback: Paya does not sign them; the only proof is the Basic credentials we configured.
   * The body is never trusted for state: the service fetches the transaction again.
   */
  async verifyNotification(req: RawNotification): Promise<VerifiedNotification | null> {
    const { postbackUser, postbackPassword } = this.config
    if (!postbackUser || !postbackPassword) return null
    const header = req.headers.authorization
    const expected = Buffer.from(
      `Basic ${Buffer.from(`${postbackUser}:${postbackPassword}`).toString('base64')}`,
    )
    const given = Buffer.from(typeof header === 'string' ? header : '')
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null
    let body: unknown
    try {
      body = JSON.parse(req.rawBody)
    } catch {
      return null
    }
    if (!isRecord(body) || body.resource !== 'transaction' || typeof body.data !== 'string') return null
    let data: unknown
    try {
      data = JSON.parse(body.data)
    } catch {
      return null
    }
    if (!isRecord(data) || typeof data.id !== 'string') return null
    const apiId = str(data.transaction_api_id)
    return {
      // Postbacks carry no event id: the transaction, the event type and its modification time identify one.
      eventId: `${data.id}:${str(body.type) ?? ''}:${str(data.modified_ts) ?? ''}`,
      kind: `${str(body.type) ?? 'UPDATE'}:transaction`,
      refs: { payaTransactionId: data.id, ...(apiId ? { payaTransactionApiId: apiId } : {}) },
    }
  }
}
