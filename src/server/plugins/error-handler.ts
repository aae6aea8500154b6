import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'

export const MESSAGES = {
  csrf: 'This page has expired. Please refresh the page and try again.',
  tooLarge: 'The request is too large.',
  badRequest: 'The request could not be understood. Please check what you entered and try again.',
  unsupported: 'This kind of request is not supported.',
  rateLimited: 'Too many requests. Please wait a moment and try again.',
  server: 'Something went wrong on our side. Please try again in a moment.',
  notFound: 'Not Found',
} as const

/** A page request is a browser navigation or an Inertia visit; anything else gets JSON. */
export function wantsPage(request: FastifyRequest): boolean {
  if (request.headers['x-inertia']) return true
  const accept = request.headers.accept ?? ''
  return accept.includes('text/html')
}

function classify(error: FastifyError): { status: number; message: string } {
  const code = error.code ?? ''
  if (code.startsWith('FST_CSRF_')) return { status: 419, message: MESSAGES.csrf }
  if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') return { status: 413, message: MESSAGES.tooLarge }
  if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return { status: 415, message: MESSAGES.unsupported }
  const status = error.statusCode ?? 500
  if (status === 429) return { status, message: MESSAGES.rateLimited }
  if (status === 404) return { status, message: MESSAGES.notFound }
  if (status >= 400 && status < 500) return { status, message: MESSAGES.badRequest }
  return { status: 500, message: MESSAGES.server }
}

export interface ErrorHandlerOptions {
  isDev: boolean
  /** Renders the Inertia error page; must not throw for a request whose site is unknown. */
  renderErrorPage: (request: FastifyRequest, reply: FastifyReply, status: number, message: string) => unknown
  /** Called for a 419 so the browser gets a fresh token for its next try. */
  onCsrfFailure?: (request: FastifyRequest, reply: FastifyReply) => void
}

/**
 * One error handler: page requests get the Inertia `Error` page with the right status, other
 * requests get `{ message }` JSON. 5xx details are logged, never sent (except in development).
 */
export function installErrorHandler(app: FastifyInstance, opts: ErrorHandlerOptions) {
  app.setErrorHandler(async (error: FastifyError, request, reply) => {
    const { status, message } = classify(error)
    if (status >= 500) request.log.error({ err: error }, 'request failed')
    else request.log.info({ code: error.code, status }, error.message)

    if (status === 419) opts.onCsrfFailure?.(request, reply)
    const extra = (error as FastifyError & { headers?: Record<string, string> }).headers
    if (status === 429 && extra) reply.headers(extra)

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
