/**
 * The back-office API under /api/admin/v1 (thin: validation and work live in admin.*.ts and the
 * modules' services). Every call, allowed or not, is written to admin_calls.
 */
import type { FastifyInstance, FastifyReply } from 'fastify'
import { z } from 'zod'
import { SearchRequestError } from '../search/search.service.ts'
import { adminCalls } from './admin.tables.ts'
import { ImportError, importSkus, skuRowsFromCsv } from './admin.catalog.ts'
import { openApiDocument } from './admin.openapi.ts'
import { AdminTokens } from './admin.tokens.ts'

export const ADMIN_PREFIX = '/api/admin/v1'

declare module 'fastify' {
  interface FastifyRequest {
    adminToken: { tokenId: number; siteId: number } | null
  }
}

const MESSAGES = {
  missing: 'A back-office token is required (Authorization: Bearer <token>).',
  unknown: 'This token is not valid.',
  revoked: 'This token has been revoked.',
  otherSite: 'This token is for another site.',
}

function invalid(reply: FastifyReply, errors: { row: number; field: string; message: string }[]) {
  return reply.code(422).send({ message: 'The request was not applied: some values are invalid.', errors })
}

function zodErrors(error: z.ZodError) {
  return error.issues.map((i) => ({ row: 0, field: i.path.join('.') || 'body', message: i.message }))
}

export async function adminRoutes(app: FastifyInstance) {
  const tokens = new AdminTokens(app.db)
  app.decorateRequest('adminToken', null)
  app.addContentTypeParser('text/csv', { parseAs: 'string', bodyLimit: 10 * 1024 * 1024 }, (_r, body, done) =>
    done(null, body),
  )

  app.get('/openapi.json', { config: { csrf: false } }, async () => openApiDocument)

  app.register(async (secured) => {
    secured.addHook('onRequest', async (request, reply) => {
      const check = await tokens.check(request.headers.authorization)
      if (!check.ok) return reply.code(401).send({ message: MESSAGES[check.reason] })
      request.adminToken = { tokenId: check.tokenId, siteId: check.siteId }
      if (request.site?.id !== check.siteId) return reply.code(403).send({ message: MESSAGES.otherSite })
    })
    secured.addHook('onResponse', async (request, reply) => {
      await app.db
        .insert(adminCalls)
        .values({
          tokenId: request.adminToken?.tokenId ?? null,
          siteId: request.site?.id ?? null,
          method: request.method,
          path: request.url.slice(0, 500),
          status: reply.statusCode,
          ip: request.ip,
        })
        .catch((err: unknown) => request.log.error({ err }, 'admin call not logged'))
    })

    const route = { config: { csrf: false } }

    secured.put('/catalog/skus', route, async (request, reply) => {
      const siteId = request.adminToken!.siteId
      let rows: unknown[]
      let pre: { row: number; field: string; message: string }[] = []
      if (typeof request.body === 'string') {
        ;({ rows, errors: pre } = skuRowsFromCsv(request.body))
      } else {
        const parsed = z
          .object({ items: z.array(z.unknown()) })
          .strict()
          .safeParse(request.body)
        if (!parsed.success) return invalid(reply, zodErrors(parsed.error))
        rows = parsed.data.items
      }
      try {
        return await importSkus(app.db, app.catalog, siteId, rows, pre)
      } catch (err) {
        if (err instanceof ImportError) return invalid(reply, err.errors)
        throw err
      }
    })

    const redirect = z
      .object({ query: z.string().trim().min(1).max(200), url: z.string().trim().min(1).max(2000) })
      .strict()
    secured.put('/search/redirects', route, async (request, reply) => {
      const parsed = redirect.safeParse(request.body)
      if (!parsed.success) return invalid(reply, zodErrors(parsed.error))
      try {
        await app.searchService.setRedirect(request.adminToken!.siteId, parsed.data.query, parsed.data.url)
      } catch (err) {
        if (err instanceof SearchRequestError) {
          const [field, ...rest] = err.message.split(': ')
          return invalid(reply, [{ row: 0, field: field!, message: rest.join(': ') }])
        }
        throw err
      }
      return { ok: true }
    })
    secured.delete('/search/redirects', route, async (request, reply) => {
      const parsed = z
        .object({ query: z.string().trim().min(1).max(200) })
        .strict()
        .safeParse(request.body)
      if (!parsed.success) return invalid(reply, zodErrors(parsed.error))
      await app.searchService.removeRedirect(request.adminToken!.siteId, parsed.data.query)
      return { ok: true }
    })

    secured.post('/search/reindex', route, async (request) => {
      // A full catalogue change for the site: every instance rebuilds its index (ADR 0081).
      app.catalog.invalidate({ siteId: request.adminToken!.siteId })
      await app.searchService.idle()
      return { ok: true }
    })
  })
}
