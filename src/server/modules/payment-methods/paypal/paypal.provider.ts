/**
 * PayPal Orders v2 (paypal): a thin typed client (ADR 0061 says why not the server SDK) and its
 * adapter. Every POST carries a PayPal-Request-Id derived from the attempt, so a repeat after a
 * time-out returns the first answer instead of paying twice.
 */
import { paypalRequestId, type Operation } from '../../payments/idempotency.ts'
import {
  buildOrderRequest,
  money,
  shippingOption,
  type PaypalOrder,
  type PaypalOrderInput,
  type PaypalShippingOption,
} from './paypal.order-request.ts'
import { confirmedAmount } from '../../payments/money.ts'
import type { PaypalConfig } from '../../../config/payments.ts'
import type {
  Currency,
  Outcome,
  ProviderRefs,
  RawNotification,
  VerifiedNotification,
} from '../../payments/payments.types.ts'
import {
  basicAuth,
  httpRequest,
  isRecord,
  str,
  TransportError,
  type HttpResult,
} from '../../payments/providers/http.ts'
import {
  NotYetError,
  unknownOutcome,
  type AttemptContext,
  type GiveBackResult,
  type ProviderAdapter,
  unknownOrThrow,
} from '../../payments/providers/types.ts'

export type { PaypalOrder, PaypalOrderInput, PaypalShippingOption } from './paypal.order-request.ts'

export class PaypalClient {
  private token: { value: string; expiresAt: number } | null = null

