/**
 * The back office's payments that need attention (issue 34; attention.ts): money taken with no
 * order, payments in an unknown state, refunds the provider has not confirmed, and the orders of
 * the order list's 'needs attention' filter, each with its action. Thin: parse, call, render.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { attentionActionSchema, attentionQuerySchema } from '../../../shared/staff-customers.ts'
import type { Db } from '../../db/client.ts'
import { attentionServiceOf, parseAttentionCursor } from './attention.ts'
import { listOrders } from './order-search.ts'
import { issues } from './staff.auth.routes.ts'
import { ADMIN_PATH, actorOf, guard, renderAdmin } from './staff.http.ts'

export async function staffAttentionRoutes(app: FastifyInstance, opts: { db: Db }) {
  const attention = attentionServiceOf(app)

  const page = async (
    request: FastifyRequest,
    reply: FastifyReply,
    extra: { errors?: Record<string, string>; notice?: string } = {},
    status = 200,
  ) => {
    const parsed = attentionQuerySchema.safeParse(request.query ?? {})
    const q = parsed.success ? parsed.data : {}
    const [paid, unknown, refunds, waiting] = await Promise.all([
      attention.attempts('paid', parseAttentionCursor(q.paid)),
      attention.attempts('unknown', parseAttentionCursor(q.unknown)),
      attention.refunds(parseAttentionCursor(q.refunds)),
      listOrders(opts.db, { attention: true, kind: 'auto', method: undefined, q: undefined }),
    ])
    return renderAdmin(
      request,
      reply,
      'admin/Attention',
      {
        paid,
        unknown,
        refunds,
        orders: { rows: waiting.rows, more: waiting.next !== null },
        errors: { ...(parsed.success ? {} : issues(parsed.error)), ...(extra.errors ?? {}) },
        notice: extra.notice ?? null,
      },
      status,
    )
  }

  app.get(`${ADMIN_PATH}/payments`, guard('payments.view'), async (request, reply) => page(request, reply))

  app.post(`${ADMIN_PATH}/payments`, guard('payments.act'), async (request, reply) => {
    const parsed = attentionActionSchema.safeParse(request.body ?? {})
    if (!parsed.success) return page(request, reply, { errors: issues(parsed.error) }, 422)
    const { intent, id } = parsed.data
    const result = await attention.act(actorOf(request), intent, id)
    if (!result.ok) {
      if (result.error)
        request.log.warn({ err: result.error, id, intent }, 'back office: payment action failed')
      return page(request, reply, { errors: { form: result.message } }, 422)
    }
    request.log.info({ id, intent }, 'back office: payment action')
    return page(request, reply, { notice: result.message })
  })
}
