/**
 * The back office's customers (issue 34): the list and search, a customer's page, and the actions
 * on their sign-in (reset two-factor, disable, re-enable), each audited in its own transaction
 * (account-standing.ts, as the integration API's and the CLI's). Thin: parse, call, render.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import {
  CUSTOMER_SEARCH_KINDS,
  customerActionSchema,
  customerListQuerySchema,
  type CustomerListQuery,
} from '../../../shared/staff-customers.ts'
import type { Db } from '../../db/client.ts'
import { DomainError } from '../../lib/domain-error.ts'
import { AccountStanding, STANDING_DONE } from './account-standing.ts'
import { customerDetail, listCustomers } from './customer-search.ts'
import { siteChoices } from './order-search.ts'
import { issues } from './staff.auth.routes.ts'
import { ADMIN_PATH, actorOf, guard, renderAdmin } from './staff.http.ts'

function customerId(raw: string): number | null {
  const n = /^\d{1,10}$/.test(raw) ? Number(raw) : NaN
  return Number.isSafeInteger(n) && n > 0 ? n : null
}

export async function staffCustomerRoutes(app: FastifyInstance, opts: { db: Db }) {
  const { db } = opts
  const standing = new AccountStanding(db, app.auth.service)

  app.get(`${ADMIN_PATH}/customers`, guard('customers.view'), async (request, reply) => {
    const parsed = customerListQuerySchema.safeParse(request.query ?? {})
    // A bad query is named on the page and nothing is listed (rather than a list it did not ask for).
    const filters: CustomerListQuery = parsed.success ? parsed.data : { kind: 'auto', q: undefined }
    const [page, sitesList] = await Promise.all([
      parsed.success ? listCustomers(db, filters) : { rows: [], next: null },
      siteChoices(db),
    ])
    return renderAdmin(request, reply, 'admin/Customers', {
      filters: { site: filters.site ?? null, q: filters.q ?? '', kind: filters.kind ?? 'auto' },
      errors: parsed.success ? {} : issues(parsed.error),
      sites: sitesList,
      kinds: CUSTOMER_SEARCH_KINDS,
      customers: page.rows,
      next: page.next,
    })
  })

  const customerPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    id: number | null,
    extra: { errors?: Record<string, string>; notice?: string } = {},
    status = 200,
  ) => {
    const customer = id === null ? null : await customerDetail(db, id)
    if (!customer)
      return renderAdmin(
        request,
        reply,
        'admin/Forbidden',
        { message: 'There is no customer with this number.', title: 'Customer not found' },
        404,
      )
    return renderAdmin(
      request,
      reply,
      'admin/Customer',
      { customer, errors: extra.errors ?? {}, notice: extra.notice ?? null },
      status,
    )
  }

  app.get<{ Params: { id: string } }>(
    `${ADMIN_PATH}/customers/:id`,
    guard('customers.view'),
    async (request, reply) => customerPage(request, reply, customerId(request.params.id)),
  )

  app.post<{ Params: { id: string } }>(
    `${ADMIN_PATH}/customers/:id`,
    guard('customers.act'),
    async (request, reply) => {
      const id = customerId(request.params.id)
      const parsed = customerActionSchema.safeParse(request.body ?? {})
      if (!parsed.success) return customerPage(request, reply, id, { errors: issues(parsed.error) }, 422)
      if (id === null) return customerPage(request, reply, null)
      const intent = parsed.data.intent
      try {
        await standing.changeAudited(actorOf(request), id, intent)
      } catch (err) {
        if (!(err instanceof DomainError)) throw err
        if (err.code === 'not_found') return customerPage(request, reply, null)
        return customerPage(request, reply, id, { errors: { form: err.message } }, 422)
      }
      request.log.info({ customerId: id, intent }, 'back office: customer sign-in changed')
      return customerPage(request, reply, id, { notice: STANDING_DONE[intent] })
    },
  )
}
