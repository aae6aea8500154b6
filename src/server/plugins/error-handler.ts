import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { DomainError, type DomainCode } from '../lib/domain-error.ts'

export const MESSAGES = {
  csrf: 'This page has expired. Please refresh the page and try again.',
  tooLarge: 'The request is too large.',
  badRequest: 'The request could not be understood. Please check what you entered and try again.',
  unsupported: 'This kind of request is not supported.',
  rateLimited: 'Too many requests. Please wait a moment and try again.',
  server: 'Something went wrong on our side. Please try again in a moment.',
  unavailable: 'The shop is busy for a moment. Please try again in a few seconds.',
  notFound: 'Not Found',
} as const

/** A page request is a browser navigation or an Inertia visit; anything else gets JSON. */
export function wantsPage(request: FastifyRequest): boolean {
  if (request.headers['x-inertia']) return true
  const accept = request.headers.accept ?? ''
  return accept.includes('text/html')
}

/**
 * The database is restarting or out of reach (PostgreSQL's admin shutdown, cannot connect now,
 * connection failures, a dropped connection, and a transaction whose rollback found its connection
 * gone — node-postgres's "… is not queryable"): a 503 the client may retry, not a fault of ours.
 */
const DATABASE_UNAVAILABLE = new Set([
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08006',
  'ECONNREFUSED',
  'ECONNRESET',
])
export function databaseUnavailable(error: unknown): boolean {
  for (
    let e = error as { code?: unknown; message?: unknown; cause?: unknown } | undefined, depth = 0;
    e && depth < 4;
    e = e.cause as typeof e, depth++
  ) {
    if (typeof e.code === 'string' && DATABASE_UNAVAILABLE.has(e.code)) return true
    if (
      typeof e.message === 'string' &&
      /Connection terminated|timeout exceeded when trying to connect|is not queryable/.test(e.message)
    )
      return true
  }
  return false
}

function classify(error: FastifyError): { status: number; message: string } {
  const code = error.code ?? ''
  if (databaseUnavailable(error)) return { status: 503, message: MESSAGES.unavailable }
  if (code.startsWith('FST_CSRF_')) return { status: 419, message: MESSAGES.csrf }
  if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') return { status: 413, message: MESSAGES.tooLarge }
  if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return { status: 415, message: MESSAGES.unsupported }
  const status = error.statusCode ?? 500
  if (status === 429) return { status, message: MESSAGES.rateLimited }
  if (status === 404) return { status, message: MESSAGES.notFound }
  if (status >= 400 && status < 500) return { status, message: MESSAGES.badRequest }
  return { status: 500, message: MESSAGES.server }
}

/** A domain error's answer: its status and the body the page reads. */
export interface DomainAnswer {
  status: number
  body: Record<string, unknown>
}

/**
 * A payment step's refusal: its message and what else the method or wallet said (the card and
 * wallet pages read `status`, `retry`, `errors`, the 3-D Secure form, a re-priced `cart`).
 */
const asPaymentSaid = (status: number) => (e: DomainError) => ({
  status,
  body: { ...e.answer, message: e.message },
})

/**
 * Each domain code's answer, in one place (ADR 0171, ADR 0240). The checkout page reads these
 * shapes (client/checkout/use-order-submit.ts, client/lib/json-client.ts, the PayPal and Amazon
 * Pay components under client/checkout/payment/): a 409 with `cart` shows the re-priced basket
 * and its warning; a 422 with `redirect: '/cart'` goes to the basket; other 422s put `errors`
 * under their fields; a 202 is asked again; the wallet components show any other `message`.
 */
const DOMAIN_ANSWERS: Record<DomainCode, (e: DomainError) => DomainAnswer> = {
  not_found: () => ({ status: 404, body: { message: MESSAGES.notFound } }),
  invalid: (e) => ({ status: 422, body: { message: e.message, errors: e.fields } }),
  // The same answer from every path that finds nothing to order (ADR 0172).
  empty_basket: (e) => ({
    status: 422,
    body: { message: e.message, errors: { cart: [e.message] }, redirect: '/cart' },
  }),
  basket_moved: (e) => ({
    status: 409,
    body: { message: e.message, warning: e.message, cart: e.answer.cart ?? null },
  }),
  payment_pending: asPaymentSaid(202),
  payment_declined: asPaymentSaid(402),
  payment_not_found: asPaymentSaid(404),
  payment_moved: asPaymentSaid(409),
  payment_invalid: asPaymentSaid(422),
  payment_in_progress: asPaymentSaid(409),
  too_many_attempts: asPaymentSaid(429),
  provider_unavailable: asPaymentSaid(502),
  // The order lifecycle (ADR 0200): the message says why; `answer` may carry the current version.
  order_not_found: (e) => ({ status: 404, body: { message: e.message, code: e.code } }),
  order_version_mismatch: (e) => ({ status: 412, body: { message: e.message, code: e.code, ...e.answer } }),
  order_transition_refused: (e) => ({ status: 409, body: { message: e.message, code: e.code, ...e.answer } }),
  refund_exceeds_refundable: (e) => ({
    status: 422,
    body: { message: e.message, code: e.code, ...e.answer },
  }),
  shipment_exceeds_ordered: (e) => ({ status: 422, body: { message: e.message, code: e.code, ...e.answer } }),
}

export function domainAnswer(error: DomainError): DomainAnswer {
  return DOMAIN_ANSWERS[error.code](error)
}

export interface ErrorHandlerOptions {
  isDev: boolean
  /** Renders the Inertia error page; must not throw for a request whose site is unknown. */
  renderErrorPage: (request: FastifyRequest, reply: FastifyReply, status: number, message: string) => unknown
  /** Called for a 419 so the browser gets a fresh token for its next try. */
  onCsrfFailure?: (request: FastifyRequest, reply: FastifyReply) => void
}

/**
 * One error handler. A domain error is answered by its code (`domainAnswer`), as JSON: the calls
 * that refuse this way are the page's JSON calls. Otherwise page requests get the Inertia `Error`
 * page with the right status, other requests get `{ message }` JSON. 5xx details are logged,
 * never sent (except in development).
 */
export function installErrorHandler(app: FastifyInstance, opts: ErrorHandlerOptions) {
  app.setErrorHandler(async (error: FastifyError, request, reply) => {
    if (error instanceof DomainError) {
      const answer = domainAnswer(error)
      request.log.info({ code: error.code, status: answer.status }, error.message)
      return reply.code(answer.status).send(answer.body)
    }
    const { status, message } = classify(error)
    if (status >= 500) request.log.error({ err: error }, 'request failed')
    else request.log.info({ code: error.code, status }, error.message)

    if (status === 419) opts.onCsrfFailure?.(request, reply)
    const extra = (error as FastifyError & { headers?: Record<string, string> }).headers
    if (status === 429 && extra) reply.headers(extra)
    if (status === 503) reply.header('retry-after', '5')

    const detail = opts.isDev && status >= 500 ? `${message}\n\n${error.stack ?? error.message}` : message
    if (wantsPage(request)) {
      try {
        return await opts.renderErrorPage(request, reply, status, detail)
      } catch (renderError) {
        request.log.error({ err: renderError }, 'error page failed to render')
        return reply.code(status).type('text/plain; charset=utf-8').send(message)
      }
    }
    return reply.code(status).send({ message: detail })
  })
}
