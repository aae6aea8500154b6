/**
 * Opayo Pi (sagepay): a thin typed client of its REST API (no official Node SDK exists,
 * payments.md §1) and the adapter that maps its answers onto Outcomes.
 *
 * Card data never reaches the shop: the browser's drop-in (sagepay.js, Opayo's iframe) turns the
 * card into a card identifier with the merchant session key we mint here.
 */
import { opayoVendorTxCode } from '../../payments/idempotency.ts'
import { confirmedMinor } from '../../payments/money.ts'
import type { OpayoConfig } from '../../../config/payments.ts'
import type { Outcome, ProviderRefs, SavedInstrument } from '../../payments/payments.types.ts'
import {
  basicAuth,
  httpRequest,
  isRecord,
  str,
  TransportError,
  type HttpResult,
} from '../../payments/providers/http.ts'
import {
  unknownOutcome,
  type AttemptContext,
  type GiveBackResult,
  type ProviderAdapter,
  unknownOrThrow,
} from '../../payments/providers/types.ts'

export type ChallengeWindowSize = 'Small' | 'Medium' | 'Large' | 'ExtraLarge' | 'FullScreen'

/** Browser data for 3-D Secure v2 (strongCustomerAuthentication). */
export interface OpayoBrowserData {
  browserIP: string
  browserAcceptHeader: string
  browserJavascriptEnabled: boolean
  browserJavaEnabled?: boolean
  browserLanguage: string
  browserColorDepth?: string
  browserScreenHeight?: string
  browserScreenWidth?: string
  browserTZ?: string
  browserUserAgent: string
}

export interface OpayoPayInput {
  merchantSessionKey: string
  cardIdentifier: string
  /** Paying with a saved card (its security code was linked by the drop-in). */
  reusable?: boolean
  /** Keep the card for next time (needs 3-D Secure: apply3DSecure Force). */
  save?: boolean
  description: string
  customer: { firstName: string; lastName: string; email?: string; phone?: string }
  billingAddress: {
    address1: string
    address2?: string
    city: string
    postalCode: string
    country: string
    state?: string
  }
  browser: OpayoBrowserData
  /** Where the ACS posts the challenge result (cross-site: found by threeDSSessionData, not cookie). */
  notificationURL: string
  /** 'Medium' above 640 px wide, else 'Small' (spec §4). */
  challengeWindowSize: ChallengeWindowSize
}

/** The transaction-shaped body Opayo returns (201, 202 and most 4xx). */
export interface OpayoTransaction {
  transactionId: string
  status: 'Ok' | 'NotAuthed' | 'Rejected' | '3DAuth' | 'Malformed' | 'Invalid' | 'Error'
  statusCode: string
  statusDetail?: string
  transactionType?: string
  acsUrl?: string
  cReq?: string
  paymentMethod?: {
    card?: {
      cardType?: string
      lastFourDigits?: string
      expiryDate?: string
      cardIdentifier?: string
      reusable?: boolean
    }
  }
  '3DSecure'?: { status: string }
  /** Minor units, as sent */
  amount?: { totalAmount?: number; saleAmount?: number; surchargeAmount?: number }
  currency?: string
}

export class OpayoClient {
  constructor(
    private readonly config: OpayoConfig,
    private readonly timeoutMs = 20_000,
  ) {}

