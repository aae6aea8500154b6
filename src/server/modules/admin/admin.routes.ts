/**
 * The back-office API under /api/admin/v1 (thin: validation and work live in admin.*.ts and the
 * modules' services). Every call, allowed or not, is written to admin_calls.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { z } from 'zod'
import { SearchRequestError } from '../search/search.service.ts'
import { adminCalls } from './admin.tables.ts'
import { ImportError, importSkus, skuRowsFromCsv } from './admin.catalog.ts'
import {
  deliveryRateKey,
  importStories,
  publishRequest,
  publishStories,
  redirectKey,
  redirectRule,
  retireDeliveryRate,
  retirePromotion,
  upsertCategories,
  upsertDeliveryRates,
  upsertGroups,
  upsertPromotions,
} from './admin.operations.ts'
import { LocalContentStore } from '../content/content.store.ts'
import { openApiDocument } from './admin.openapi.ts'
import { AdminTokens } from './admin.tokens.ts'
import { adminWebhookRoutes } from './admin.webhooks.routes.ts'

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
    secured.register(adminWebhookRoutes) // webhook endpoints (ADR 0230)

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

    secured.put('/search/redirects', route, async (request, reply) => {
      const parsed = redirectRule.safeParse(request.body)
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
      const parsed = redirectKey.safeParse(request.body)
      if (!parsed.success) return invalid(reply, zodErrors(parsed.error))
      await app.searchService.removeRedirect(request.adminToken!.siteId, parsed.data.query)
      return { ok: true }
    })

    /** `{items: [...]}` → the batch's result, or 422 with every bad row (nothing written). */
    const batch =
      <T>(run: (siteId: number, items: unknown[]) => Promise<T>, after?: (r: T, siteId: number) => void) =>
      async (request: FastifyRequest, reply: FastifyReply) => {
        const parsed = z
          .object({ items: z.array(z.unknown()) })
          .strict()
          .safeParse(request.body)
        if (!parsed.success) return invalid(reply, zodErrors(parsed.error))
        const siteId = request.adminToken!.siteId
        try {
          const result = await run(siteId, parsed.data.items)
          after?.(result, siteId)
          return result
        } catch (err) {
          if (err instanceof ImportError) return invalid(reply, err.errors)
          throw err
        }
      }

    secured.put(
      '/catalog/categories',
      route,
      batch(
        (siteId, items) => upsertCategories(app.db, siteId, items),
        (r, siteId) => app.catalog.invalidate({ siteId, categoryIds: r.categoryIds }),
      ),
    )
    secured.put(
      '/catalog/groups',
      route,
      batch(
        (siteId, items) => upsertGroups(app.db, siteId, items),
        (r, siteId) => app.catalog.invalidate({ siteId, groupIds: r.groupIds }),
      ),
    )
    secured.put(
      '/promotions',
      route,
      batch((siteId, items) => upsertPromotions(app.db, siteId, items)),
    )
    secured.delete<{ Params: { code: string } }>('/promotions/:code', route, async (request, reply) => {
      if (!(await retirePromotion(app.db, request.adminToken!.siteId, request.params.code)))
        return reply.code(404).send({ message: 'No promotion has this code.' })
      return { ok: true }
    })
    secured.put(
      '/delivery-rates',
      route,
      batch(
        (siteId, items) => upsertDeliveryRates(app.db, siteId, items),
        () => app.carts.invalidateRates(),
      ),
    )
    secured.delete('/delivery-rates', route, async (request, reply) => {
      const parsed = deliveryRateKey.safeParse(request.body)
      if (!parsed.success) return invalid(reply, zodErrors(parsed.error))
      const { zone, despatchType } = parsed.data
      if (!(await retireDeliveryRate(app.db, request.adminToken!.siteId, zone, despatchType)))
        return reply.code(404).send({ message: 'The site has no such delivery rate.' })
      app.carts.invalidateRates()
      return { ok: true }
    })

    // Content: only the embedded store is written here; with Storyblok, content is edited there.
    const embedded = (reply: FastifyReply) => {
      if (app.content.store instanceof LocalContentStore) return true
      reply.code(409).send({ message: 'Content is managed in Storyblok; publish it there.' })
      return false
    }
    secured.put('/content/stories', route, async (request, reply) => {
      if (!embedded(reply)) return reply
      return batch(
        (siteId, items) => importStories(app.db, siteId, items),
        () => app.content.invalidate(),
      )(request, reply)
    })
    secured.post('/content/publish', route, async (request, reply) => {
      if (!embedded(reply)) return reply
      const parsed = publishRequest.safeParse(request.body)
      if (!parsed.success) return invalid(reply, zodErrors(parsed.error))
      try {
        const result = await publishStories(app.db, request.adminToken!.siteId, parsed.data.slugs)
        // Every instance drops its content cache (the `content` signal, ADR 0081).
        app.content.invalidate()
        return result
      } catch (err) {
        if (err instanceof ImportError) return invalid(reply, err.errors)
        throw err
      }
    })

    secured.post('/search/reindex', route, async (request) => {
      // A full catalogue change for the site: every instance rebuilds its index (ADR 0081).
      app.catalog.invalidate({ siteId: request.adminToken!.siteId })
      await app.searchService.idle()
      return { ok: true }
    })
  })
}
