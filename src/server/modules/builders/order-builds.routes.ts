/**
 * GET /order-preview/{token}.png: the small preview of an ordered sign or workwear line, as shown
 * in order e-mails and the account's orders. The token (128 random bits) is the permission: e-mail
 * clients fetch it without the customer's session. Unknown tokens, or another site's, are 404.
 */
import type { FastifyInstance } from 'fastify'
import { NOT_FOUND } from './builders.http.ts'
import { ORDER_PREVIEW_PATH, orderPreviewPng } from './order-builds.ts'

export async function orderPreviewRoutes(app: FastifyInstance) {
  app.get<{ Params: { file: string } }>(
    '/order-preview/:file',
    { config: { rateLimit: { max: 120, timeWindow: 60_000 } } },
    async (request, reply) => {
      const token = ORDER_PREVIEW_PATH.exec(request.params.file)?.[1]
      const png = token && request.site ? await orderPreviewPng(app.db, request.site.id, token) : null
      if (!png) return reply.code(404).send(NOT_FOUND)
      return reply
        .headers({
          'content-type': 'image/png',
          'x-content-type-options': 'nosniff',
          'content-security-policy': "default-src 'none'; sandbox",
          'referrer-policy': 'no-referrer',
          // The image never changes for its token; e-mail image proxies may keep it.
          'cache-control': 'public, max-age=604800, immutable',
        })
        .send(png)
    },
  )
}