  private call(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<HttpResult> {
    return httpRequest(`${this.config.baseUrl}${path}`, {
      method,
      body,
      timeoutMs: this.timeoutMs,
      headers: { authorization: basicAuth(this.config.integrationKey, this.config.integrationPassword) },
    })
  }

  /** POST /merchant-session-keys: a short-lived key for one card form render. */
  async createMerchantSessionKey(): Promise<{ merchantSessionKey: string; expiry: string }> {
    const res = await this.call('POST', '/merchant-session-keys', { vendorName: this.config.vendorName })
    const body = res.json
    if (res.status !== 201 || !isRecord(body) || typeof body.merchantSessionKey !== 'string') {
      throw new Error(`Opayo merchant session key: HTTP ${res.status} ${res.text.slice(0, 200)}`)
    }
    return { merchantSessionKey: body.merchantSessionKey, expiry: str(body.expiry) ?? '' }
  }

  createTransaction(request: Record<string, unknown>): Promise<HttpResult> {
    return this.call('POST', '/transactions', request)
  }

  getTransaction(transactionId: string): Promise<HttpResult> {
    return this.call('GET', `/transactions/${encodeURIComponent(transactionId)}`)
  }

  completeChallenge(transactionId: string, cRes: string, threeDSSessionData: string): Promise<HttpResult> {
    return this.call('POST', `/transactions/${encodeURIComponent(transactionId)}/3d-secure-challenge`, {
      cRes,
      threeDSSessionData,
    })
  }

  instruction(
    transactionId: string,
    instructionType: 'void' | 'abort' | 'release',
    amount?: number,
  ): Promise<HttpResult> {
    return this.call('POST', `/transactions/${encodeURIComponent(transactionId)}/instructions`, {
      instructionType,
      ...(amount !== undefined ? { amount } : {}),
    })
  }

  async deleteCardIdentifier(cardIdentifier: string): Promise<void> {
    const res = await this.call('DELETE', `/card-identifiers/${encodeURIComponent(cardIdentifier)}`)
    if (res.status !== 204 && res.status !== 404)
      throw new Error(`Opayo delete card identifier: HTTP ${res.status}`)
  }
}

function asTransaction(v: unknown): OpayoTransaction | null {
  return isRecord(v) && typeof v.transactionId === 'string' && typeof v.status === 'string'
    ? (v as unknown as OpayoTransaction)
    : null
}

/** The Pi request for a customer-present payment (payments.md §1.3, §1.7). */
export function buildPaymentRequest(attempt: AttemptContext, input: OpayoPayInput): Record<string, unknown> {
  return {
    transactionType: 'Payment',
    paymentMethod: {
      card: {
        merchantSessionKey: input.merchantSessionKey,
        cardIdentifier: input.cardIdentifier,
        ...(input.reusable ? { reusable: true } : {}),
        ...(input.save && !input.reusable ? { save: true } : {}),
      },
    },
    vendorTxCode: opayoVendorTxCode({ attemptId: attempt.id, op: 'pay' }),
    amount: attempt.amountMinor,
    currency: attempt.currency,
    description: input.description.slice(0, 100),
    customerFirstName: input.customer.firstName,
    customerLastName: input.customer.lastName,
    ...(input.customer.email ? { customerEmail: input.customer.email } : {}),
    ...(input.customer.phone ? { customerPhone: input.customer.phone } : {}),
    billingAddress: input.billingAddress,
    entryMethod: 'Ecommerce',
    apply3DSecure: input.save ? 'Force' : 'UseMSPSetting',
    applyAvsCvcCheck: 'UseMSPSetting',
    strongCustomerAuthentication: {
      notificationURL: input.notificationURL,
      ...input.browser,
      challengeWindowSize: input.challengeWindowSize,
      threeDSRequestorChallengeInd: input.save ? '04' : '01',
      transType: 'GoodsAndServicePurchase',
    },
    ...(input.reusable
      ? { credentialType: { cofUsage: 'Subsequent', initiatedType: 'CIT', mitType: 'Unscheduled' } }
      : input.save
        ? { credentialType: { cofUsage: 'First', initiatedType: 'CIT', mitType: 'Unscheduled' } }
        : {}),
  }
}

/** base64url of the attempt's opaque reference: what the ACS echoes back to us. */
export function threeDSSessionDataFor(reference: string): string {
  return Buffer.from(reference, 'utf8').toString('base64url')
}

export function referenceFromThreeDSSessionData(value: string): string | null {
  if (!/^[A-Za-z0-9_-]{1,1024}$/.test(value)) return null
  return Buffer.from(value, 'base64url').toString('utf8')
}

export class OpayoAdapter implements ProviderAdapter {
  readonly method = 'sagepay' as const
  readonly client: OpayoClient

  constructor(
    readonly config: OpayoConfig,
    timeoutMs?: number,
  ) {
    this.client = new OpayoClient(config, timeoutMs)
  }

  /** What the browser needs to render the drop-in. A new key per form render. */
  async cardSession(): Promise<{ scriptUrl: string; merchantSessionKey: string; expiry: string }> {
    return { scriptUrl: this.config.scriptUrl, ...(await this.client.createMerchantSessionKey()) }
  }

