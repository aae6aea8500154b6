import fastifyCsrf from '@fastify/csrf-protection'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'

export const XSRF_COOKIE = 'XSRF-TOKEN'
export const XSRF_HEADER = 'x-xsrf-token'
export const CSRF_SECRET_COOKIE = 'shop_csrf'
const SECRET_COOKIE = CSRF_SECRET_COOKIE
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set to false on routes that authenticate another way (payment webhooks). */
    csrf?: boolean
  }
}

export interface CsrfOptions {
  cookieSecure: boolean | 'auto'
}

function tokenFrom(request: FastifyRequest): string | undefined {
  const header = request.headers[XSRF_HEADER]
  if (typeof header === 'string' && header) return header
  const body = request.body as Record<string, unknown> | null | undefined
  // Plain HTML forms (no JavaScript) send the token as a hidden field.
  return typeof body?._token === 'string' ? body._token : undefined
}

/**
 * CSRF protection the Inertia client understands: a per-browser secret in an HttpOnly cookie,
 * and a token derived from it in the JS-readable `XSRF-TOKEN` cookie, which the client echoes in
 * the `X-XSRF-TOKEN` header. A state-changing request without a valid token is refused with 419
 * before its handler runs.
 */
export const csrfPlugin = fp(
  async (app: FastifyInstance, opts: CsrfOptions) => {
    await app.register(fastifyCsrf, {
      cookieKey: SECRET_COOKIE,
      cookieOpts: {
        path: '/',
        httpOnly: true,
        sameSite: 'lax',
        secure: opts.cookieSecure,
        signed: true,
      },
      getToken: tokenFrom,
    })

    app.addHook('preValidation', (request, reply, done) => {
      if (SAFE_METHODS.has(request.method) || request.routeOptions.config?.csrf === false) {
        done()
        return
      }
      app.csrfProtection(request, reply, done)
    })
  },
  { name: 'shop-csrf', dependencies: ['@fastify/cookie'] },
)

/**
 * Makes sure the browser holds a token cookie. Called for HTML and Inertia page responses only,
 * so assets and JSON endpoints stay cookie-free.
 */
export function ensureXsrfCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  cookieSecure: boolean | 'auto',
) {
  if (request.cookies[XSRF_COOKIE] && request.cookies[SECRET_COOKIE]) return
  const token = reply.generateCsrf()
  reply.setCookie(XSRF_COOKIE, token, {
    path: '/',
    httpOnly: false,
    sameSite: 'lax',
    secure: cookieSecure,
  })
}
