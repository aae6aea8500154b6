/**
 * Amazon Pay Checkout v2 (amazon). Requests and the button payload are signed with node:crypto
 * (amazon.signing.ts, ADR 0245) and sent through our own fetch to the configured host, which may
 * be a simulator: the signed x-amz-pay-host stays Amazon's.
 */
import { createVerify, X509Certificate } from 'node:crypto'
import { amazonIdempotencyKey } from '../../payments/idempotency.ts'
import { confirmedAmount, toDecimalString } from '../../payments/money.ts'
import type { AmazonConfig } from '../../../config/payments.ts'
import { isLoopbackUrl } from '../../../config/payments.ts'
import type {
  Outcome,
  ProviderRefs,
  RawNotification,
  VerifiedNotification,
} from '../../payments/payments.types.ts'
import { httpRequest, isRecord, str, TransportError, type HttpResult } from '../../payments/providers/http.ts'
import {
  NotYetError,
  unknownOutcome,
  type AttemptContext,
  type GiveBackResult,
  type ProviderAdapter,
  unknownOrThrow,
} from '../../payments/providers/types.ts'
import { AMAZON_ALGORITHM, AmazonSigner } from './amazon.signing.ts'

export { AMAZON_ALGORITHM }

export interface AmazonCheckoutSession {
  checkoutSessionId: string
  webCheckoutDetails?: {
    amazonPayRedirectUrl?: string | null
    checkoutReviewReturnUrl?: string
    checkoutResultReturnUrl?: string
  }
  paymentDetails?: {
    chargeAmount?: { amount: string; currencyCode: string } | null
    paymentIntent?: string | null
  }
  buyer?: { buyerId?: string; name?: string; email?: string; phoneNumber?: string } | null
  shippingAddress?: Record<string, string | null> | null
  billingAddress?: Record<string, string | null> | null
  paymentPreferences?: { paymentDescriptor?: string }[] | null
  statusDetails: {
    state: 'Open' | 'Completed' | 'Canceled'
    reasonCode?: string | null
    reasonDescription?: string | null
  }
  constraints?: { constraintId: string; description: string }[]
  chargeId?: string | null
  chargePermissionId?: string | null
}

export interface AmazonButtonConfig {
  scriptUrl: string
  merchantId: string
  publicKeyId: string
  ledgerCurrency: 'GBP'
  checkoutLanguage: 'en_GB'
  productType: 'PayAndShip'
  placement: 'Checkout'
  sandbox: boolean
  payloadJSON: string
  signature: string
  algorithm: typeof AMAZON_ALGORITHM
}

export class AmazonClient {
  private readonly signer: AmazonSigner

  constructor(
    readonly config: AmazonConfig,
    private readonly timeoutMs = 20_000,
  ) {
    this.signer = new AmazonSigner(config)
  }

  buttonSignature(payloadJSON: string): string {
    return this.signer.signButtonPayload(payloadJSON)
  }

  /** Signs (node:crypto), sends with fetch to config.baseUrl (the signed x-amz-pay-host stays Amazon's). */
  async call(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    fragment: string,
    payload?: unknown,
    idempotencyKey?: string,
  ): Promise<HttpResult> {
    const body = payload !== undefined ? JSON.stringify(payload) : undefined
    const signed = this.signer.signRequest({
      method,
      fragment,
      ...(body !== undefined ? { payload: body } : {}),
      ...(idempotencyKey ? { idempotencyKey } : {}),
    })
    return httpRequest(`${this.config.baseUrl}${signed.path}`, {
      method,
      headers: signed.headers,
      ...(body !== undefined ? { body } : {}),
      timeoutMs: this.timeoutMs,
    })
  }

  getCheckoutSession(id: string): Promise<HttpResult> {
    return this.call('GET', `checkoutSessions/${encodeURIComponent(id)}`)
  }

  updateCheckoutSession(id: string, payload: unknown): Promise<HttpResult> {
    return this.call('PATCH', `checkoutSessions/${encodeURIComponent(id)}`, payload)
  }

  completeCheckoutSession(id: string, payload: unknown, key: string): Promise<HttpResult> {
    return this.call('POST', `checkoutSessions/${encodeURIComponent(id)}/complete`, payload, key)
  }

