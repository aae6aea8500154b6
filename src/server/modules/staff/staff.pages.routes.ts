/**
 * The back office's pages behind the sign-in (ADR 0261): orders (list, search, the order page),
 * staff users (invite, change role, disable) and the audit log. Thin: parse, call, render.
 */
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import {
  changeRoleSchema,
  inviteStaffSchema,
  ORDER_SEARCH_KINDS,
  orderListQuerySchema,
  type OrderListQuery,
  ROLE_LABELS,
  STAFF_ROLE_NAMES,
} from '../../../shared/staff.ts'
import type { Db } from '../../db/client.ts'
import { listAudit } from './staff.audit.ts'
import { ADMIN_PATH, actorOf, guard, renderAdmin } from './staff.http.ts'
import { issues } from './staff.auth.routes.ts'
import { invitationMail } from './staff.mail.ts'
import { listOrders, PAYMENT_METHODS, siteChoices } from './order-search.ts'
import { presentStaff, type StaffService } from './staff.service.ts'

const AUDIT_PAGE_SIZE = 50

const staffIntent = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('invite') }).passthrough(),
  z.object({ intent: z.literal('role'), id: z.coerce.number().int().positive() }).passthrough(),
  z.object({ intent: z.literal('disable'), id: z.coerce.number().int().positive() }).passthrough(),
])

const auditQuerySchema = z.object({
  action: z
    .string()
    .regex(/^[a-z_.]{1,60}$/)
    .optional()
    .catch(undefined),
  before: z
    .string()
    .regex(/^\d{1,15}\.\d{1,15}$/)
    .optional()
    .catch(undefined),
})

export async function staffPageRoutes(app: FastifyInstance, opts: { db: Db; staff: StaffService }) {
  const { db, staff } = opts

  // --- orders --------------------------------------------------------------------------------

  app.get(`${ADMIN_PATH}/orders`, guard('orders.view'), async (request, reply) => {
    const parsed = orderListQuerySchema.safeParse(request.query ?? {})
    // A bad filter is named on the page and nothing is listed (rather than a list it did not ask for).
    const filters: OrderListQuery = parsed.success
      ? parsed.data
      : { attention: false, kind: 'auto', method: undefined, q: undefined }
    const [page, sitesList] = await Promise.all([
      parsed.success ? listOrders(db, filters) : { rows: [], next: null },
      siteChoices(db),
    ])
    return renderAdmin(request, reply, 'admin/Orders', {
      filters: {
        site: filters.site ?? null,
        status: filters.status ?? '',
        method: filters.method ?? '',
        from: filters.from ?? '',
        to: filters.to ?? '',
        attention: filters.attention,
        q: filters.q ?? '',
        kind: filters.kind ?? 'auto',
      },
      errors: parsed.success ? {} : issues(parsed.error),
      sites: sitesList,
      methods: PAYMENT_METHODS,
      kinds: ORDER_SEARCH_KINDS,
      orders: page.rows,
      next: page.next,
    })
  })

  // The order page and its actions: staff.orders.routes.ts.

  // --- staff users ---------------------------------------------------------------------------

  const staffPage = async (
    request: Parameters<typeof renderAdmin>[0],
    reply: Parameters<typeof renderAdmin>[1],
    extra: { errors?: Record<string, string>; notice?: string } = {},
    status = 200,
  ) =>
    renderAdmin(
      request,
      reply,
      'admin/Staff',
      {
        staff: (await staff.list()).map(presentStaff),
        roles: STAFF_ROLE_NAMES.map((r) => ({ value: r, label: ROLE_LABELS[r] })),
        me: request.staff?.user.id ?? null,
        errors: extra.errors ?? {},
        notice: extra.notice ?? null,
      },
      status,
    )

  app.get(`${ADMIN_PATH}/staff`, guard('staff.manage'), async (request, reply) => staffPage(request, reply))

  app.post(`${ADMIN_PATH}/staff`, guard('staff.manage'), async (request, reply) => {
    const intent = staffIntent.safeParse(request.body ?? {})
    if (!intent.success)
      return staffPage(request, reply, { errors: { form: 'The request could not be understood.' } }, 422)
    const actor = actorOf(request)
    if (intent.data.intent === 'invite') {
      const parsed = inviteStaffSchema.safeParse(request.body)
      if (!parsed.success) return staffPage(request, reply, { errors: issues(parsed.error) }, 422)
      const input = parsed.data
      const result = await staff.invite(actor, input, (token) =>
        invitationMail({
          ...input,
          invitedBy: request.staff!.user.name,
          link: `${request.staffBaseUrl}${ADMIN_PATH}/invitations/${token}`,
        }),
      )
      if (!result.ok) return staffPage(request, reply, { errors: { email: result.message } }, 422)
      await request.server.mailQueue
        .flush()
        .catch((err: unknown) => request.log.warn({ err }, 'invitation mail: queue run failed'))
      return staffPage(request, reply, { notice: `An invitation was sent to ${input.email}.` })
    }
    if (intent.data.intent === 'role') {
      const parsed = changeRoleSchema.safeParse(request.body)
      if (!parsed.success) return staffPage(request, reply, { errors: issues(parsed.error) }, 422)
      const result = await staff.changeRole(actor, intent.data.id, parsed.data.role)
      if (!result.ok) return staffPage(request, reply, { errors: { form: result.message } }, 422)
      return staffPage(request, reply, { notice: 'The role was changed.' })
    }
    const result = await staff.disable(actor, intent.data.id)
    if (!result.ok) return staffPage(request, reply, { errors: { form: result.message } }, 422)
    return staffPage(request, reply, { notice: 'The account was disabled and its sessions ended.' })
  })

  // --- audit log -----------------------------------------------------------------------------

  app.get(`${ADMIN_PATH}/audit`, guard('audit.read'), async (request, reply) => {
    const q = auditQuerySchema.parse(request.query ?? {})
    const [ms, id] = q.before ? q.before.split('.').map(Number) : []
    const rows = await listAudit(db, {
      action: q.action,
      before: ms !== undefined && id !== undefined ? { at: new Date(ms), id } : undefined,
      limit: AUDIT_PAGE_SIZE + 1,
    })
    const page = rows.slice(0, AUDIT_PAGE_SIZE)
    const last = page.at(-1)
    return renderAdmin(request, reply, 'admin/Audit', {
      action: q.action ?? '',
      entries: page.map((r) => ({
        id: r.id,
        at: r.at.toISOString(),
        actor: r.actorEmail,
        action: r.action,
        target: `${r.targetType} ${r.targetId}`,
        before: r.before,
        after: r.after,
        ip: r.ip,
      })),
      next: rows.length > AUDIT_PAGE_SIZE && last ? `${last.at.getTime()}.${last.id}` : null,
    })
  })
}
