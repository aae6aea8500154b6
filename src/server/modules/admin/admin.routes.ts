/**
 * The back-office API under /api/admin/v1 (thin: validation and work live in admin.*.ts and the
 * modules' services). Every call, allowed or not, is written to admin_calls. Routes validate with
 * zod (`fastify-type-provider-zod`, on this scope only) and `@fastify/swagger` writes the OpenAPI
 * document from the same schemas (ADR 0220).
 */
import swagger from '@fastify/swagger'
import type { FastifyInstance, FastifyPluginAsync, FastifyReply } from 'fastify'
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { LocalContentStore } from '../content/content.store.ts'
import { SearchRequestError } from '../search/search.service.ts'
import { importSkus, skuRowsFromCsv } from './admin.catalog.ts'
import { adminCustomerRoutes } from './admin.customers.routes.ts'
import { adminErrorHandler, invalid, swaggerOptions } from './admin.document.ts'
import { adminIdempotencyPlugin } from './admin.idempotency.ts'
import { adminOrderRoutes } from './admin.orders.routes.ts'
import {
  importStories,
  publishStories,
  retireDeliveryRate,
  retirePromotion,
  upsertCategories,
  upsertDeliveryRates,
  upsertGroups,
  upsertPromotions,
} from './admin.operations.ts'
import {
  bodies,
  idempotencyHeader,
  messageAnswer,
  okAnswer,
  securedAnswers,
  upsertAnswer,
  writeAnswers,
} from './admin.schemas.ts'
import { adminCalls } from './admin.tables.ts'
import { AdminTokens } from './admin.tokens.ts'
import { adminWebhookRoutes } from './admin.webhooks.routes.ts'

export const ADMIN_PREFIX = '/api/admin/v1'

declare module 'fastify' {
  interface FastifyRequest {
    adminToken: { tokenId: number; siteId: number; name: string } | null
  }
}

const MESSAGES = {
  missing: 'A back-office token is required (Authorization: Bearer <token>).',
  unknown: 'This token is not valid.',
  revoked: 'This token has been revoked.',
  otherSite: 'This token is for another site.',
}

const security = [{ bearer: [] }]
const route = { config: { csrf: false } }
/** A catalogue write: the Idempotency-Key is optional here (ADR 0220). */
const write = <S extends object>(summary: string, extra: S) => ({
  summary,
  security,
  headers: idempotencyHeader(false).loose(),
  ...extra,
})

export interface AdminRoutesOptions {
  /**
   * Operations another module serves under this API's token, idempotency and document (the back
   * office's customer standing and payments to check, ADR 0282): registered in the secured scope.
   * app.ts passes them, so this module does not import the modules that build on it.
   */
  secured?: FastifyPluginAsync[]
}