  getCharge(id: string): Promise<HttpResult> {
    return this.call('GET', `charges/${encodeURIComponent(id)}`)
  }

  /** DELETE /v2/charges/{id}/cancel: only a charge not captured (AuthorizationInitiated, Authorized). */
  cancelCharge(id: string, cancellationReason: string): Promise<HttpResult> {
    return this.call('DELETE', `charges/${encodeURIComponent(id)}/cancel`, { cancellationReason })
  }

  /** POST /v2/refunds: asynchronous (RefundInitiated, then Refunded or Declined with an IPN). */
  createRefund(payload: unknown, key: string): Promise<HttpResult> {
    return this.call('POST', 'refunds', payload, key)
  }

  getRefund(id: string): Promise<HttpResult> {
    return this.call('GET', `refunds/${encodeURIComponent(id)}`)
  }
}

/** The Charge object, as far as the adapter reads it. */
interface AmazonCharge {
  chargeId?: string
  statusDetails?: { state?: string; reasonCode?: string | null }
  chargeAmount?: { amount?: string; currencyCode?: string } | null
  captureAmount?: { amount?: string; currencyCode?: string } | null
}

function reasonOf(res: HttpResult): string | null {
  return isRecord(res.json) ? (str(res.json.reasonCode) ?? null) : null
}

export class AmazonAdapter implements ProviderAdapter {
  readonly method = 'amazon' as const
  readonly client: AmazonClient
  private readonly certs = new Map<string, string>()

  constructor(
    readonly config: AmazonConfig,
    timeoutMs?: number,
  ) {
    this.client = new AmazonClient(config, timeoutMs)
  }

  /** The signed button configuration (POST /checkout/amazon/create-amazon-session answers this). */
  buttonConfig(reviewReturnUrl: string, allowedCountries: string[] = ['GB']): AmazonButtonConfig {
    const payloadJSON = JSON.stringify({
      webCheckoutDetails: { checkoutReviewReturnUrl: reviewReturnUrl },
      storeId: this.config.storeId,
      scopes: ['name', 'email', 'phoneNumber', 'billingAddress'],
      deliverySpecifications: {
        addressRestrictions: {
          type: 'Allowed',
          restrictions: Object.fromEntries(allowedCountries.map((c) => [c, {}])),
        },
      },
    })
    return {
      scriptUrl: this.config.scriptUrl,
      merchantId: this.config.merchantId,
      publicKeyId: this.config.publicKeyId,
      ledgerCurrency: 'GBP',
      checkoutLanguage: 'en_GB',
      productType: 'PayAndShip',
      placement: 'Checkout',
      sandbox: this.config.sandbox,
      payloadJSON,
      signature: this.client.buttonSignature(payloadJSON),
      algorithm: AMAZON_ALGORITHM,
    }
  }

  async getCheckoutSession(id: string): Promise<AmazonCheckoutSession | null> {
    const res = await this.client.getCheckoutSession(id)
    if (res.status === 404) return null
    if (res.status !== 200 || !isRecord(res.json))
      throw new Error(`Amazon get checkout session: HTTP ${res.status}`)
    return res.json as unknown as AmazonCheckoutSession
  }

  /** Before the redirect to Amazon: the amount, the intent and where to come back. */
  async prepareForPayment(
    attempt: AttemptContext,
    input: { resultReturnUrl: string; merchantReferenceId: string; storeName: string },
  ): Promise<Outcome> {
    const id = attempt.refs.amazonCheckoutSessionId
    if (!id)
      return {
        status: 'failed',
        refs: attempt.refs,
        code: 'amazon_no_session',
        message: 'no checkout session',
      }
    try {
      const res = await this.client.updateCheckoutSession(id, {
        webCheckoutDetails: { checkoutResultReturnUrl: input.resultReturnUrl },
        paymentDetails: {
          paymentIntent: 'AuthorizeWithCapture',
          canHandlePendingAuthorization: false,
          chargeAmount: {
            amount: toDecimalString(attempt.amountMinor, attempt.currency),
            currencyCode: attempt.currency,
          },
        },
        merchantMetadata: {
          merchantReferenceId: input.merchantReferenceId.slice(0, 256),
          merchantStoreName: input.storeName.slice(0, 50),
        },
      })
      if (res.status >= 500)
        return unknownOutcome(attempt.refs, `amazon_http_${res.status}`, res.text.slice(0, 300))
      const session = res.json as AmazonCheckoutSession
      const url = isRecord(res.json) ? session.webCheckoutDetails?.amazonPayRedirectUrl : null
      if (res.status === 200 && url)
        return { status: 'requires_action', refs: attempt.refs, action: { type: 'redirect', url } }
      return {
        status: 'failed',
        refs: attempt.refs,
        code: `amazon_${reasonOf(res) ?? res.status}`,
        message: res.text.slice(0, 300),
      }
    } catch (err) {
      return unknownOrThrow(err, attempt.refs, 'amazon')
    }
  }

