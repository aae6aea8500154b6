/**
 * The back office's delivery rates page (issue 34): every site's rates, a change to one, a new
 * one. Thin: parse, call staff.delivery.ts, render. Reading needs delivery.view; writes
 * delivery.edit.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { z } from 'zod'
import type { Db } from '../../db/client.ts'
import { listDeliveryRates, rateFromForm, saveDeliveryRate } from './staff.delivery.ts'
import { siteList } from './staff.catalogue.ts'
import { ADMIN_PATH, actorOf, guard, renderAdmin } from './staff.http.ts'

const DELIVERY = `${ADMIN_PATH}/delivery`

const text = (max: number) => z.string().max(max)
const rateBody = z.object({
  site: z.coerce.number().int().positive().max(2_000_000_000),
  /** The fingerprint of the rate the page showed; empty for a new rate. */
  version: text(64),
  zone: text(100),
  despatchType: text(100),
  name: text(200),
  price: text(40),
  freeOver: text(40),
  position: text(40),
})

const STALE =
  'Someone else changed this rate since you opened the page. The page now shows their change; nothing of yours was saved.'

export async function staffDeliveryRoutes(app: FastifyInstance, opts: { db: Db }) {
  const { db } = opts

  const page = async (
    request: FastifyRequest,
    reply: FastifyReply,
    extra: { errors?: Record<string, string>; notice?: string; submitted?: unknown } = {},
    status = 200,
  ) =>
    renderAdmin(
      request,
      reply,
      'admin/Delivery',
      {
        sites: await siteList(db),
        rates: await listDeliveryRates(db),
        errors: extra.errors ?? {},
        notice: extra.notice ?? null,
        submitted: extra.submitted ?? null,
      },
      status,
    )

  app.get(DELIVERY, guard('delivery.view'), async (request, reply) => page(request, reply))

  app.post(DELIVERY, guard('delivery.edit'), async (request, reply) => {
    const parsed = rateBody.safeParse(request.body ?? {})
    if (!parsed.success)
      return page(request, reply, { errors: { form: 'The request could not be understood.' } }, 422)
    const { site, version, ...fields } = parsed.data
    if (!(await siteList(db)).some((s) => s.id === site))
      return page(request, reply, { errors: { site: 'Choose a site.' }, submitted: parsed.data }, 422)
    const { row, errors } = rateFromForm(fields)
    if (Object.keys(errors).length) return page(request, reply, { errors, submitted: parsed.data }, 422)
    const result = await saveDeliveryRate(
      db,
      () => app.carts.invalidateRates(),
      actorOf(request),
      site,
      row,
      version === '' ? null : version,
    )
    if (result.ok)
      return page(request, reply, {
        notice:
          version === ''
            ? 'The delivery rate was added.'
            : 'The delivery rate was saved. Baskets use it now.',
      })
    if (result.reason === 'invalid')
      return page(request, reply, { errors: result.errors, submitted: parsed.data }, 422)
    return page(request, reply, { errors: { form: STALE } }, 409)
  })
}
