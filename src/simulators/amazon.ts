/**
 * Amazon Pay v2 simulator: checkout sessions (create from the signed button payload, get,
 * update, complete), charges, request signatures checked exactly as Amazon checks them
 * (RSA-PSS over the canonical request of the signed headers), idempotency keys, the sandbox's
 * simulated wallet cards and simulation codes, a checkout.js stand-in, and IPNs in a signed SNS
 * envelope (payments.md §4, §7.3).
 *
 * Wallet cards: …1111 happy path; …3434 Declined; …3064 BuyerCanceled; …0701 authorisation pending.
 * Charges are cancelled while not captured; refunds (of Captured charges only, up to 15 % or £75
 * above the capture) start RefundInitiated and become Refunded after a delay, with a REFUND IPN.
 * An Authorized charge is captured (POST …/capture) within 30 days of its authorisation; after
 * that it is Canceled with reason ExpiredUnused (moved when next read, on the simulator's clock,
 * which a test may move on), and a capture or cancel of it is refused (InvalidChargeStatus).
 */
import { createHash, createSign, randomUUID, type KeyObject } from 'node:crypto'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { SIMULATOR_CREDENTIALS } from '../server/config/payments.ts'
import { underFaults, type Faults } from './faults.ts'
import { amazonBrowserRoutes } from './amazon.browser.ts'
import { sessionView } from './amazon.session-view.ts'
import { buttonPayloadSignatureValid, requestSignatureValid } from './amazon.signature.ts'
import {
  cents,
  expireIfDue,
  expiresAfter,
  money,
  type Charge,
  type Money,
  type Refund,
  type Session,
} from './amazon.state.ts'

export interface AmazonSimControl {
  setIpnUrl(url: string | null): void
  /** Re-sends the last IPN for a charge (or a refund, by its id) exactly as before (a replay). */
  redeliver(chargeOrRefundId: string): Promise<number>
  /**
   * The next completed checkout session's charge stays AuthorizationInitiated or CaptureInitiated
   * (as the sandbox's pending wallet cards do); `settleCharge` finishes it.
   */
  nextChargeAs(state: 'AuthorizationInitiated' | 'CaptureInitiated'): void
  /** A pending charge settles: Authorized, Captured or Declined, with its CHARGE IPN (awaited). */
  settleCharge(chargeId: string, to: 'Authorized' | 'Captured' | 'Declined'): Promise<void>
  /**
   * The next charge records (and states as chargeAmount, captureAmount once captured) this amount
   * instead of the session's: a provider-side change the shop must notice.
   */
  recordNextAmount(amount: string, currencyCode?: string): void
  /**
   * How long a refund stays RefundInitiated before it becomes Refunded, or Declined when `to`
   * says so (with its REFUND IPN); null: until `settleRefund`. The default is 2 s, Refunded (the
   * demo's refunds finish on their own).
   */
  refundsSettleAfter(ms: number | null, to?: 'Refunded' | 'Declined'): void
  settleRefund(refundId: string, to: 'Refunded' | 'Declined'): Promise<void>
  /** Moves the simulator's clock on (an authorisation's 30 days pass without waiting). */
  passTime(ms: number): void
  /** What Amazon holds for a charge: its state and amounts, and the refunds made against it. */
  ledger(chargeId: string): {
    state: string
    reasonCode: string | null
    chargeAmount: Money
    captureAmount: Money | null
    refunds: { refundId: string; state: string; amount: string }[]
  } | null
  /** Completes the buyer's part as the hosted pages would (tests without a browser). */
  buyerSignsIn(payloadJSON: string, signature: string, card?: string): string
  buyerReturnsFromAmazon(sessionId: string): void
}