  /** Back from Amazon (checkoutResultReturnUrl): complete with the same amount. */
  async complete(attempt: AttemptContext): Promise<Outcome> {
    const id = attempt.refs.amazonCheckoutSessionId
    if (!id)
      return {
        status: 'failed',
        refs: attempt.refs,
        code: 'amazon_no_session',
        message: 'no checkout session',
      }
    try {
      const res = await this.client.completeCheckoutSession(
        id,
        {
          chargeAmount: {
            amount: toDecimalString(attempt.amountMinor, attempt.currency),
            currencyCode: attempt.currency,
          },
        },
        amazonIdempotencyKey({ attemptId: attempt.id, op: 'complete' }),
      )
      if (res.status >= 500)
        return unknownOutcome(attempt.refs, `amazon_http_${res.status}`, res.text.slice(0, 300))
      if (res.status === 200 || res.status === 202)
        return this.sessionOutcome(attempt.refs, res.json as AmazonCheckoutSession)
      const reason = reasonOf(res)
      if (reason === 'CheckoutSessionCanceled') return this.reconcile({ ...attempt, lastOperation: null })
      return {
        status: 'failed',
        refs: attempt.refs,
        code: `amazon_${reason ?? res.status}`,
        message: res.text.slice(0, 300),
      }
    } catch (err) {
      return unknownOrThrow(err, attempt.refs, 'amazon')
    }
  }

  private async sessionOutcome(baseRefs: ProviderRefs, session: AmazonCheckoutSession): Promise<Outcome> {
    const refs: ProviderRefs = {
      ...baseRefs,
      amazonCheckoutSessionId: session.checkoutSessionId,
      ...(session.chargeId ? { amazonChargeId: session.chargeId } : {}),
      ...(session.chargePermissionId ? { amazonChargePermissionId: session.chargePermissionId } : {}),
    }
    const s = session.statusDetails
    if (s.state === 'Canceled') {
      return {
        status: 'declined',
        refs,
        code: `amazon_${s.reasonCode ?? 'Canceled'}`,
        message: s.reasonDescription ?? s.reasonCode ?? 'Canceled',
        retryWithNewInstrument: s.reasonCode === 'Declined',
      }
    }
    if (s.state === 'Open') {
      const url = session.webCheckoutDetails?.amazonPayRedirectUrl
      return url
        ? { status: 'requires_action', refs, action: { type: 'redirect', url } }
        : { status: 'failed', refs, code: 'amazon_open', message: 'the buyer has not finished on Amazon' }
    }
    if (!session.chargeId) return { status: 'pending', refs, reason: 'no charge yet', confirmed: null }
    const res = await this.client.getCharge(session.chargeId)
    if (res.status >= 500 || !isRecord(res.json))
      return unknownOutcome(refs, `amazon_http_${res.status}`, 'charge lookup failed')
    const charge = res.json as AmazonCharge
    // The charge's own amount (captured, else authorised): what Amazon took, whatever was asked.
    const stated = charge.captureAmount ?? charge.chargeAmount
    const confirmed = stated ? confirmedAmount(stated.amount, stated.currencyCode) : null
    switch (charge.statusDetails?.state) {
      case 'Captured':
        return { status: 'captured', refs, confirmed }
      case 'Authorized':
        return { status: 'authorised', refs, confirmed }
      case 'AuthorizationInitiated':
      case 'CaptureInitiated':
        return { status: 'pending', refs, reason: charge.statusDetails.state, confirmed }
      case 'Declined':
      case 'Canceled':
        return {
          status: 'declined',
          refs,
          code: `amazon_${charge.statusDetails.reasonCode ?? charge.statusDetails.state}`,
          message: charge.statusDetails.state,
          retryWithNewInstrument: true,
        }
      default:
        return unknownOutcome(refs, 'amazon_charge_state', String(charge.statusDetails?.state))
    }
  }

