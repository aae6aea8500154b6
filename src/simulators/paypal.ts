/**
 * PayPal simulator: OAuth, Orders v2 (create, get, patch, capture, authorize) with
 * PayPal-Request-Id replay, the approval page, a JS SDK stand-in (paypal.Buttons) and webhooks
 * signed by the simulator with verify-webhook-signature (payments.md §3, §7.3).
 *
 * Buyers on the approval page: 'Pay with balance' approves; 'Card that declines' makes the next
 * capture answer INSTRUMENT_DECLINED. A capture above the approved amount answers
 * PAYER_ACTION_REQUIRED (re-approval). PayPal-Mock-Response forces any issue code.
 */
import { createSign, createVerify, randomBytes, randomUUID, type KeyPairKeyObjectResult } from 'node:crypto'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { SIMULATOR_CREDENTIALS } from '../server/config/payments.ts'
import { underFaults, type Faults } from './faults.ts'
import { rsaKeyPair } from './keys.ts'
import { paypalBrowserRoutes } from './paypal.browser.ts'
import { paypalPaymentRoutes } from './paypal.payments.ts'
import {
  PREFIX,
  toMinor,
  unprocessable,
  type CaptureEntry,
  type Order,
  type PaypalContext,
} from './paypal.state.ts'

/** PayPal retries a failed delivery (up to 25 times over 3 days); the simulator compresses that to 10 tries in ~5 s. */
export async function deliverWithRetries(
  url: string,
  headers: Record<string, string>,
  body: string,
): Promise<number> {
  for (let i = 0; i < 10; i++) {
    const status = await fetch(url, { method: 'POST', headers, body }).then(
      (r) => r.status,
      () => 0,
    )
    if (status >= 200 && status < 300) return status
    await new Promise((r) => setTimeout(r, 500))
  }
  return 0
}

function crc32(s: string): number {
  let c = -1
  for (const byte of Buffer.from(s, 'utf8')) {
    c ^= byte
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1))
  }
  return (c ^ -1) >>> 0
}

export interface PaypalSimControl {
  /** Where webhooks go (the shop's /payments/notify/paypal). */
  setWebhookUrl(url: string | null): void
  /** Re-sends a delivered event exactly as before (a replay). */
  redeliver(eventId: string): Promise<number>
  deliveredEvents(): string[]
  /** The types of the delivered events, in order (e.g. 'PAYMENT.CAPTURE.PENDING'). */
  deliveredEventTypes(): string[]
  approve(orderId: string): void
  /**
   * The next capture comes back PENDING (status_details.reason, e.g. 'PENDING_REVIEW') with a
   * PAYMENT.CAPTURE.PENDING webhook; `settleCapture` finishes it later.
   */
  captureNextAs(status: 'PENDING', reason?: string): void
  /**
   * A PENDING capture settles: COMPLETED (webhook PAYMENT.CAPTURE.COMPLETED) or DECLINED
   * (webhook PAYMENT.CAPTURE.DENIED). Resolves once the webhook was delivered (or given up).
   */
  settleCapture(captureId: string, to: 'COMPLETED' | 'DECLINED'): Promise<void>
  /**
   * The next capture or authorisation records (and states in its `amount`) this amount instead of
   * the order's: a provider-side change the shop must notice. Currency defaults to the order's.
   */
  recordNextAmount(value: string, currencyCode?: string): void
  /** The next refund comes back PENDING; `settleRefund` finishes it (PAYMENT.CAPTURE.REFUNDED when COMPLETED). */
  refundNextAs(status: 'PENDING'): void
  settleRefund(refundId: string, to: 'COMPLETED' | 'FAILED'): Promise<void>
  /** What PayPal holds for a capture: its status and amount, and the refunds made against it. */
  ledger(captureId: string): {
    status: string
    amount: { currency_code: string; value: string }
    refunds: { id: string; status: string; value: string }[]
  } | null
  /** What PayPal holds for an authorisation. */
  authorization(authorizationId: string): { status: string } | null
}