export async function adminRoutes(app: FastifyInstance, opts: AdminRoutesOptions = {}) {
  const tokens = new AdminTokens(app.db)
  app.decorateRequest('adminToken', null)
  app.addContentTypeParser('text/csv', { parseAs: 'string', bodyLimit: 10 * 1024 * 1024 }, (_r, body, done) =>
    done(null, body),
  )
  await app.register(swagger, swaggerOptions)

  app.get('/openapi.json', { config: { csrf: false }, schema: { hide: true } }, async () => app.swagger())

  await app.register(async (scope) => {
    scope.setValidatorCompiler(validatorCompiler)
    // A success is checked against its schema (our answer is the contract); a refusal is sent as
    // written, so that an answer the error table shapes differently is never turned into a 500.
    scope.setSerializerCompiler((route) =>
      String(route.httpStatus).startsWith('2')
        ? serializerCompiler(route as Parameters<typeof serializerCompiler>[0])
        : (data) => JSON.stringify(data),
    )
    scope.setErrorHandler(adminErrorHandler)
    const secured = scope.withTypeProvider<ZodTypeProvider>()

    secured.addHook('onRequest', async (request, reply) => {
      const check = await tokens.check(request.headers.authorization)
      if (!check.ok) return reply.code(401).send({ message: MESSAGES[check.reason] })
      request.adminToken = { tokenId: check.tokenId, siteId: check.siteId, name: check.name }
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
    await secured.register(adminIdempotencyPlugin)

    secured.register(adminWebhookRoutes) // webhook endpoints (ADR 0230)

    secured.put(
      '/catalog/skus',
      {
        ...route,
        schema: write('Create or update SKUs, matched by SKU code (idempotent), one transaction per batch', {
          body: {
            content: {
              'application/json': { schema: bodies.skus },
              'text/csv': { schema: bodies.skusCsv },
            },
          },
          response: { 200: upsertAnswer, ...writeAnswers },
        }),
      },
      async (request, reply) => {
        const body = request.body as z.infer<typeof bodies.skus> | string | undefined
        if (body === undefined || body === null)
          return invalid(reply, [
            { row: 0, field: 'body', message: 'a JSON batch or a CSV file is required' },
          ])
        const { rows, errors } =
          typeof body === 'string' ? skuRowsFromCsv(body) : { rows: body.items, errors: [] }
        return importSkus(app.db, app.catalog, request.adminToken!.siteId, rows, errors)
      },
    )

    secured.put(
      '/search/redirects',
      {
        ...route,
        schema: write('Add or replace a search redirect rule', {
          body: bodies.redirect,
          response: { 200: okAnswer('Saved'), ...writeAnswers },
        }),
      },
      async (request, reply) => {
        try {
          await app.searchService.setRedirect(
            request.adminToken!.siteId,
            request.body.query,
            request.body.url,
          )
        } catch (err) {
          if (err instanceof SearchRequestError) {
            const [field, ...rest] = err.message.split(': ')
            return invalid(reply, [{ row: 0, field: field!, message: rest.join(': ') }])
          }
          throw err
        }
        return { ok: true as const }
      },
    )
    secured.delete(
      '/search/redirects',
      {
        ...route,
        schema: write('Retire a search redirect rule', {
          body: bodies.redirectKey,
          response: { 200: okAnswer('Removed (or was not there)'), ...writeAnswers },
        }),
      },
      async (request) => {
        await app.searchService.removeRedirect(request.adminToken!.siteId, request.body.query)
        return { ok: true as const }
      },
    )

    secured.put(
      '/catalog/categories',
      {
        ...route,
        schema: write(
          'Create or update categories, matched by path (idempotent); a parent may be in the same batch',
          { body: bodies.categories, response: { 200: upsertAnswer, ...writeAnswers } },
        ),
      },
      async (request) => {
        const siteId = request.adminToken!.siteId
        const r = await upsertCategories(app.db, siteId, request.body.items)
        app.catalog.invalidate({ siteId, categoryIds: r.categoryIds })
        return r
      },
    )
    secured.put(
      '/catalog/groups',
      {
        ...route,
        schema: write(
          'Create or update product groups, matched by path; a new group is listed in its primary category',
          { body: bodies.groups, response: { 200: upsertAnswer, ...writeAnswers } },
        ),
      },
      async (request) => {
        const siteId = request.adminToken!.siteId
        const r = await upsertGroups(app.db, siteId, request.body.items)
        app.catalog.invalidate({ siteId, groupIds: r.groupIds })
        return r
      },
    )
    secured.put(
      '/promotions',
      {
        ...route,
        schema: write(
          'Create or change promotions, matched by code (stored upper case); retire with DELETE or active: false',
          { body: bodies.promotions, response: { 200: upsertAnswer, ...writeAnswers } },
        ),
      },
      async (request) => upsertPromotions(app.db, request.adminToken!.siteId, request.body.items),
    )
    secured.delete(
      '/promotions/:code',
      {
        ...route,
        schema: write(
          'Retire a promotion (it stays on the orders that used it; baskets can no longer apply it)',
          {
            params: z.object({
              code: z
                .string()
                .max(40)
                .meta({ examples: ['SPRING10'] }),
            }),
            response: {
              200: okAnswer('Retired'),
              404: messageAnswer('No such object on this site'),
              ...writeAnswers,
            },
          },
        ),
      },
      async (request, reply) => {
        if (!(await retirePromotion(app.db, request.adminToken!.siteId, request.params.code)))
          return reply.code(404).send({ message: 'No promotion has this code.' })
        return { ok: true as const }
      },
    )
    secured.put(
      '/delivery-rates',
      {
        ...route,
        schema: write('Create or change delivery rates, matched by zone and despatch type', {
          body: bodies.deliveryRates,
          response: { 200: upsertAnswer, ...writeAnswers },
        }),
      },
      async (request) => {
        const r = await upsertDeliveryRates(app.db, request.adminToken!.siteId, request.body.items)
        app.carts.invalidateRates()
        return r
      },
    )
    secured.delete(
      '/delivery-rates',
      {
        ...route,
        schema: write('Remove a delivery rate', {
          body: bodies.deliveryRateKey,
          response: {
            200: okAnswer('Removed'),
            404: messageAnswer('No such object on this site'),
            ...writeAnswers,
          },
        }),
      },
      async (request, reply) => {
        const { zone, despatchType } = request.body
        if (!(await retireDeliveryRate(app.db, request.adminToken!.siteId, zone, despatchType)))
          return reply.code(404).send({ message: 'The site has no such delivery rate.' })
        app.carts.invalidateRates()
        return { ok: true as const }
      },
    )

    // Content: only the embedded store is written here; with Storyblok, content is edited there.
    const embedded = (reply: FastifyReply) => {
      if (app.content.store instanceof LocalContentStore) return true
      reply.code(409).send({ message: 'Content is managed in Storyblok; publish it there.' })
      return false
    }
    const storyblokConflict = messageAnswer(
      'Content is managed in Storyblok (CONTENT_PROVIDER=storyblok), or the Idempotency-Key is in use',
    )
    secured.put(
      '/content/stories',
      {
        ...route,
        schema: write(
          'Import content stories by full slug: saved as drafts, or published at once with publish: true',
          {
            body: bodies.stories,
            response: {
              200: z
                .object({ stories: z.number().int(), published: z.number().int(), cv: z.number().int() })
                .describe('Imported; the cache version moved, every instance drops its content cache'),
              ...writeAnswers,
              409: storyblokConflict,
            },
          },
        ),
      },
      async (request, reply) => {
        if (!embedded(reply)) return reply
        const r = await importStories(app.db, request.adminToken!.siteId, request.body.items)
        app.content.invalidate()
        return r
      },
    )
    secured.post(
      '/content/publish',
      {
        ...route,
        schema: write('Publish the drafts of the given stories (all or none)', {
          body: bodies.publish,
          response: {
            200: z
              .object({ published: z.number().int(), cv: z.number().int() })
              .describe('Published; every instance shows it on its next page'),
            ...writeAnswers,
            409: storyblokConflict,
          },
        }),
      },
      async (request, reply) => {
        if (!embedded(reply)) return reply
        const result = await publishStories(app.db, request.adminToken!.siteId, request.body.slugs)
        // Every instance drops its content cache (the `content` signal, ADR 0081).
        app.content.invalidate()
        return result
      },
    )

    secured.post(
      '/search/reindex',
      {
        ...route,
        schema: write("Rebuild the site's search index on every instance", {
          response: { 200: okAnswer('Rebuilt'), ...securedAnswers },
        }),
      },
      async (request) => {
        // A full catalogue change for the site: every instance rebuilds its index (ADR 0081).
        app.catalog.invalidate({ siteId: request.adminToken!.siteId })
        await app.searchService.idle()
        return { ok: true as const }
      },
    )

    await secured.register(adminCustomerRoutes)
    for (const routes of opts.secured ?? []) await secured.register(routes)
    await secured.register(adminOrderRoutes)
  })
}
