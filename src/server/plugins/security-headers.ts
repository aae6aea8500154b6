import helmet from '@fastify/helmet'
import { randomBytes } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { FastifyInstance, FastifyReply } from 'fastify'
import fp from 'fastify-plugin'

const NONCE = Symbol('cspNonce')
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
    app.addHook('onRequest', (_request, reply, done) => {
      ;(reply.raw as WithNonce)[NONCE] = randomBytes(16).toString('base64')
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
      hsts: opts.httpsOnly ? { maxAge: 31536000, includeSubDomains: true } : false,
      crossOriginEmbedderPolicy: false,
      referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    })
  },
  { name: 'shop-security-headers' },
)