export function paypalSimulator(
  app: FastifyInstance,
  faults: Faults,
  origin: () => string,
): PaypalSimControl {
  const creds = SIMULATOR_CREDENTIALS.paypal
  const tokens = new Set<string>()
  const orders = new Map<string, Order>()
  const requestIds = new Map<string, { status: number; body: unknown }>()
  // The webhook signing key is made on first use, off the main thread: a 2048-bit RSA key costs
  // a noticeable part of a cold start, and most runs never send a webhook (ADR 0108).
  let keys: KeyPairKeyObjectResult | null = null
  let making: Promise<KeyPairKeyObjectResult> | null = null
  const signingKeys = () => (making ??= rsaKeyPair().then((made) => (keys = made)))
  const transmissions = new Map<string, { body: string; sig: string; time: string }>()
  /** Captures, authorisations and refunds by id: the entries are the ones inside their order. */
  const captures = new Map<string, CaptureEntry>()
  const authorizations = new Map<string, { orderId: string; entry: Record<string, unknown> }>()
  const refunds = new Map<string, { captureId: string; body: Record<string, unknown> }>()
  let nextCapture: { status: 'PENDING'; reason: string } | null = null
  let nextAmount: { value: string; currency_code?: string } | null = null
  const next = { refundPending: false }
  const eventTypes: string[] = []
  const events = new Map<string, { body: string; headers: Record<string, string> }>()
  let webhookUrl: string | null = null

  const error = (reply: FastifyReply, status: number, name: string, issue?: string, description?: string) =>
    reply.code(status).send({
      name,
      message: issue
        ? 'The requested action could not be performed, semantically incorrect, or failed business validation.'
        : name,
      debug_id: randomBytes(6).toString('hex'),
      ...(issue ? { details: [{ issue, description: description ?? issue }] } : {}),
    })
  const authed = (req: FastifyRequest) =>
    tokens.has((/^Bearer (.+)$/.exec(req.headers.authorization ?? '') ?? [])[1] ?? '')
  const run = (req: FastifyRequest, reply: FastifyReply, fn: () => unknown) =>
    underFaults(faults, 'paypal', PREFIX, req, reply, fn)
  const view = (o: Order) => ({
    id: o.id,
    intent: o.body.intent,
    status: o.status,
    purchase_units: ((o.body.purchase_units as Record<string, unknown>[]) ?? []).map((u) => ({
      ...u,
      ...(o.shipping ? { shipping: { ...((u.shipping as object) ?? {}), ...o.shipping } } : {}),
      ...(o.payments ? { payments: o.payments } : {}),
    })),
    ...(o.payer ? { payer: o.payer } : {}),
    create_time: new Date().toISOString(),
    links: [
      { href: `${origin()}${PREFIX}/v2/checkout/orders/${o.id}`, rel: 'self', method: 'GET' },
      ...(o.status === 'CREATED'
        ? [{ href: `${origin()}${PREFIX}/checkoutnow?token=${o.id}`, rel: 'approve', method: 'GET' }]
        : []),
      ...(o.status === 'PAYER_ACTION_REQUIRED'
        ? [
            {
              href: `${origin()}${PREFIX}/checkoutnow?token=${o.id}&redirect=1`,
              rel: 'payer-action',
              method: 'GET',
            },
          ]
        : []),
    ],
  })
  /** Replays the stored answer for a PayPal-Request-Id (6 h on PayPal; the simulator's lifetime here). */
  const idempotent = (
    req: FastifyRequest,
    reply: FastifyReply,
    scope: string,
    fn: () => { status: number; body: unknown },
    /** Payments v2 (void, refund): a refused request is not kept, so a later repeat is tried afresh. */
    keepRefusals = true,
  ) => {
    const rid = req.headers['paypal-request-id']
    const key = typeof rid === 'string' ? `${scope}:${rid}` : null
    const stored = key ? requestIds.get(key) : undefined
    const result = stored ?? fn()
    if (key && !stored && result.status < (keepRefusals ? 500 : 300)) requestIds.set(key, result)
    return reply.code(result.status).send(result.body)
  }
  const currencyOf = (o: Order) =>
    (((o.body.purchase_units as Record<string, unknown>[])[0]?.amount ?? {}) as { currency_code?: string })
      .currency_code
  const amountOf = (o: Order) =>
    toMinor(((o.body.purchase_units as Record<string, unknown>[])[0] ?? {}).amount)

  async function emit(type: string, resource: Record<string, unknown>): Promise<void> {
    if (!webhookUrl) return
    const id = `WH-${randomUUID()}`
    const body = JSON.stringify({
      id,
      event_version: '1.0',
      create_time: new Date().toISOString(),
      resource_type: type.startsWith('CHECKOUT')
        ? 'checkout-order'
        : type === 'PAYMENT.CAPTURE.REFUNDED'
          ? 'refund'
          : type.startsWith('PAYMENT.AUTHORIZATION')
            ? 'authorization'
            : 'capture',
      event_type: type,
      summary: type,
      resource,
    })
    const transmissionId = randomUUID()
    const time = new Date().toISOString()
    const sig = createSign('RSA-SHA256')
      .update(`${transmissionId}|${time}|${creds.webhookId}|${crc32(body)}`)
      .sign((await signingKeys()).privateKey, 'base64')
    transmissions.set(transmissionId, { body, sig, time })
    const headers = {
      'content-type': 'application/json',
      'paypal-auth-algo': 'SHA256withRSA',
      'paypal-cert-url': `${origin()}${PREFIX}/v1/notifications/certs/sim`,
      'paypal-transmission-id': transmissionId,
      'paypal-transmission-sig': sig,
      'paypal-transmission-time': time,
    }
    events.set(id, { body, headers })
    eventTypes.push(type)
    await deliverWithRetries(webhookUrl, headers, body)
  }

  const sim: PaypalContext = {
    app,
    origin,
    clientId: creds.clientId,
    orders,
    captures,
    authorizations,
    refunds,
    next,
    error,
    authed,
    run,
    view,
    idempotent,
    emit,
    amountOf,
    currencyOf,
  }

  app.post(`${PREFIX}/v1/oauth2/token`, (req, reply) =>
    run(req, reply, () => {
      if (
        req.headers.authorization !==
        `Basic ${Buffer.from(`${creds.clientId}:${creds.clientSecret}`).toString('base64')}`
      ) {
        return reply
          .code(401)
          .send({ error: 'invalid_client', error_description: 'Client Authentication failed' })
      }
      const token = `A21AA${randomBytes(24).toString('hex')}`
      tokens.add(token)
      return reply.send({
        scope: 'https://uri.paypal.com/services/payments/payment',
        access_token: token,
        token_type: 'Bearer',
        app_id: 'APP-SIM',
        expires_in: 32400,
        nonce: randomUUID(),
      })
    }),
  )

  app.post(`${PREFIX}/v2/checkout/orders`, (req, reply) =>
    run(req, reply, () => {
      if (!authed(req)) return error(reply, 401, 'AUTHENTICATION_FAILURE')
      return idempotent(req, reply, 'create', () => {
        const b = (req.body ?? {}) as Record<string, unknown>
        const unit = ((b.purchase_units as Record<string, unknown>[] | undefined) ?? [])[0]
        const amount = unit?.amount as
          | { currency_code?: string; value?: string; breakdown?: Record<string, { value: string }> }
          | undefined
        if (!unit || !amount || !['CAPTURE', 'AUTHORIZE'].includes(String(b.intent))) {
          return {
            status: 400,
            body: { name: 'INVALID_REQUEST', details: [{ issue: 'MISSING_REQUIRED_PARAMETER' }] },
          }
        }
        if (!['GBP', 'USD', 'EUR'].includes(String(amount.currency_code)))
          return {
            status: 422,
            body: { name: 'UNPROCESSABLE_ENTITY', details: [{ issue: 'CURRENCY_NOT_SUPPORTED' }] },
          }
        const bd = amount.breakdown
        if (bd) {
          const sum =
            toMinor(bd.item_total) +
            toMinor(bd.shipping ?? { value: '0' }) +
            toMinor(bd.tax_total ?? { value: '0' }) -
            toMinor(bd.discount ?? { value: '0' })
          if (sum !== toMinor(amount))
            return {
              status: 422,
              body: { name: 'UNPROCESSABLE_ENTITY', details: [{ issue: 'AMOUNT_MISMATCH' }] },
            }
        }
        const ctx = ((b.payment_source as Record<string, Record<string, Record<string, string>>> | undefined)
          ?.paypal?.experience_context ?? {}) as Record<string, string>
        const id = randomBytes(9).toString('hex').toUpperCase().slice(0, 17)
        const o: Order = {
          id,
          body: b,
          status: 'CREATED',
          approvedAmount: null,
          declineNext: false,
          returnUrl: ctx.return_url ?? null,
          cancelUrl: ctx.cancel_url ?? null,
          payments: null,
          payer: null,
          shipping: null,
        }
        orders.set(id, o)
        return { status: 201, body: view(o) }
      })
    }),
  )

  app.get(`${PREFIX}/v2/checkout/orders/:id`, (req, reply) =>
    run(req, reply, () => {
      if (!authed(req)) return error(reply, 401, 'AUTHENTICATION_FAILURE')
      const o = orders.get((req.params as { id: string }).id)
      return o ? reply.send(view(o)) : error(reply, 404, 'RESOURCE_NOT_FOUND', 'INVALID_RESOURCE_ID')
    }),
  )

  app.patch(`${PREFIX}/v2/checkout/orders/:id`, (req, reply) =>
    run(req, reply, () => {
      if (!authed(req)) return error(reply, 401, 'AUTHENTICATION_FAILURE')
      const o = orders.get((req.params as { id: string }).id)
      if (!o) return error(reply, 404, 'RESOURCE_NOT_FOUND', 'INVALID_RESOURCE_ID')
      if (o.status === 'COMPLETED')
        return error(reply, 422, 'UNPROCESSABLE_ENTITY', 'ORDER_ALREADY_COMPLETED')
      const unit = (o.body.purchase_units as Record<string, unknown>[])[0]!
      for (const op of (req.body as { op: string; path: string; value: unknown }[]) ?? []) {
        const m =
          /^\/purchase_units\/@reference_id=='[^']+'\/(amount|shipping\/options|invoice_id|custom_id)$/.exec(
            op.path,
          )
        if (op.op !== 'replace' && op.op !== 'add')
          return error(reply, 422, 'UNPROCESSABLE_ENTITY', 'PATCH_OPERATION_NOT_SUPPORTED')
        if (!m) return error(reply, 422, 'UNPROCESSABLE_ENTITY', 'PATCH_PATH_NOT_SUPPORTED')
        if (m[1] === 'shipping/options')
          unit.shipping = { ...((unit.shipping as object) ?? {}), options: op.value }
        else unit[m[1]!] = op.value
      }
      return reply.code(204).send()
    }),
  )

  const settle = (req: FastifyRequest, reply: FastifyReply, kind: 'capture' | 'authorize') =>
    run(req, reply, () => {
      if (!authed(req)) return error(reply, 401, 'AUTHENTICATION_FAILURE')
      const o = orders.get((req.params as { id: string }).id)
      if (!o) return error(reply, 404, 'RESOURCE_NOT_FOUND', 'INVALID_RESOURCE_ID')
      return idempotent(req, reply, `${kind}:${o.id}`, () => {
        const mock = req.headers['paypal-mock-response']
        if (typeof mock === 'string') {
          const code = (JSON.parse(mock) as { mock_application_codes?: string }).mock_application_codes
          if (code) return unprocessable(code)
        }
        if (o.status === 'COMPLETED')
          return unprocessable(kind === 'capture' ? 'ORDER_ALREADY_CAPTURED' : 'ORDER_ALREADY_AUTHORIZED')
        if (o.status !== 'APPROVED')
          return unprocessable(
            o.status === 'PAYER_ACTION_REQUIRED' ? 'PAYER_ACTION_REQUIRED' : 'ORDER_NOT_APPROVED',
          )
        if (o.approvedAmount !== null && amountOf(o) > o.approvedAmount) {
          o.status = 'PAYER_ACTION_REQUIRED'
          return unprocessable('PAYER_ACTION_REQUIRED')
        }
        if (o.declineNext) {
          o.declineNext = false
          return unprocessable('INSTRUMENT_DECLINED')
        }
        const unit = (o.body.purchase_units as Record<string, unknown>[])[0]!
        const id = randomBytes(8).toString('hex').toUpperCase()
        const asked = unit.amount as { currency_code: string; value: string }
        // What PayPal records (a test control may change it): the entry's own amount.
        const amount = nextAmount
          ? { currency_code: nextAmount.currency_code ?? asked.currency_code, value: nextAmount.value }
          : { currency_code: asked.currency_code, value: asked.value }
        nextAmount = null
        const pending = kind === 'capture' ? nextCapture : null
        nextCapture = null
        const entry: Record<string, unknown> = {
          id,
          status: kind === 'capture' ? (pending ? 'PENDING' : 'COMPLETED') : 'CREATED',
          ...(pending ? { status_details: { reason: pending.reason } } : {}),
          amount,
          final_capture: true,
          create_time: new Date().toISOString(),
          supplementary_data: { related_ids: { order_id: o.id } },
        }
        if (kind === 'capture') captures.set(id, { orderId: o.id, entry, refunds: [] })
        else authorizations.set(id, { orderId: o.id, entry })
        o.payments =
          kind === 'capture'
            ? { captures: [entry] }
            : {
                authorizations: [
                  { ...entry, expiration_time: new Date(Date.now() + 29 * 86400_000).toISOString() },
                ],
              }
        o.status = 'COMPLETED'
        void emit(
          kind === 'capture'
            ? pending
              ? 'PAYMENT.CAPTURE.PENDING'
              : 'PAYMENT.CAPTURE.COMPLETED'
            : 'PAYMENT.AUTHORIZATION.CREATED',
          entry,
        )
        return { status: 201, body: view(o) }
      })
    })
  app.post(`${PREFIX}/v2/checkout/orders/:id/capture`, (req, reply) => settle(req, reply, 'capture'))
  app.post(`${PREFIX}/v2/checkout/orders/:id/authorize`, (req, reply) => settle(req, reply, 'authorize'))

  const { refunded } = paypalPaymentRoutes(sim)

  app.post(`${PREFIX}/v1/notifications/verify-webhook-signature`, (req, reply) =>
    run(req, reply, () => {
      if (!authed(req)) return error(reply, 401, 'AUTHENTICATION_FAILURE')
      const b = (req.body ?? {}) as Record<string, unknown>
      const t = transmissions.get(String(b.transmission_id))
      const event = JSON.stringify(b.webhook_event)
      const ok =
        !!t &&
        // A transmission exists only once its event was signed, so the key is made by then.
        !!keys &&
        b.webhook_id === creds.webhookId &&
        b.transmission_time === t.time &&
        event === JSON.stringify(JSON.parse(t.body)) &&
        createVerify('RSA-SHA256')
          .update(`${String(b.transmission_id)}|${t.time}|${creds.webhookId}|${crc32(t.body)}`)
          .verify(keys.publicKey, String(b.transmission_sig), 'base64')
      return reply.send({ verification_status: ok ? 'SUCCESS' : 'FAILURE' })
    }),
  )
  app.get(`${PREFIX}/v1/notifications/certs/sim`, async (_req, reply) =>
    reply.type('text/plain').send((await signingKeys()).publicKey.export({ type: 'spki', format: 'pem' })),
  )

  const { approve } = paypalBrowserRoutes(sim)

  return {
    setWebhookUrl: (url) => void (webhookUrl = url),
    redeliver: async (eventId) => {
      const e = events.get(eventId)
      if (!e || !webhookUrl) return 0
      const res = await fetch(webhookUrl, { method: 'POST', headers: e.headers, body: e.body })
      return res.status
    },
    deliveredEvents: () => [...events.keys()],
    deliveredEventTypes: () => [...eventTypes],
    approve: (orderId) => {
      const o = orders.get(orderId)
      if (o) approve(o, false)
    },
    captureNextAs: (status, reason = 'PENDING_REVIEW') => void (nextCapture = { status, reason }),
    settleCapture: async (captureId, to) => {
      const c = captures.get(captureId)
      if (!c || c.entry.status !== 'PENDING') throw new Error(`capture ${captureId} is not PENDING`)
      c.entry.status = to
      delete c.entry.status_details
      c.entry.update_time = new Date().toISOString()
      await emit(to === 'COMPLETED' ? 'PAYMENT.CAPTURE.COMPLETED' : 'PAYMENT.CAPTURE.DENIED', c.entry)
    },
    recordNextAmount: (value, currencyCode) =>
      void (nextAmount = { value, ...(currencyCode ? { currency_code: currencyCode } : {}) }),
    refundNextAs: () => void (next.refundPending = true),
    settleRefund: async (refundId, to) => {
      const r = refunds.get(refundId)
      if (!r || r.body.status !== 'PENDING') throw new Error(`refund ${refundId} is not PENDING`)
      r.body.status = to
      delete r.body.status_details
      if (to === 'COMPLETED') refunded(captures.get(r.captureId)!, r.body)
      else await emit('PAYMENT.CAPTURE.REFUND.FAILED', r.body)
    },
    ledger: (captureId) => {
      const c = captures.get(captureId)
      if (!c) return null
      return {
        status: String(c.entry.status),
        amount: c.entry.amount as { currency_code: string; value: string },
        refunds: c.refunds.map((id) => {
          const b = refunds.get(id)!.body
          return { id, status: String(b.status), value: (b.amount as { value: string }).value }
        }),
      }
    },
    authorization: (authorizationId) => {
      const a = authorizations.get(authorizationId)
      return a ? { status: String(a.entry.status) } : null
    },
  }
}