  /** POST /transactions. The request is returned too: the service keeps it to repeat after a time-out. */
  async pay(
    attempt: AttemptContext,
    input: OpayoPayInput,
  ): Promise<{ outcome: Outcome; request: Record<string, unknown> }> {
    const request = buildPaymentRequest(attempt, input)
    return { request, outcome: await this.send(attempt, request) }
  }

  /** Repeats a payment request whose answer was lost (same vendorTxCode: Opayo refuses a real duplicate). */
  async send(attempt: AttemptContext, request: Record<string, unknown>): Promise<Outcome> {
    const refs: ProviderRefs = { ...attempt.refs, vendorTxCode: String(request.vendorTxCode) }
    try {
      return this.toOutcome(attempt, refs, await this.client.createTransaction(request))
    } catch (err) {
      return unknownOrThrow(err, refs, 'opayo')
    }
  }

  /** After the ACS posted cres back: POST /transactions/{id}/3d-secure-challenge. */
  async completeChallenge(attempt: AttemptContext, cRes: string): Promise<Outcome> {
    const id = attempt.refs.opayoTransactionId
    if (!id)
      return {
        status: 'failed',
        refs: attempt.refs,
        code: 'opayo_no_transaction',
        message: 'no challenge pending',
      }
    try {
      const res = await this.client.completeChallenge(id, cRes, threeDSSessionDataFor(attempt.reference))
      return this.toOutcome(attempt, attempt.refs, res)
    } catch (err) {
      return unknownOrThrow(err, attempt.refs, 'opayo')
    }
  }

  /**
   * Gives the payment back (ADR 0130): the `void` instruction while Opayo still allows it (the
   * same day, before the batch settles), else a Refund transaction of the amount Opayo says it
   * took, with its own vendorTxCode derived from the attempt. Opayo refuses a vendorTxCode used
   * before, so a repeat can never refund twice; but Pi cannot be asked what became of the first
   * one, so a repeat after a lost answer is `ok: false` (a person checks MyOpayo). A time-out,
   * a dropped connection or a 5xx throws: the caller tries again with the same vendorTxCode.
   */
  async void(attempt: AttemptContext): Promise<GiveBackResult> {
    const id = attempt.refs.opayoTransactionId
    if (!id) return { ok: false, message: 'no Opayo transaction id' }
    const voided = await this.client.instruction(id, 'void')
    if (voided.status === 201) return { ok: true, how: 'voided' }
    if (voided.status >= 500 || voided.status === 408)
      throw new TransportError('network', `Opayo void: HTTP ${voided.status}`)
    // Refused: settled already (or voided already, which the refund below is refused for too).
    const got = await this.client.getTransaction(id)
    if (got.status >= 500 || got.status === 408)
      throw new TransportError('network', `Opayo transaction: HTTP ${got.status}`)
    const tx = asTransaction(got.json)
    const amount = tx?.amount?.totalAmount
    if (!tx || tx.status !== 'Ok' || typeof amount !== 'number' || !Number.isSafeInteger(amount))
      return {
        ok: false,
        message: `Opayo void refused (HTTP ${voided.status} ${voided.text.slice(0, 120)}) and the payment cannot be refunded (HTTP ${got.status} ${tx?.status ?? ''})`,
      }
    const vendorTxCode = opayoVendorTxCode({ attemptId: attempt.id, op: 'refund' })
    const res = await this.client.createTransaction({
      transactionType: 'Refund',
      referenceTransactionId: id,
      vendorTxCode,
      amount,
      description: `Refund of ${attempt.orderRef}`.slice(0, 100),
    })
    if (res.status >= 500 || res.status === 408)
      throw new TransportError('network', `Opayo refund: HTTP ${res.status}`)
    const refund = asTransaction(res.json)
    if (refund?.status === 'Ok')
      return { ok: true, how: 'refunded', refs: { opayoRefundTransactionId: refund.transactionId } }
    const body = res.json
    const code =
      isRecord(body) && Array.isArray(body.errors) && isRecord(body.errors[0]) ? body.errors[0].code : null
    if (str(code) === '4042')
      return {
        ok: false,
        message: `Opayo refund ${vendorTxCode} was sent before and its answer was lost: check in MyOpayo that it went through`,
      }
    return {
      ok: false,
      message: `Opayo void refused (HTTP ${voided.status}); refund refused: HTTP ${res.status} ${res.text.slice(0, 200)}`,
    }
  }

