/**
 * The back office's promotions pages (issue 34): the list (both sites) with a form to create
 * one, and a promotion's page (change it, retire it, the orders that used it). Thin: parse, call
 * staff.promotions.ts, render. Reading needs promotions.view; every write promotions.edit.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { z } from 'zod'
import type { Db } from '../../db/client.ts'
import { PROMOTION_KINDS } from '../cart/cart.tables.ts'
import {
  changePromotion,
  createPromotion,
  listPromotions,
  promotionDetail,
  promotionFromForm,
  USES_SHOWN,
} from './staff.promotions.ts'
import { siteList } from './staff.catalogue.ts'
import { ADMIN_PATH, actorOf, guard, renderAdmin } from './staff.http.ts'

const PROMOTIONS = `${ADMIN_PATH}/promotions`

const text = (max: number) => z.string().max(max)
const form = {
  description: text(500),
  kind: text(40),
  value: text(40),
  giftSku: text(100),
  minimumSpend: text(40),
  startsAt: text(40),
  endsAt: text(40),
  usageLimit: text(40),
  active: z.boolean(),
}
const createBody = z.object({
  site: z.coerce.number().int().positive().max(2_000_000_000),
  code: text(100),
  ...form,
})
const changeBody = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('change'), version: text(64), ...form }),
  z.object({ intent: z.literal('retire'), version: text(64) }),
])
const listQuery = z.object({
  site: z.coerce.number().int().positive().max(2_000_000_000).optional().catch(undefined),
})

const STALE =
  'Someone else changed this promotion since you opened the page. The page now shows their change; nothing of yours was saved.'
const UNREADABLE = { form: 'The request could not be understood.' }

export async function staffPromotionRoutes(app: FastifyInstance, opts: { db: Db }) {
  const { db } = opts
  const kinds = [...PROMOTION_KINDS]

  const listPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    extra: { errors?: Record<string, string>; submitted?: unknown } = {},
    status = 200,
  ) => {
    const q = listQuery.parse(request.query ?? {})
    const [rows, sitesList] = await Promise.all([listPromotions(db, q.site), siteList(db)])
    return renderAdmin(
      request,
      reply,
      'admin/Promotions',
      {
        site: q.site ?? null,
        sites: sitesList,
        kinds,
        promotions: rows,
        errors: extra.errors ?? {},
        submitted: extra.submitted ?? null,
      },
      status,
    )
  }

  app.get(PROMOTIONS, guard('promotions.view'), async (request, reply) => listPage(request, reply))

  app.post(PROMOTIONS, guard('promotions.edit'), async (request, reply) => {
    const parsed = createBody.safeParse(request.body ?? {})
    if (!parsed.success) return listPage(request, reply, { errors: UNREADABLE }, 422)
    const { site, ...fields } = parsed.data
    if (!(await siteList(db)).some((s) => s.id === site))
      return listPage(request, reply, { errors: { site: 'Choose a site.' }, submitted: parsed.data }, 422)
    const { row, errors } = promotionFromForm(fields)
    if (Object.keys(errors).length) return listPage(request, reply, { errors, submitted: parsed.data }, 422)
    const result = await createPromotion(db, actorOf(request), site, row)
    if (!result.ok)
      return listPage(
        request,
        reply,
        { errors: result.reason === 'invalid' ? result.errors : UNREADABLE, submitted: parsed.data },
        422,
      )
    return reply.redirect(`${PROMOTIONS}/${result.id}?created=1`, 303)
  })

  const promotionPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    id: number,
    extra: { errors?: Record<string, string>; notice?: string; submitted?: unknown } = {},
    status = 200,
  ) => {
    const promotion = await promotionDetail(db, id)
    if (!promotion)
      return renderAdmin(
        request,
        reply,
        'admin/Forbidden',
        { message: 'There is no promotion with this number.', title: 'Promotion not found' },
        404,
      )
    return renderAdmin(
      request,
      reply,
      'admin/PromotionsEdit',
      {
        promotion,
        kinds,
        usesShown: USES_SHOWN,
        errors: extra.errors ?? {},
        notice: extra.notice ?? null,
        submitted: extra.submitted ?? null,
      },
      status,
    )
  }

  const idOf = (raw: string) => (/^\d{1,9}$/.test(raw) ? Number(raw) : 0)

  app.get<{ Params: { id: string }; Querystring: { created?: string } }>(
    `${PROMOTIONS}/:id`,
    guard('promotions.view'),
    async (request, reply) =>
      promotionPage(request, reply, idOf(request.params.id), {
        ...(request.query.created === '1' ? { notice: 'The promotion was created.' } : {}),
      }),
  )

  app.post<{ Params: { id: string } }>(
    `${PROMOTIONS}/:id`,
    guard('promotions.edit'),
    async (request, reply) => {
      const id = idOf(request.params.id)
      const parsed = changeBody.safeParse(request.body ?? {})
      if (!parsed.success) return promotionPage(request, reply, id, { errors: UNREADABLE }, 422)
      const body = parsed.data
      const actor = actorOf(request)
      let result
      if (body.intent === 'retire')
        result = await changePromotion(db, actor, id, body.version, { retire: true })
      else {
        const { row, errors } = promotionFromForm(body)
        if (Object.keys(errors).length)
          return promotionPage(request, reply, id, { errors, submitted: body }, 422)
        result = await changePromotion(db, actor, id, body.version, { row })
      }
      if (result.ok)
        return promotionPage(request, reply, id, {
          notice:
            body.intent === 'retire'
              ? 'The promotion was retired: baskets can no longer apply it.'
              : 'The promotion was saved.',
        })
      if (result.reason === 'missing') return promotionPage(request, reply, id)
      if (result.reason === 'stale')
        return promotionPage(request, reply, id, { errors: { form: STALE } }, 409)
      return promotionPage(request, reply, id, { errors: result.errors, submitted: body }, 422)
    },
  )
}