export function amazonSimulator(
  app: FastifyInstance,
  faults: Faults,
  origin: () => string,
  /** The shop's public key (set before the simulators listen) */
  merchantPublicKeys: () => readonly KeyObject[],
  /** The SNS signing certificate and key, made on first use */
  sns: () => Promise<{ cert: string; privateKey: string }>,
): AmazonSimControl {
  const creds = SIMULATOR_CREDENTIALS.amazon
  const sessions = new Map<string, Session>()
  const charges = new Map<string, Charge>()
  const refunds = new Map<string, Refund>()
  let nextCharge: 'AuthorizationInitiated' | 'CaptureInitiated' | null = null
  let nextAmount: Money | null = null
  let refundDelayMs: number | null = 2000
  /** What a refund becomes once its delay has passed (a test control may make them decline). */
  let refundsBecome: 'Refunded' | 'Declined' = 'Refunded'
  const idempotency = new Map<string, { bodyHash: string; status: number; body: unknown }>()
  const ipns = new Map<string, string>()
  let ipnUrl: string | null = null
  /** The simulator's clock: the real one, moved on by `passTime` */
  let clockOffsetMs = 0
  const now = () => Date.now() + clockOffsetMs
  /** A charge as Amazon holds it now: an authorisation past its 30 days has lapsed. */
  const chargeOf = (id: string): Charge | undefined => {
    const c = charges.get(id)
    if (c) expireIfDue(c, now())
    return c
  }
  const stateOf = (c: Charge) =>
    c.statusDetails.reasonCode
      ? `${c.statusDetails.state} (${c.statusDetails.reasonCode})`
      : c.statusDetails.state

  const run = (req: FastifyRequest, reply: FastifyReply, fn: () => unknown) =>
    underFaults(faults, 'amazon', '/amazon', req, reply, fn)
  const fail = (reply: FastifyReply, status: number, reasonCode: string, message: string) =>
    reply.code(status).send({ reasonCode, message })

  const signatureValid = (req: FastifyRequest, apiPath: string) =>
    requestSignatureValid(req, apiPath, creds.publicKeyId, merchantPublicKeys)
  const buttonSignatureValid = (payloadJSON: string, signature: string) =>
    buttonPayloadSignatureValid(payloadJSON, signature, merchantPublicKeys)
  const view = (s: Session) => sessionView(s, origin)

  async function sendIpn(charge: Charge): Promise<void> {
    return notify('CHARGE', charge.chargeId, charge.chargePermissionId)
  }

  /** An IPN v2 (STATE_CHANGE) for a charge or a refund, in a signed SNS envelope. */
  async function notify(objectType: 'CHARGE' | 'REFUND', objectId: string, chargePermissionId: string) {
    const message = JSON.stringify({
      MerchantID: creds.merchantId,
      ObjectType: objectType,
      ObjectId: objectId,
      ChargePermissionId: chargePermissionId,
      NotificationType: 'STATE_CHANGE',
      NotificationId: randomUUID(),
      NotificationVersion: 'V2',
    })
    const env: Record<string, string> = {
      Type: 'Notification',
      MessageId: randomUUID(),
      TopicArn: 'arn:aws:sns:eu-west-1:000000000000:A2SIMULATOR',
      Message: message,
      Timestamp: new Date().toISOString(),
      SignatureVersion: '2',
      SigningCertURL: `${origin()}/amazon/sns-cert.pem`,
      UnsubscribeURL: `${origin()}/amazon/unsubscribe`,
    }
    const canonical = ['Message', 'MessageId', 'Subject', 'Timestamp', 'TopicArn', 'Type']
      .filter((f) => env[f] !== undefined)
      .map((f) => `${f}\n${env[f]}\n`)
      .join('')
    env.Signature = createSign('RSA-SHA256')
      .update(canonical)
      .sign((await sns()).privateKey, 'base64')
    const body = JSON.stringify(env)
    ipns.set(objectId, body)
    if (ipnUrl)
      await fetch(ipnUrl, {
        method: 'POST',
        headers: { 'content-type': 'text/plain; charset=UTF-8', 'x-amz-sns-message-type': 'Notification' },
        body,
      }).catch(() => undefined)
  }

  async function finishRefund(r: Refund, to: 'Refunded' | 'Declined'): Promise<void> {
    if (r.statusDetails.state !== 'RefundInitiated') return
    r.statusDetails = { state: to, reasonCode: to === 'Declined' ? 'AmazonRejected' : null }
    const c = charges.get(r.chargeId)!
    if (to === 'Refunded')
      c.refundedAmount = money(cents(c.refundedAmount) + cents(r.refundAmount), c.refundedAmount.currencyCode)
    await notify('REFUND', r.refundId, c.chargePermissionId)
  }

  function createSession(payloadJSON: string): Session {
    const id = randomUUID()
    const s: Session = {
      id,
      payload: JSON.parse(payloadJSON) as Record<string, unknown>,
      state: 'Open',
      reasonCode: null,
      resultReturnUrl: null,
      paymentDetails: null,
      merchantMetadata: null,
      card: null,
      returnedFromAmazon: false,
      chargeId: null,
      chargePermissionId: null,
      createdAt: Date.now(),
    }
    sessions.set(id, s)
    return s
  }

  function returnFromAmazon(s: Session): void {
    if (s.state !== 'Open') return
    if (s.card === '3064') [s.state, s.reasonCode] = ['Canceled', 'BuyerCanceled']
    else if (s.card === '3434') [s.state, s.reasonCode] = ['Canceled', 'Declined']
    else s.returnedFromAmazon = true
  }

  for (const base of ['/amazon/v2', '/amazon/sandbox/v2', '/amazon/live/v2']) {
    const apiPath = (req: FastifyRequest) => req.url.slice('/amazon'.length).split('?')[0] ?? ''
    const guard = (req: FastifyRequest, reply: FastifyReply, fn: () => unknown) =>
      run(req, reply, () =>
        signatureValid(req, apiPath(req))
          ? fn()
          : fail(reply, 401, 'InvalidRequestSignature', 'Unable to verify signature'),
      )
    /** Same key + same body → the saved answer; same key + another body → DuplicateIdempotencyKey. */
    const idempotent = (
      req: FastifyRequest,
      reply: FastifyReply,
      fn: () => { status: number; body: unknown },
    ) => {
      const key = req.headers['x-amz-pay-idempotency-key']
      if (typeof key !== 'string' || !/^[A-Za-z0-9]{1,32}$/.test(key))
        return fail(reply, 400, 'InvalidHeaderValue', 'x-amz-pay-idempotency-key is missing or invalid')
      const bodyHash = createHash('sha256')
        .update((req as FastifyRequest & { rawBody?: string }).rawBody ?? '')
        .digest('hex')
      const saved = idempotency.get(key)
      if (saved && saved.bodyHash !== bodyHash)
        return fail(
          reply,
          400,
          'DuplicateIdempotencyKey',
          'The idempotency key was used with another request',
        )
      const r = saved ?? { bodyHash, ...fn() }
      if (!saved && r.status < 500) idempotency.set(key, r)
      return reply.code(r.status).send(r.body)
    }

    app.post(`${base}/checkoutSessions`, (req, reply) =>
      guard(req, reply, () =>
        idempotent(req, reply, () => ({
          status: 201,
          body: view(createSession((req as FastifyRequest & { rawBody?: string }).rawBody ?? '{}')),
        })),
      ),
    )
    app.get(`${base}/checkoutSessions/:id`, (req, reply) =>
      guard(req, reply, () => {
        const s = sessions.get((req.params as { id: string }).id)
        return s ? reply.send(view(s)) : fail(reply, 404, 'ResourceNotFound', 'Checkout session not found')
      }),
    )
    app.patch(`${base}/checkoutSessions/:id`, (req, reply) =>
      guard(req, reply, () => {
        const s = sessions.get((req.params as { id: string }).id)
        if (!s) return fail(reply, 404, 'ResourceNotFound', 'Checkout session not found')
        if (s.state !== 'Open')
          return fail(reply, 422, 'InvalidCheckoutSessionStatus', `The checkout session is ${s.state}`)
        const b = (req.body ?? {}) as Record<string, Record<string, unknown>>
        const amount = (b.paymentDetails?.chargeAmount ?? null) as {
          amount?: string
          currencyCode?: string
        } | null
        if (amount && (amount.currencyCode !== 'GBP' || !/^\d+(\.\d{1,2})?$/.test(String(amount.amount))))
          return fail(reply, 400, 'CurrencyMismatch', 'chargeAmount must be GBP')
        if (b.webCheckoutDetails?.checkoutResultReturnUrl)
          s.resultReturnUrl = String(b.webCheckoutDetails.checkoutResultReturnUrl)
        if (b.paymentDetails) s.paymentDetails = { ...(s.paymentDetails ?? {}), ...b.paymentDetails }
        if (b.merchantMetadata) s.merchantMetadata = b.merchantMetadata
        return reply.send(view(s))
      }),
    )
    app.post(`${base}/checkoutSessions/:id/complete`, (req, reply) =>
      guard(req, reply, () =>
        idempotent(req, reply, () => {
          const s = sessions.get((req.params as { id: string }).id)
          if (!s)
            return {
              status: 404,
              body: { reasonCode: 'ResourceNotFound', message: 'Checkout session not found' },
            }
          const sim = req.headers['x-amz-pay-simulation-code']
          if (
            s.state === 'Open' &&
            (sim === 'BuyerCanceled' || sim === 'AmazonCanceled' || sim === 'Declined')
          )
            [s.state, s.reasonCode] = ['Canceled', String(sim)]
          if (s.state === 'Canceled')
            return {
              status: 422,
              body: {
                reasonCode: 'CheckoutSessionCanceled',
                message: `The checkout session was canceled: ${s.reasonCode}`,
              },
            }
          if (s.state !== 'Open' || !s.returnedFromAmazon)
            return {
              status: 422,
              body: {
                reasonCode: 'InvalidCheckoutSessionStatus',
                message: 'The buyer has not completed the Amazon Pay redirect',
              },
            }
          const want = (s.paymentDetails?.chargeAmount ?? {}) as { amount?: string; currencyCode?: string }
          const given = ((req.body ?? {}) as { chargeAmount?: { amount?: string; currencyCode?: string } })
            .chargeAmount
          if (
            !given ||
            Number(given.amount) !== Number(want.amount) ||
            given.currencyCode !== want.currencyCode
          )
            return {
              status: 400,
              body: {
                reasonCode: 'AmountMismatch',
                message: 'chargeAmount does not match the checkout session',
              },
            }
          const pending =
            nextCharge ??
            (s.card === '0701' || sim === 'AuthorizationInitiated' ? 'AuthorizationInitiated' : null)
          nextCharge = null
          // What Amazon records (a test control may change it): the charge's own amount.
          const recorded = nextAmount ?? {
            amount: String(want.amount),
            currencyCode: String(want.currencyCode),
          }
          nextAmount = null
          const state =
            pending ?? (s.paymentDetails?.paymentIntent === 'Authorize' ? 'Authorized' : 'Captured')
          const charge: Charge = {
            chargeId: `S02-${randomUUID().slice(0, 7)}-${randomUUID().slice(0, 7)}-C${String(Math.floor(Math.random() * 1e5)).padStart(5, '0')}`,
            chargePermissionId: `S02-${randomUUID().slice(0, 7)}-${randomUUID().slice(0, 7)}`,
            chargeAmount: recorded,
            captureAmount: state === 'Captured' ? recorded : null,
            refundedAmount: money(0, recorded.currencyCode),
            statusDetails: { state, reasonCode: null },
            creationTimestamp: new Date(now()).toISOString(),
            expirationTimestamp: state === 'Authorized' ? expiresAfter(now()) : null,
          }
          charges.set(charge.chargeId, charge)
          Object.assign(s, {
            state: 'Completed',
            chargeId: charge.chargeId,
            chargePermissionId: charge.chargePermissionId,
          })
          void sendIpn(charge)
          return { status: 200, body: view(s) }
        }),
      ),
    )
    app.get(`${base}/charges/:id`, (req, reply) =>
      guard(req, reply, () => {
        const c = chargeOf((req.params as { id: string }).id)
        return c ? reply.send(c) : fail(reply, 404, 'ResourceNotFound', 'Charge not found')
      }),
    )
    app.post(`${base}/charges/:id/capture`, (req, reply) =>
      guard(req, reply, () =>
        idempotent(req, reply, () => {
          const c = chargeOf((req.params as { id: string }).id)
          if (!c)
            return { status: 404, body: { reasonCode: 'ResourceNotFound', message: 'Charge not found' } }
          if (c.statusDetails.state !== 'Authorized')
            return {
              status: 422,
              body: {
                reasonCode: 'InvalidChargeStatus',
                message: `You tried to call an operation on a Charge object that is in a state where that operation is not allowed: ${stateOf(c)}`,
              },
            }
          const asked = ((req.body ?? {}) as { captureAmount?: Money }).captureAmount
          if (!asked || !/^\d+(\.\d{1,2})?$/.test(String(asked.amount)) || cents(asked) <= 0)
            return {
              status: 400,
              body: { reasonCode: 'InvalidParameterValue', message: 'captureAmount is invalid' },
            }
          if (asked.currencyCode !== c.chargeAmount.currencyCode)
            return {
              status: 400,
              body: { reasonCode: 'CurrencyMismatch', message: 'captureAmount currency differs' },
            }
          if (cents(asked) > cents(c.chargeAmount))
            return {
              status: 400,
              body: {
                reasonCode: 'TransactionAmountExceeded',
                message: 'The capture amount exceeds the authorised amount',
              },
            }
          c.captureAmount = money(cents(asked), asked.currencyCode)
          c.statusDetails = { state: 'Captured', reasonCode: null }
          c.expirationTimestamp = null
          void sendIpn(c)
          return { status: 200, body: { ...c, statusDetails: { ...c.statusDetails } } }
        }),
      ),
    )
    app.delete(`${base}/charges/:id/cancel`, (req, reply) =>
      guard(req, reply, () => {
        const c = chargeOf((req.params as { id: string }).id)
        if (!c) return fail(reply, 404, 'ResourceNotFound', 'Charge not found')
        if (c.statusDetails.state !== 'AuthorizationInitiated' && c.statusDetails.state !== 'Authorized')
          return fail(
            reply,
            422,
            'InvalidChargeStatus',
            `You tried to call an operation on a Charge object that is in a state where that operation is not allowed: ${stateOf(c)}`,
          )
        c.statusDetails = { state: 'Canceled', reasonCode: 'MerchantCanceled' }
        c.expirationTimestamp = null
        void sendIpn(c)
        return reply.send(c)
      }),
    )
    app.post(`${base}/refunds`, (req, reply) =>
      guard(req, reply, () =>
        idempotent(req, reply, () => {
          const b = (req.body ?? {}) as { chargeId?: string; refundAmount?: Money; softDescriptor?: string }
          const c = chargeOf(String(b.chargeId ?? ''))
          if (!c)
            return { status: 404, body: { reasonCode: 'ResourceNotFound', message: 'Charge not found' } }
          if (c.statusDetails.state !== 'Captured')
            return {
              status: 422,
              body: {
                reasonCode: 'InvalidChargeStatus',
                message: `A refund needs a Captured charge; this one is ${stateOf(c)}`,
              },
            }
          const asked = b.refundAmount
          if (!asked || !/^\d+(\.\d{1,2})?$/.test(String(asked.amount)) || cents(asked) <= 0)
            return {
              status: 400,
              body: { reasonCode: 'InvalidParameterValue', message: 'refundAmount is invalid' },
            }
          if (asked.currencyCode !== c.captureAmount!.currencyCode)
            return {
              status: 400,
              body: { reasonCode: 'CurrencyMismatch', message: 'refundAmount currency differs' },
            }
          // Up to 15 % or £75 above the capture, whichever is less (manage-refunds), in all.
          const captured = cents(c.captureAmount)
          const limit = Math.min(Math.floor(captured * 1.15), captured + 7500)
          const given = [...refunds.values()]
            .filter((r) => r.chargeId === c.chargeId && r.statusDetails.state !== 'Declined')
            .reduce((sum, r) => sum + cents(r.refundAmount), 0)
          if (given + cents(asked) > limit)
            return {
              status: 400,
              body: {
                reasonCode: 'TransactionAmountExceeded',
                message: 'The refund amount exceeds what can be refunded',
              },
            }
          const refund: Refund = {
            refundId: `${c.chargeId.slice(0, -6)}R${String(Math.floor(Math.random() * 1e5)).padStart(5, '0')}`,
            chargeId: c.chargeId,
            refundAmount: {
              amount: cents(asked) === 0 ? '0.00' : (cents(asked) / 100).toFixed(2),
              currencyCode: asked.currencyCode,
            },
            softDescriptor: b.softDescriptor ?? null,
            statusDetails: { state: 'RefundInitiated', reasonCode: null },
            creationTimestamp: new Date().toISOString(),
          }
          refunds.set(refund.refundId, refund)
          if (refundDelayMs !== null)
            setTimeout(() => void finishRefund(refund, refundsBecome), refundDelayMs).unref()
          return { status: 201, body: { ...refund, statusDetails: { ...refund.statusDetails } } }
        }),
      ),
    )
    app.get(`${base}/refunds/:id`, (req, reply) =>
      guard(req, reply, () => {
        const r = refunds.get((req.params as { id: string }).id)
        return r ? reply.send(r) : fail(reply, 404, 'ResourceNotFound', 'Refund not found')
      }),
    )
  }

  app.get('/amazon/sns-cert.pem', async (_req, reply) =>
    reply.type('application/x-pem-file').send((await sns()).cert),
  )

  amazonBrowserRoutes({
    app,
    origin,
    publicKeyId: creds.publicKeyId,
    merchantId: creds.merchantId,
    sessions,
    buttonSignatureValid,
    createSession,
    returnFromAmazon,
  })

  return {
    setIpnUrl: (url) => void (ipnUrl = url),
    redeliver: async (chargeId) => {
      const body = ipns.get(chargeId)
      if (!body || !ipnUrl) return 0
      return (
        await fetch(ipnUrl, {
          method: 'POST',
          headers: { 'content-type': 'text/plain; charset=UTF-8' },
          body,
        })
      ).status
    },
    nextChargeAs: (state) => void (nextCharge = state),
    settleCharge: async (chargeId, to) => {
      const c = charges.get(chargeId)
      if (!c || !['AuthorizationInitiated', 'CaptureInitiated', 'Authorized'].includes(c.statusDetails.state))
        throw new Error(`charge ${chargeId} cannot become ${to}`)
      c.statusDetails = { state: to, reasonCode: to === 'Declined' ? 'HardDeclined' : null }
      c.expirationTimestamp = to === 'Authorized' ? expiresAfter(now()) : null
      if (to === 'Captured') c.captureAmount = c.chargeAmount
      await sendIpn(c)
    },
    recordNextAmount: (amount, currencyCode = 'GBP') => void (nextAmount = { amount, currencyCode }),
    refundsSettleAfter: (ms, to = 'Refunded') => {
      refundDelayMs = ms
      refundsBecome = to
    },
    settleRefund: async (refundId, to) => {
      const r = refunds.get(refundId)
      if (!r) throw new Error(`no refund ${refundId}`)
      await finishRefund(r, to)
    },
    passTime: (ms) => void (clockOffsetMs += ms),
    ledger: (chargeId) => {
      const c = chargeOf(chargeId)
      if (!c) return null
      return {
        state: c.statusDetails.state,
        reasonCode: c.statusDetails.reasonCode,
        chargeAmount: c.chargeAmount,
        captureAmount: c.captureAmount,
        refunds: [...refunds.values()]
          .filter((r) => r.chargeId === chargeId)
          .map((r) => ({
            refundId: r.refundId,
            state: r.statusDetails.state,
            amount: r.refundAmount.amount,
          })),
      }
    },
    buyerSignsIn: (payloadJSON, signature, card = '1111') => {
      if (!buttonSignatureValid(payloadJSON, signature)) throw new Error('invalid button signature')
      const s = createSession(payloadJSON)
      s.card = card
      return s.id
    },
    buyerReturnsFromAmazon: (id) => {
      const s = sessions.get(id)
      if (s) returnFromAmazon(s)
    },
  }
}