  async reconcile(attempt: AttemptContext): Promise<Outcome> {
    const id = attempt.refs.opayoTransactionId
    if (!id) {
      // The answer to POST /transactions was lost before we learnt the id. Pi has no lookup by
      // vendorTxCode: repeat the same request. If the first one reached Opayo, the repeat is
      // refused as a duplicate (still unknown: a person checks MyOpayo); if not, it runs now.
      if (attempt.pendingRequest) return this.send(attempt, attempt.pendingRequest)
      return unknownOutcome(attempt.refs, 'opayo_no_transaction_id', 'no request to repeat')
    }
    try {
      const res = await this.client.getTransaction(id)
      // Opayo may 404 for about a second after a challenge: still unknown, ask again later.
      if (res.status === 404)
        return unknownOutcome(attempt.refs, 'opayo_not_found_yet', 'transaction not found yet')
      return this.toOutcome(attempt, attempt.refs, res)
    } catch (err) {
      return unknownOrThrow(err, attempt.refs, 'opayo')
    }
  }

  /** Any answer → Outcome. A transaction-shaped body is read whatever the HTTP status (§1.4). */
  toOutcome(attempt: AttemptContext, baseRefs: ProviderRefs, res: HttpResult): Outcome {
    const tx = asTransaction(res.json)
    if (!tx) {
      if (res.status >= 500 || res.status === 408)
        return unknownOutcome(baseRefs, `opayo_http_${res.status}`, res.text.slice(0, 300))
      const body = res.json
      const first =
        isRecord(body) && Array.isArray(body.errors) && isRecord(body.errors[0]) ? body.errors[0] : body
      const code = isRecord(first) ? (str(first.code) ?? String(res.status)) : String(res.status)
      const message = isRecord(first)
        ? (str(first.description) ?? res.text.slice(0, 300))
        : res.text.slice(0, 300)
      // 4042: this vendorTxCode was used before — the first request did reach Opayo. Not a failure.
      if (code === '4042')
        return {
          status: 'unknown',
          refs: baseRefs,
          code: 'opayo_duplicate_vendortxcode',
          message,
          askPerson: true,
        }
      return { status: 'failed', refs: baseRefs, code: `opayo_${code}`, message }
    }
    const refs: ProviderRefs = { ...baseRefs, opayoTransactionId: tx.transactionId }
    const card = tx.paymentMethod?.card
    if (card?.cardIdentifier) refs.cardIdentifier = card.cardIdentifier
    switch (tx.status) {
      case 'Ok': {
        const instrument: SavedInstrument | undefined =
          card?.reusable && card.cardIdentifier
            ? {
                token: card.cardIdentifier,
                cardType: card.cardType ?? 'Card',
                last4Digits: card.lastFourDigits ?? '',
                expiryDate: card.expiryDate ?? null,
              }
            : undefined
        return {
          status: 'captured',
          refs,
          ...(instrument ? { instrument } : {}),
          confirmed: confirmedMinor(tx.amount?.totalAmount, tx.currency),
        }
      }
      case '3DAuth':
        if (tx.statusCode === '2021' && tx.acsUrl && tx.cReq) {
          return {
            status: 'requires_action',
            refs,
            action: {
              type: 'threeDSChallenge',
              acsUrl: tx.acsUrl,
              creq: tx.cReq,
              threeDSSessionData: threeDSSessionDataFor(attempt.reference),
            },
          }
        }
        return {
          status: 'failed',
          refs,
          code: `opayo_${tx.statusCode}`,
          message: 'unsupported 3-D Secure version',
        }
      case 'NotAuthed':
      case 'Rejected':
        return {
          status: 'declined',
          refs,
          code: `opayo_${tx.statusCode}`,
          message: tx.statusDetail ?? tx.status,
          retryWithNewInstrument: true,
        }
      case 'Error':
        return unknownOutcome(refs, `opayo_${tx.statusCode}`, tx.statusDetail ?? 'Error')
      default:
        return {
          status: 'failed',
          refs,
          code: `opayo_${tx.statusCode}`,
          message: tx.statusDetail ?? tx.status,
        }
    }
  }
}
