import helmet from '@fastify/helmet'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { FastifyInstance, FastifyReply } from 'fastify'
import fp from 'fastify-plugin'
import { randomTokens } from '../lib/random-tokens.ts'

const NONCE = Symbol('cspNonce')

export const HSTS = 'max-age=31536000; includeSubDomains'
/** Pages and JSON carry the customer, the basket and flash messages: never shared, always revalidated. */
export const PRIVATE_PAGE = 'private, no-cache'
/** Account, two-factor and checkout pages are not kept at all (not even in the browser's cache). */
export const NO_STORE = 'private, no-store'

/** Paths of pages with secrets or personal details: no-store. */
const NO_STORE_PREFIXES = [
  '/customer',
  '/user',
  '/account',
  '/checkout',
  '/two-factor-challenge',
  '/reset-password',
  '/email/verify',
  '/orders',
]

export function noStorePath(url: string): boolean {
  const path = url.split('?')[0] ?? ''
  return NO_STORE_PREFIXES.some((p) => path === p || path.startsWith(`${p}/`))
}

type WithNonce = ServerResponse & { [NONCE]?: string }

/** The per-response nonce that inline and module <script> tags must carry. */
export function scriptNonce(reply: FastifyReply): string {
  return (reply.raw as WithNonce)[NONCE] ?? ''
}

export interface SecurityHeaderOptions {
  isDev: boolean
  /** Upgrade sub-resources to https (only when the site is served over TLS). */
  httpsOnly: boolean
  /** Extra https origins allowed to serve scripts (CONTENT_SCRIPT_ORIGINS: the reviews widget) */
  scriptOrigins?: string[]
}

/**
 * Helmet with a nonce-based Content-Security-Policy for scripts. Styles allow inline attributes:
 * server-rendered React markup and theme variables use style attributes, and a style nonce would
 * disable 'unsafe-inline' for them.
 */
export const securityHeadersPlugin = fp(
  async (app: FastifyInstance, opts: SecurityHeaderOptions) => {
    // 128 random bits per response, from a pool refilled every 256 responses (random-tokens.ts).
    const nextNonce = randomTokens(16)
    app.addHook('onRequest', (_request, reply, done) => {
      ;(reply.raw as WithNonce)[NONCE] = nextNonce()
      done()
    })
    const nonce = (_req: IncomingMessage, res: ServerResponse) => `'nonce-${(res as WithNonce)[NONCE] ?? ''}'`
    await app.register(helmet, {
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: [
            "'self'",
            nonce,
            ...(opts.scriptOrigins ?? []),
            ...(opts.isDev ? ["'unsafe-eval'"] : []),
          ],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'blob:', 'https://a.storyblok.com'],
          // Content videos load (after a click) from these players only.
          frameSrc: ["'self'", 'https://www.youtube-nocookie.com', 'https://player.vimeo.com'],
          fontSrc: ["'self'", 'data:'],
          connectSrc: ["'self'", ...(opts.isDev ? ['ws:', 'wss:'] : [])],
          mediaSrc: ["'self'"],
          objectSrc: ["'none'"],
          baseUri: ["'self'"],
          formAction: ["'self'"],
          frameAncestors: ["'self'"],
          ...(opts.httpsOnly ? { upgradeInsecureRequests: [] } : {}),
        },
      },
      // Strict-Transport-Security is sent on every HTTPS request (below), whatever COOKIE_SECURE says.
      hsts: false,
      crossOriginEmbedderPolicy: false,
      referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    })
    app.addHook('onSend', async (request, reply) => {
      // request.protocol honours X-Forwarded-Proto only behind a trusted proxy (TRUST_PROXY).
      if (request.protocol === 'https') reply.header('strict-transport-security', HSTS)
      // Every answer that did not choose its own caching (static files, images and public lists
      // do) is private: pages and JSON carry the customer, the basket and flash messages.
      if (noStorePath(request.url)) reply.header('cache-control', NO_STORE)
      else if (!reply.hasHeader('cache-control')) reply.header('cache-control', PRIVATE_PAGE)
    })
  },
  { name: 'shop-security-headers' },
)