  constructor(
    readonly config: PaypalConfig,
    private readonly timeoutMs = 20_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** OAuth 2 client credentials, cached until a minute before expiry. */
  async accessToken(): Promise<string> {
    if (this.token && this.token.expiresAt > this.now()) return this.token.value
    const res = await fetch(`${this.config.baseUrl}/v1/oauth2/token`, {
      method: 'POST',
      headers: {
        authorization: basicAuth(this.config.clientId, this.config.clientSecret),
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: 'grant_type=client_credentials',
      signal: AbortSignal.timeout(this.timeoutMs),
    }).catch((err: Error) => {
      throw new TransportError(
        err.name === 'TimeoutError' ? 'timeout' : 'network',
        `PayPal token: ${err.message}`,
      )
    })
    const body: unknown = await res.json().catch(() => null)
    if (res.status >= 500) throw new TransportError('network', `PayPal token: HTTP ${res.status}`)
    if (!res.ok || !isRecord(body) || typeof body.access_token !== 'string') {
      throw new Error(`PayPal token: HTTP ${res.status}`)
    }
    const ttl = typeof body.expires_in === 'number' ? body.expires_in : 300
    this.token = { value: body.access_token, expiresAt: this.now() + Math.max(0, ttl - 60) * 1000 }
    return body.access_token
  }

  async call(
    method: 'GET' | 'POST' | 'PATCH',
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<HttpResult> {
    const token = await this.accessToken()
    const res = await httpRequest(`${this.config.baseUrl}${path}`, {
      method,
      body,
      timeoutMs: this.timeoutMs,
      headers: { authorization: `Bearer ${token}`, ...headers },
    })
    if (res.status === 401) this.token = null
    return res
  }

  createOrder(body: unknown, requestId: string): Promise<HttpResult> {
    return this.call('POST', '/v2/checkout/orders', body, {
      'paypal-request-id': requestId,
      prefer: 'return=representation',
    })
  }

  getOrder(orderId: string): Promise<HttpResult> {
    return this.call('GET', `/v2/checkout/orders/${encodeURIComponent(orderId)}`)
  }

  patchOrder(orderId: string, patch: unknown[]): Promise<HttpResult> {
    return this.call('PATCH', `/v2/checkout/orders/${encodeURIComponent(orderId)}`, patch)
  }

  captureOrder(orderId: string, requestId: string): Promise<HttpResult> {
    return this.call(
      'POST',
      `/v2/checkout/orders/${encodeURIComponent(orderId)}/capture`,
      {},
      {
        'paypal-request-id': requestId,
        prefer: 'return=representation',
      },
    )
  }

  authorizeOrder(orderId: string, requestId: string): Promise<HttpResult> {
    return this.call(
      'POST',
      `/v2/checkout/orders/${encodeURIComponent(orderId)}/authorize`,
      {},
      {
        'paypal-request-id': requestId,
        prefer: 'return=representation',
      },
    )
  }

  /** POST /v2/payments/authorizations/{id}/void (204; 422 once captured or voided). */
  voidAuthorization(authorizationId: string, requestId: string): Promise<HttpResult> {
    return this.call(
      'POST',
      `/v2/payments/authorizations/${encodeURIComponent(authorizationId)}/void`,
      undefined,
      { 'paypal-request-id': requestId, prefer: 'return=representation' },
    )
  }

  /** POST /v2/payments/captures/{id}/refund: no amount = all that is left of the capture. */
  refundCapture(
    captureId: string,
    requestId: string,
    body: Record<string, unknown> = {},
  ): Promise<HttpResult> {
    return this.call('POST', `/v2/payments/captures/${encodeURIComponent(captureId)}/refund`, body, {
      'paypal-request-id': requestId,
      prefer: 'return=representation',
    })
  }

  getCapture(captureId: string): Promise<HttpResult> {
    return this.call('GET', `/v2/payments/captures/${encodeURIComponent(captureId)}`)
  }

  verifyWebhookSignature(body: Record<string, unknown>): Promise<HttpResult> {
    return this.call('POST', '/v1/notifications/verify-webhook-signature', body)
  }
}

function issueOf(res: HttpResult): string | null {
  const details = isRecord(res.json) && Array.isArray(res.json.details) ? res.json.details : []
  return isRecord(details[0]) ? (str(details[0].issue) ?? null) : null
}

export class PaypalAdapter implements ProviderAdapter {
  readonly method = 'paypal' as const
  readonly client: PaypalClient

  constructor(
    readonly config: PaypalConfig,
    timeoutMs?: number,
  ) {
    this.client = new PaypalClient(config, timeoutMs)
  }

  /** The script the browser loads: the JS SDK with credit and card funding disabled. */
  sdkScriptUrl(currency: Currency, intent: 'capture' | 'authorize' = 'capture'): string {
    const q = new URLSearchParams({
      'client-id': this.config.clientId,
      currency,
      intent,
      components: 'buttons',
      'disable-funding': 'credit,card',
    })
    return `${this.config.sdkUrl}?${q.toString()}`
  }

  /** POST /v2/checkout/orders → the order id the buttons' createOrder returns. */
  async createOrder(
    attempt: AttemptContext,
    input: PaypalOrderInput,
  ): Promise<{ orderId: string; status: string } | Outcome> {
    const requestId = paypalRequestId({ attemptId: attempt.id, op: 'create', seq: input.sequence ?? 0 })
    try {
      const res = await this.client.createOrder(buildOrderRequest(attempt, input), requestId)
      if (
        (res.status === 200 || res.status === 201) &&
        isRecord(res.json) &&
        typeof res.json.id === 'string'
      ) {
        return { orderId: res.json.id, status: str(res.json.status) ?? 'CREATED' }
      }
      if (res.status >= 500)
        return unknownOutcome(attempt.refs, `paypal_http_${res.status}`, res.text.slice(0, 300))
      return {
        status: 'failed',
        refs: attempt.refs,
        code: `paypal_${issueOf(res) ?? res.status}`,
        message: res.text.slice(0, 300),
      }
    } catch (err) {
      return unknownOrThrow(err, attempt.refs, 'paypal')
    }
  }

  async getOrder(orderId: string): Promise<PaypalOrder | null> {
    const res = await this.client.getOrder(orderId)
    if (res.status === 404) return null
    if (res.status !== 200 || !isRecord(res.json)) throw new Error(`PayPal get order: HTTP ${res.status}`)
    return res.json as unknown as PaypalOrder
  }

  /** The shipping options (and the amount they change), PATCHed while the order is CREATED/APPROVED. */
  async updateShippingOptions(
    orderId: string,
    currency: Currency,
    amount: {
      totalMinor: number
      itemTotalMinor: number
      shippingMinor: number
      taxTotalMinor: number
      discountMinor: number
    },
    options: PaypalShippingOption[],
  ): Promise<{ ok: true } | { ok: false; issue: string }> {
    const path = "/purchase_units/@reference_id=='default'"
    const res = await this.client.patchOrder(orderId, [
      {
        op: 'replace',
        path: `${path}/amount`,
        value: {
          ...money(amount.totalMinor, currency),
          breakdown: {
            item_total: money(amount.itemTotalMinor, currency),
            shipping: money(amount.shippingMinor, currency),
            tax_total: money(amount.taxTotalMinor, currency),
            ...(amount.discountMinor ? { discount: money(amount.discountMinor, currency) } : {}),
          },
        },
      },
      {
        op: 'replace',
        path: `${path}/shipping/options`,
        value: options.map((o) => shippingOption(o, currency)),
      },
    ])
    if (res.status === 204 || res.status === 200) return { ok: true }
    return { ok: false, issue: issueOf(res) ?? `HTTP_${res.status}` }
  }

  /** onApprove → capture (or authorize). Re-approval and declines come back as requires_action. */
  async capture(
    attempt: AttemptContext,
    intent: 'CAPTURE' | 'AUTHORIZE' = 'CAPTURE',
    seq = 0,
  ): Promise<Outcome> {
    const orderId = attempt.refs.paypalOrderId
    if (!orderId)
      return { status: 'failed', refs: attempt.refs, code: 'paypal_no_order', message: 'no PayPal order' }
    const op: Operation = intent === 'CAPTURE' ? 'capture' : 'authorize'
    const requestId = paypalRequestId({ attemptId: attempt.id, op, seq })
    try {
      const res =
        intent === 'CAPTURE'
          ? await this.client.captureOrder(orderId, requestId)
          : await this.client.authorizeOrder(orderId, requestId)
      if (res.status >= 500)
        return unknownOutcome(attempt.refs, `paypal_http_${res.status}`, res.text.slice(0, 300))
      if (res.status === 200 || res.status === 201)
        return this.orderOutcome(attempt.refs, res.json as PaypalOrder)
      const issue = issueOf(res)
      if (issue === 'INSTRUMENT_DECLINED') {
        return { status: 'requires_action', refs: attempt.refs, action: { type: 'paypalRestart' } }
      }
      if (issue === 'PAYER_ACTION_REQUIRED') {
        const order = await this.getOrder(orderId)
        const link = order?.links?.find((l) => l.rel === 'payer-action')?.href
        if (link)
          return { status: 'requires_action', refs: attempt.refs, action: { type: 'redirect', url: link } }
      }
      if (issue === 'ORDER_ALREADY_CAPTURED' || issue === 'ORDER_ALREADY_AUTHORIZED')
        return this.reconcile(attempt)
      return {
        status: 'declined',
        refs: attempt.refs,
        code: `paypal_${issue ?? res.status}`,
        message: res.text.slice(0, 300),
        retryWithNewInstrument: issue !== 'ORDER_NOT_APPROVED',
      }
    } catch (err) {
      return unknownOrThrow(err, attempt.refs, 'paypal')
    }
  }

  /**
   * Gives the money back (ADR 0130): an authorisation not captured is voided; a capture is
   * refunded in full (no amount: all that is left of what PayPal captured, whatever the shop
   * asked). Each call carries a PayPal-Request-Id derived from the attempt, so a repeat after a
   * time-out answers the first result and never refunds twice. A refund PayPal finishes later
   * (PENDING) is `refund_pending`; a capture still PENDING cannot be refunded yet (NotYetError).
   * A time-out, a dropped connection or a 5xx throws: the caller tries again.
   */
  async void(attempt: AttemptContext): Promise<GiveBackResult> {
    let captureId = attempt.refs.paypalCaptureId
    const authorizationId = attempt.refs.paypalAuthorizationId
    if (!captureId && !authorizationId) {
      const found = await this.paymentsOf(attempt)
      if ('ok' in found) return found
      captureId = found.captureId
      if (!captureId && !found.authorizationId) return { ok: true, how: 'nothing_taken' }
      if (!captureId) return this.voidAuthorization(attempt, found.authorizationId!)
    } else if (!captureId && authorizationId) {
      return this.voidAuthorization(attempt, authorizationId)
    }
    return this.refundAll(attempt, captureId!)
  }

  /** The capture or authorisation PayPal holds for the attempt's order (refs may predate them). */
  private async paymentsOf(
    attempt: AttemptContext,
  ): Promise<{ captureId?: string; authorizationId?: string } | { ok: false; message: string }> {
    const orderId = attempt.refs.paypalOrderId
    if (!orderId) return { ok: false, message: 'no PayPal order' }
    const res = await this.client.getOrder(orderId)
    if (res.status >= 500) throw new TransportError('network', `PayPal get order: HTTP ${res.status}`)
    if (res.status !== 200 || !isRecord(res.json))
      return { ok: false, message: `PayPal order ${orderId}: HTTP ${res.status}` }
    const payments = (res.json as unknown as PaypalOrder).purchase_units?.[0]?.payments
    const captureId = payments?.captures?.[0]?.id
    const authorizationId = payments?.authorizations?.[0]?.id
    return { ...(captureId ? { captureId } : {}), ...(authorizationId ? { authorizationId } : {}) }
  }

  private async voidAuthorization(attempt: AttemptContext, authorizationId: string): Promise<GiveBackResult> {
    const res = await this.client.voidAuthorization(
      authorizationId,
      paypalRequestId({ attemptId: attempt.id, op: 'void' }),
    )
    if (res.status >= 500) throw new TransportError('network', `PayPal void: HTTP ${res.status}`)
    if (res.status === 204 || res.status === 200) return { ok: true, how: 'voided' }
    const issue = issueOf(res)
    if (issue === 'PREVIOUSLY_VOIDED') return { ok: true, how: 'already_given_back' }
    if (issue === 'AUTHORIZATION_ALREADY_CAPTURED') {
      const found = await this.paymentsOf(attempt)
      if ('ok' in found) return found
      if (found.captureId) return this.refundAll(attempt, found.captureId)
    }
    return { ok: false, message: `PayPal void: HTTP ${res.status} ${issue ?? res.text.slice(0, 200)}` }
  }

  private async refundAll(attempt: AttemptContext, captureId: string): Promise<GiveBackResult> {
    const res = await this.client.refundCapture(
      captureId,
      paypalRequestId({ attemptId: attempt.id, op: 'refund' }),
    )
    if (res.status >= 500) throw new TransportError('network', `PayPal refund: HTTP ${res.status}`)
    if ((res.status === 200 || res.status === 201) && isRecord(res.json) && typeof res.json.id === 'string') {
      const refs: ProviderRefs = { paypalRefundId: res.json.id }
      if (res.json.status === 'COMPLETED') return { ok: true, how: 'refunded', refs }
      if (res.json.status === 'PENDING') return { ok: true, how: 'refund_pending', refs }
      return { ok: false, message: `PayPal refund ${res.json.id}: ${str(res.json.status) ?? 'no status'}` }
    }
    const issue = issueOf(res)
    if (issue === 'CAPTURE_FULLY_REFUNDED') return { ok: true, how: 'already_given_back' }
    if (issue === 'REFUND_NOT_ALLOWED' || issue === 'CAPTURE_NOT_COMPLETED') {
      const got = await this.client.getCapture(captureId)
      if (got.status >= 500) throw new TransportError('network', `PayPal capture: HTTP ${got.status}`)
      const status = isRecord(got.json) ? str(got.json.status) : undefined
      if (status === 'PENDING') throw new NotYetError(`PayPal capture ${captureId} is still PENDING`)
      if (status === 'DECLINED' || status === 'FAILED') return { ok: true, how: 'nothing_taken' }
    }
    return { ok: false, message: `PayPal refund: HTTP ${res.status} ${issue ?? res.text.slice(0, 200)}` }
  }

  /** A captured/authorised order → Outcome. */
  orderOutcome(baseRefs: ProviderRefs, order: PaypalOrder): Outcome {
    const refs: ProviderRefs = { ...baseRefs, paypalOrderId: order.id }
    const payments = order.purchase_units?.[0]?.payments
    const capture = payments?.captures?.[0]
    const auth = payments?.authorizations?.[0]
    // The capture's (or authorisation's) own amount: what PayPal took, whatever the order said.
    const stated = (capture ?? auth)?.amount
    const confirmed = stated ? confirmedAmount(stated.value, stated.currency_code) : null
    if (capture) {
      refs.paypalCaptureId = capture.id
      if (capture.status === 'COMPLETED') return { status: 'captured', refs, confirmed }
      if (capture.status === 'PENDING')
        return { status: 'pending', refs, reason: capture.status_details?.reason ?? 'PENDING', confirmed }
      return {
        status: 'declined',
        refs,
        code: `paypal_capture_${capture.status}`,
        message: capture.status,
        retryWithNewInstrument: true,
      }
    }
    if (auth) {
      refs.paypalAuthorizationId = auth.id
      if (auth.status === 'CREATED' || auth.status === 'CAPTURED')
        return { status: 'authorised', refs, confirmed }
      if (auth.status === 'PENDING') return { status: 'pending', refs, reason: 'PENDING', confirmed }
      return {
        status: 'declined',
        refs,
        code: `paypal_auth_${auth.status}`,
        message: auth.status,
        retryWithNewInstrument: true,
      }
    }
    if (order.status === 'PAYER_ACTION_REQUIRED') {
      const link = order.links?.find((l) => l.rel === 'payer-action')?.href
      if (link) return { status: 'requires_action', refs, action: { type: 'redirect', url: link } }
    }
    return {
      status: 'failed',
      refs,
      code: `paypal_order_${order.status}`,
      message: 'the order holds no payment',
    }
  }

  /**
   * GET the order. Captured → done. Approved but not captured → the capture never happened:
   * repeat it with the same request id. Anything else stays as the provider says.
   */
  async reconcile(attempt: AttemptContext): Promise<Outcome> {
    const orderId = attempt.refs.paypalOrderId
    if (!orderId)
      return { status: 'failed', refs: attempt.refs, code: 'paypal_no_order', message: 'no PayPal order' }
    try {
      const res = await this.client.getOrder(orderId)
      if (res.status >= 500)
        return unknownOutcome(attempt.refs, `paypal_http_${res.status}`, res.text.slice(0, 300))
      if (res.status === 404)
        return { status: 'failed', refs: attempt.refs, code: 'paypal_order_not_found', message: orderId }
      const order = res.json as PaypalOrder
      if (order.status === 'APPROVED' && !order.purchase_units?.[0]?.payments) {
        if (attempt.lastOperation === 'capture' || attempt.lastOperation === 'authorize') {
          return this.capture(attempt, attempt.lastOperation === 'capture' ? 'CAPTURE' : 'AUTHORIZE')
        }
        return unknownOutcome(attempt.refs, 'paypal_approved_not_captured', 'approved, waiting for capture')
      }
      if (order.status === 'CREATED' || order.status === 'SAVED') {
        return {
          status: 'failed',
          refs: attempt.refs,
          code: 'paypal_not_approved',
          message: 'the buyer did not approve',
        }
      }
      if (order.status === 'VOIDED')
        return { status: 'failed', refs: attempt.refs, code: 'paypal_voided', message: 'voided' }
      return this.orderOutcome(attempt.refs, order)
    } catch (err) {
      return unknownOrThrow(err, attempt.refs, 'paypal')
    }
  }

  /** Webhook: PayPal itself checks the signature (verify-webhook-signature); then we re-fetch the order. */
  async verifyNotification(req: RawNotification): Promise<VerifiedNotification | null> {
    if (!this.config.webhookId) return null
    const h = (name: string) => {
      const v = req.headers[name]
      return typeof v === 'string' ? v : undefined
    }
    let event: unknown
    try {
      event = JSON.parse(req.rawBody)
    } catch {
      return null
    }
    const fields = {
      auth_algo: h('paypal-auth-algo'),
      cert_url: h('paypal-cert-url'),
      transmission_id: h('paypal-transmission-id'),
      transmission_sig: h('paypal-transmission-sig'),
      transmission_time: h('paypal-transmission-time'),
    }
    if (!isRecord(event) || typeof event.id !== 'string' || Object.values(fields).some((v) => !v)) return null
    const res = await this.client.verifyWebhookSignature({
      ...fields,
      webhook_id: this.config.webhookId,
      webhook_event: event,
    })
    if (res.status >= 500) throw new TransportError('network', `verify webhook: HTTP ${res.status}`)
    if (!isRecord(res.json) || res.json.verification_status !== 'SUCCESS') return null
    const resource = isRecord(event.resource) ? event.resource : {}
    const related =
      isRecord(resource.supplementary_data) && isRecord(resource.supplementary_data.related_ids)
        ? resource.supplementary_data.related_ids
        : {}
    const type = str(event.event_type) ?? ''
    const orderId = type.startsWith('CHECKOUT.ORDER.') ? str(resource.id) : str(related.order_id)
    // A refund's own events (PAYMENT.CAPTURE.REFUNDED, …REFUND.PENDING/FAILED) name the refund.
    const refundId = type.startsWith('PAYMENT.CAPTURE.REFUND') ? str(resource.id) : undefined
    return {
      eventId: event.id,
      kind: type,
      refs: {
        ...(orderId ? { paypalOrderId: orderId } : {}),
        ...(refundId ? { paypalRefundId: refundId } : {}),
      },
    }
  }
}
