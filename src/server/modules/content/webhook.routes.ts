/**
 * `POST /content/webhook`: Storyblok's story webhook (published, unpublished, deleted, moved).
 * The `webhook-signature` header must be the HMAC-SHA1 (hex) of the raw body with
 * STORYBLOK_WEBHOOK_SECRET; then the content cache is dropped and, with Storyblok, each site's
 * cache version is read again. Without a configured secret the endpoint does not exist.
 */
import { createHmac, timingSafeEqual } from 'node:crypto'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { allSiteIds } from '../sites/sites.queries.ts'

export function webhookSignature(secret: string, body: string): string {
  return createHmac('sha1', secret).update(body).digest('hex')
}

function validSignature(secret: string, body: string, header: unknown): boolean {
  if (typeof header !== 'string' || !/^[0-9a-f]{40}$/i.test(header)) return false
  return timingSafeEqual(Buffer.from(webhookSignature(secret, body), 'hex'), Buffer.from(header, 'hex'))
}

export async function webhookRoutes(app: FastifyInstance, options: { secret: string | null }) {
  const secret = options.secret
  if (!secret) return
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    ;(request as FastifyRequest & { rawBody?: string }).rawBody = body as string
    try {
      done(null, body === '' ? {} : JSON.parse(body as string))
    } catch {
      const err = new Error('The request body is not valid JSON.') as Error & { statusCode: number }
      err.statusCode = 400
      done(err, undefined)
    }
  })
  app.post(
    '/content/webhook',
    { config: { csrf: false, rateLimit: { max: 60, timeWindow: 60_000 } } },
    async (request, reply) => {
      const raw = (request as FastifyRequest & { rawBody?: string }).rawBody ?? ''
      if (!validSignature(secret, raw, request.headers['webhook-signature'])) {
        return reply.code(401).send({ message: 'Invalid signature.' })
      }
      const body = (request.body ?? {}) as { action?: unknown; full_slug?: unknown }
      await app.content.refreshVersions(await allSiteIds(app.db), (err) =>
        request.log.error({ err }, 'cache version refresh failed'),
      )
      app.content.invalidate()
      request.log.info({ action: body.action, slug: body.full_slug }, 'content webhook: cache dropped')
      return { ok: true }
    },
  )
}