  /** GET the session (and its charge). Still Open after a lost complete: repeat it, same key. */
  async reconcile(attempt: AttemptContext): Promise<Outcome> {
    const id = attempt.refs.amazonCheckoutSessionId
    if (!id)
      return {
        status: 'failed',
        refs: attempt.refs,
        code: 'amazon_no_session',
        message: 'no checkout session',
      }
    try {
      const res = await this.client.getCheckoutSession(id)
      if (res.status >= 500)
        return unknownOutcome(attempt.refs, `amazon_http_${res.status}`, res.text.slice(0, 300))
      if (res.status === 404)
        return { status: 'failed', refs: attempt.refs, code: 'amazon_session_not_found', message: id }
      const session = res.json as AmazonCheckoutSession
      if (session.statusDetails.state === 'Open' && attempt.lastOperation === 'complete')
        return this.complete(attempt)
      return this.sessionOutcome(attempt.refs, session)
    } catch (err) {
      return unknownOrThrow(err, attempt.refs, 'amazon')
    }
  }

  /**
   * Gives the money back (ADR 0130): a charge not captured (AuthorizationInitiated, Authorized)
   * is cancelled; a captured one is refunded (POST /v2/refunds) of the amount Amazon captured,
   * with an idempotency key derived from the attempt: a repeat answers the first refund. Amazon
   * refunds asynchronously: RefundInitiated is `refund_pending` (the refund id in `refs`), and
   * Refunded or Declined arrives by IPN (GET /v2/refunds/{id}). A capture still in progress
   * (CaptureInitiated) cannot be refunded yet (NotYetError). A 5xx or time-out throws.
   */
  async void(attempt: AttemptContext): Promise<GiveBackResult> {
    let chargeId = attempt.refs.amazonChargeId
    if (!chargeId) {
      const sessionId = attempt.refs.amazonCheckoutSessionId
      if (!sessionId) return { ok: false, message: 'no Amazon checkout session' }
      const res = await this.client.getCheckoutSession(sessionId)
      if (res.status >= 500) throw new TransportError('network', `Amazon session: HTTP ${res.status}`)
      if (res.status !== 200 || !isRecord(res.json))
        return { ok: false, message: `Amazon session ${sessionId}: HTTP ${res.status}` }
      chargeId = (res.json as unknown as AmazonCheckoutSession).chargeId ?? undefined
      // No charge: Amazon took nothing (the session was never completed, or was cancelled).
      if (!chargeId) return { ok: true, how: 'nothing_taken' }
    }
    const got = await this.client.getCharge(chargeId)
    if (got.status >= 500) throw new TransportError('network', `Amazon charge: HTTP ${got.status}`)
    if (got.status !== 200 || !isRecord(got.json))
      return { ok: false, message: `Amazon charge ${chargeId}: HTTP ${got.status}` }
    const charge = got.json as AmazonCharge
    switch (charge.statusDetails?.state) {
      case 'AuthorizationInitiated':
      case 'Authorized': {
        const res = await this.client.cancelCharge(chargeId, 'Order not placed')
        if (res.status >= 500) throw new TransportError('network', `Amazon cancel: HTTP ${res.status}`)
        if (res.status === 200) return { ok: true, how: 'voided' }
        return {
          ok: false,
          message: `Amazon cancel: HTTP ${res.status} ${reasonOf(res) ?? res.text.slice(0, 200)}`,
        }
      }
      case 'Canceled':
        return { ok: true, how: 'already_given_back' }
      case 'Declined':
        return { ok: true, how: 'nothing_taken' }
      case 'CaptureInitiated':
        throw new NotYetError(`Amazon charge ${chargeId} is still CaptureInitiated`)
      case 'Captured':
        break
      default:
        return { ok: false, message: `Amazon charge ${chargeId} is ${String(charge.statusDetails?.state)}` }
    }
    const captured = charge.captureAmount ?? charge.chargeAmount
    if (!captured?.amount || !captured.currencyCode)
      return { ok: false, message: `Amazon charge ${chargeId} states no captured amount` }
    const res = await this.client.createRefund(
      {
        chargeId,
        refundAmount: { amount: captured.amount, currencyCode: captured.currencyCode },
        softDescriptor: 'REFUND',
      },
      amazonIdempotencyKey({ attemptId: attempt.id, op: 'refund' }),
    )
    if (res.status >= 500) throw new TransportError('network', `Amazon refund: HTTP ${res.status}`)
    const refund = isRecord(res.json)
      ? (res.json as { refundId?: string; statusDetails?: { state?: string; reasonCode?: string | null } })
      : null
    if ((res.status === 201 || res.status === 200) && refund?.refundId) {
      const refs: ProviderRefs = { amazonRefundId: refund.refundId }
      const state = refund.statusDetails?.state
      if (state === 'RefundInitiated') return { ok: true, how: 'refund_pending', refs }
      if (state === 'Refunded') return { ok: true, how: 'refunded', refs }
      return {
        ok: false,
        message: `Amazon refund ${refund.refundId}: ${String(state)} ${refund.statusDetails?.reasonCode ?? ''}`,
      }
    }
    return {
      ok: false,
      message: `Amazon refund: HTTP ${res.status} ${reasonOf(res) ?? res.text.slice(0, 200)}`,
    }
  }

