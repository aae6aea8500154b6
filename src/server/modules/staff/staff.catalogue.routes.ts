/**
 * The back office's catalogue pages (issue 34): find SKUs and product groups on both sites, a
 * SKU's page (price breaks, 'was' price, publication, its group's publication) and the CSV
 * import. Thin: parse, call staff.catalogue.ts (which calls the integration API's services),
 * render. Every route declares its permission; writes need catalogue.edit.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { z } from 'zod'
import type { Db } from '../../db/client.ts'
import {
  changeSku,
  importCatalogueCsv,
  parseAmount,
  priceListFromForm,
  searchCatalogue,
  setGroupPublished,
  siteList,
  skuDetail,
  type EditResult,
} from './staff.catalogue.ts'
import { ADMIN_PATH, actorOf, guard, renderAdmin } from './staff.http.ts'

const CATALOGUE = `${ADMIN_PATH}/catalogue`
const IMPORT_LIMIT = 10 * 1024 * 1024

const listQuery = z.object({
  q: z.string().max(200).optional().catch(undefined),
  site: z.coerce.number().int().positive().max(2_000_000_000).optional().catch(undefined),
  after: z.coerce.number().int().nonnegative().max(2_000_000_000).optional().catch(undefined),
})

const idParam = (raw: string) => (/^\d{1,9}$/.test(raw) ? Number(raw) : null)

const cell = z.string().max(40)
const skuIntent = z.discriminatedUnion('intent', [
  z.object({
    intent: z.literal('prices'),
    version: z.string().max(64),
    priceList: z.array(z.object({ lowerQty: cell, higherQty: cell, price: cell })).max(20),
    wasPrice: cell,
  }),
  z.object({ intent: z.literal('publish'), version: z.string().max(64), published: z.boolean() }),
  z.object({ intent: z.literal('group'), version: z.string().max(64), published: z.boolean() }),
])

const importBody = z.object({
  site: z.coerce.number().int().positive().max(2_000_000_000),
  csv: z.string().min(1, 'Choose a CSV file to import.').max(IMPORT_LIMIT, 'The file is larger than 10 MB.'),
})

const STALE =
  'Someone else changed this since you opened the page. The page now shows their change; nothing of yours was saved.'

export async function staffCatalogueRoutes(app: FastifyInstance, opts: { db: Db }) {
  const { db } = opts

  app.get(CATALOGUE, guard('catalogue.view'), async (request, reply) => {
    const q = listQuery.parse(request.query ?? {})
    const [page, sitesList] = await Promise.all([searchCatalogue(db, q), siteList(db)])
    return renderAdmin(request, reply, 'admin/Catalogue', {
      filters: { q: q.q ?? '', site: q.site ?? null },
      sites: sitesList,
      skus: page.rows,
      next: page.next,
    })
  })

  const skuPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    id: number,
    extra: { errors?: Record<string, string>; notice?: string; submitted?: unknown } = {},
    status = 200,
  ) => {
    const sku = await skuDetail(db, id)
    if (!sku)
      return renderAdmin(
        request,
        reply,
        'admin/Forbidden',
        { message: 'There is no SKU with this number.', title: 'SKU not found' },
        404,
      )
    return renderAdmin(
      request,
      reply,
      'admin/CatalogueSku',
      { sku, errors: extra.errors ?? {}, notice: extra.notice ?? null, submitted: extra.submitted ?? null },
      status,
    )
  }

  app.get<{ Params: { id: string } }>(
    `${CATALOGUE}/skus/:id`,
    guard('catalogue.view'),
    async (request, reply) => {
      const id = idParam(request.params.id)
      return id === null ? skuPage(request, reply, 0) : skuPage(request, reply, id)
    },
  )

  app.post<{ Params: { id: string } }>(
    `${CATALOGUE}/skus/:id`,
    guard('catalogue.edit'),
    async (request, reply) => {
      const id = idParam(request.params.id) ?? 0
      const parsed = skuIntent.safeParse(request.body ?? {})
      if (!parsed.success)
        return skuPage(request, reply, id, { errors: { form: 'The request could not be understood.' } }, 422)
      const body = parsed.data
      const actor = actorOf(request)
      let result: EditResult
      let notice: string
      if (body.intent === 'prices') {
        const { list, errors } = priceListFromForm(body.priceList)
        const was = body.wasPrice.trim() === '' ? null : parseAmount(body.wasPrice)
        if (was === null && body.wasPrice.trim() !== '')
          errors.wasPrice = 'Enter an amount like 12.50, or leave it empty.'
        if (Object.keys(errors).length) return skuPage(request, reply, id, { errors, submitted: body }, 422)
        result = await changeSku(db, app.catalog, actor, id, {
          version: body.version,
          priceList: list,
          wasPrice: was,
        })
        notice = 'The prices were saved. The shop shows them now.'
      } else if (body.intent === 'publish') {
        result = await changeSku(db, app.catalog, actor, id, {
          version: body.version,
          published: body.published,
        })
        notice = body.published
          ? 'The SKU is published.'
          : 'The SKU is unpublished: the shop no longer sells it.'
      } else {
        const sku = await skuDetail(db, id)
        result = sku
          ? await setGroupPublished(db, app.catalog, actor, sku.group.id, body.published, body.version)
          : { ok: false, reason: 'missing' }
        notice = body.published ? 'The product group is published.' : 'The product group is unpublished.'
      }
      if (result.ok) return skuPage(request, reply, id, { notice })
      if (result.reason === 'missing') return skuPage(request, reply, id)
      if (result.reason === 'stale') return skuPage(request, reply, id, { errors: { form: STALE } }, 409)
      return skuPage(request, reply, id, { errors: result.errors, submitted: body }, 422)
    },
  )

  const importPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    extra: { errors?: Record<string, string>; result?: unknown; site?: number } = {},
    status = 200,
  ) =>
    renderAdmin(
      request,
      reply,
      'admin/CatalogueImport',
      {
        sites: await siteList(db),
        site: extra.site ?? null,
        errors: extra.errors ?? {},
        result: extra.result ?? null,
      },
      status,
    )

  app.get(`${CATALOGUE}/import`, guard('catalogue.edit'), async (request, reply) =>
    importPage(request, reply),
  )

  app.post(
    `${CATALOGUE}/import`,
    guard('catalogue.edit', { bodyLimit: IMPORT_LIMIT * 2 }),
    async (request, reply) => {
      const parsed = importBody.safeParse(request.body ?? {})
      if (!parsed.success) {
        const errors: Record<string, string> = {}
        for (const i of parsed.error.issues)
          errors[String(i.path[0] ?? 'form')] ??= i.path[0] === 'site' ? 'Choose a site.' : i.message
        return importPage(request, reply, { errors }, 422)
      }
      const { site, csv } = parsed.data
      if (!(await siteList(db)).some((s) => s.id === site))
        return importPage(request, reply, { errors: { site: 'Choose a site.' } }, 422)
      const outcome = await importCatalogueCsv(db, app.catalog, actorOf(request), site, csv)
      return importPage(request, reply, { result: outcome, site }, outcome.ok ? 200 : 422)
    },
  )
}