  /** IPN v2: an SNS envelope. Verify its signature against the allow-listed signing certificate. */
  async verifyNotification(req: RawNotification): Promise<VerifiedNotification | null> {
    let env: unknown
    try {
      env = JSON.parse(req.rawBody)
    } catch {
      return null
    }
    if (!isRecord(env) || env.Type !== 'Notification') return null
    const certUrl = str(env.SigningCertURL)
    const signature = str(env.Signature)
    const message = str(env.Message)
    if (!certUrl || !signature || !message || !(await this.snsSignatureValid(env, certUrl, signature)))
      return null
    let m: unknown
    try {
      m = JSON.parse(message)
    } catch {
      return null
    }
    if (!isRecord(m) || m.MerchantID !== this.config.merchantId) return null
    const objectType = str(m.ObjectType)
    const objectId = str(m.ObjectId)
    const refs: ProviderRefs = {}
    if (objectType === 'CHARGE' && objectId) refs.amazonChargeId = objectId
    if (objectType === 'REFUND' && objectId) refs.amazonRefundId = objectId
    const permission =
      str(m.ChargePermissionId) ?? (objectType === 'CHARGE_PERMISSION' ? objectId : undefined)
    if (permission) refs.amazonChargePermissionId = permission
    return {
      eventId: str(m.NotificationId) ?? str(env.MessageId) ?? '',
      kind: `${objectType}:${str(m.NotificationType)}`,
      refs,
    }
  }

  private async snsSignatureValid(
    env: Record<string, unknown>,
    certUrl: string,
    signature: string,
  ): Promise<boolean> {
    let url: URL
    try {
      url = new URL(certUrl)
    } catch {
      return false
    }
    if (!this.config.snsCertHost.test(url.host) && !this.config.snsCertHost.test(url.hostname)) return false
    if (url.protocol !== 'https:' && !isLoopbackUrl(certUrl)) return false
    let pem = this.certs.get(certUrl)
    if (!pem) {
      const res = await httpRequest(certUrl, { method: 'GET', timeoutMs: 10_000 })
      if (res.status !== 200) return false
      pem = res.text
      this.certs.set(certUrl, pem)
    }
    const fields =
      env.Type === 'Notification'
        ? ['Message', 'MessageId', 'Subject', 'Timestamp', 'TopicArn', 'Type']
        : ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type']
    const canonical = fields
      .filter((f) => typeof env[f] === 'string')
      .map((f) => `${f}\n${env[f] as string}\n`)
      .join('')
    try {
      const key = new X509Certificate(pem).publicKey
      const algorithm = env.SignatureVersion === '2' ? 'RSA-SHA256' : 'RSA-SHA1'
      return createVerify(algorithm).update(canonical).verify(key, signature, 'base64')
    } catch {
      return false
    }
  }
}
