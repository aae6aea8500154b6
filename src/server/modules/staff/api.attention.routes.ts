/**
 * Payments that need a person, from the integration API (ADR 0220; issue 34: the back office does
 * nothing the API cannot): the back office's lists (money taken with no order, payments in an
 * unknown state, refunds the provider has not confirmed), keyset-paged newest first, on the
 * token's site, and each row's action through the same service and audit row as the back office
 * (staff/attention.ts), with the token's name as the actor.
 *
 * Another site's row is 404; an action the row no longer offers, or one that could not be done
 * (the provider unreachable, the order not placeable), is 409 with the reason and changes
 * nothing. Every write needs an Idempotency-Key: a repeat answers the first answer.
 */
import type { FastifyInstance, FastifyReply } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import {
  attentionServiceOf,
  parseAttentionCursor,
  type ActionResult,
  type AttentionIntent,
} from './attention.ts'
import { listOrders } from './order-search.ts'
import { keyedWriteHeaders, tokenActor } from './api.customers-standing.routes.ts'
import { messageAnswer, rowErrorsAnswer, securedAnswers } from '../admin/admin.schemas.ts'

const security = [{ bearer: [] }]
const EXAMPLE_ID = '5b0e7a53-2f6c-4d7e-9c1a-3f8e2b6d4a10'

const afterCursor = z
  .string()
  .max(60)
  .regex(/^\d{1,15}\.[0-9a-f-]{36}$/, 'is not a cursor this list gave (use next)')
  .optional()
  .describe('The `next` of the previous page; omitted: the newest rows')

const idParam = (what: string) =>
  z.object({
    id: z
      .string()
      .regex(/^[0-9a-f-]{36}$/i, `must be a ${what} reference`)
      .meta({ examples: [EXAMPLE_ID] }),
  })

const actionsOf = z
  .array(z.enum(['resolve', 'give_back', 'place', 'reconcile', 'refund_status']))
  .describe('What may be done to the row now (each is checked again when asked)')

const attemptItem = z.object({
  id: z.string(),
  site: z.string(),
  method: z.string(),
  state: z.string(),
  resolution: z.string().nullable().describe('voiding, needs_attention, or null while unresolved'),
  amount: z.number().int().describe('Minor units'),
  currency: z.string(),
  note: z.string().nullable(),
  lastMessage: z.string().nullable(),
  createdAt: z.string(),
  orderNumber: z.number().int().nullable(),
  email: z.string().nullable().describe("The shopper's e-mail from the kept order form"),
  actions: actionsOf,
})

const refundItem = z.object({
  id: z.string(),
  orderNumber: z.number().int().nullable(),
  method: z.string(),
  how: z.string(),
  status: z.string(),
  amount: z.number().int().describe('Minor units'),
  currency: z.string(),
  reason: z.string(),
  message: z.string().nullable(),
  createdAt: z.string(),
  actions: actionsOf,
})

const orderItem = z.object({
  number: z.number().int(),
  site: z.string(),
  date: z.string(),
  status: z.string(),
  method: z.string(),
  currency: z.string(),
  total: z.number().int().describe('Minor units, VAT included'),
  customer: z.string(),
  email: z.string(),
  postcode: z.string(),
  poNumber: z.string().nullable(),
})

const next = z
  .string()
  .nullable()
  .describe('Where the next (older) page starts: send it as `after`; null: none')

const said = z.string().describe('What happened, in words')
const paymentRow = z
  .object({ id: z.string(), state: z.string(), resolution: z.string().nullable() })
  .describe('The payment as it is now')
const refundRow = z.object({ id: z.string(), status: z.string() }).describe('The refund as it is now')
const done = {
  payment: z.object({ message: said, payment: paymentRow }).describe('Done and audited'),
  refund: z.object({ message: said, refund: refundRow }).describe('Asked and audited'),
}

const actionAnswers = (what: 'payment' | 'refund') => ({
  200: done[what],
  ...securedAnswers,
  400: messageAnswer('No Idempotency-Key, or an ill-formed one'),
  404: messageAnswer(`No such ${what} on this site`),
  409: messageAnswer(
    `The ${what} no longer offers this action, or it could not be done now (the message says why; nothing changed), or the key is in use`,
  ),
  422: rowErrorsAnswer,
})

const PAYMENT_ACTIONS: { path: string; intent: AttentionIntent; summary: string }[] = [
  {
    path: 'reconcile',
    intent: 'reconcile',
    summary: 'Ask the provider now about a payment in an unknown or pending state (one attempt)',
  },
  {
    path: 'resolve',
    intent: 'resolve',
    summary:
      'Resolve money taken with no order now, as the reconciler would: place the order from the kept order form, else give the money back',
  },
  {
    path: 'give-back',
    intent: 'give_back',
    summary: 'Give taken money back without trying to place the order (no order may claim it afterwards)',
  },
  {
    path: 'place',
    intent: 'place',
    summary: 'Place the order of a payment held for a person, from its kept order form',
  },
]

export async function adminAttentionRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>()
  const attention = attentionServiceOf(app)

  /** A refusal's status: no such row here, else the row's state does not allow it now. */
  const refused = (reply: FastifyReply, result: Extract<ActionResult, { ok: false }>) => {
    if (result.error) reply.log.warn({ err: result.error }, 'admin API: payment action failed')
    return reply.code(result.reason === 'not_found' ? 404 : 409).send({ message: result.message })
  }

  api.get(
    '/payments/attention',
    {
      config: { csrf: false },
      schema: {
        summary:
          "The site's payments that need a person, newest first: list=paid (money taken with no order) or list=unknown (the provider's answer was lost)",
        security,
        querystring: z.object({
          list: z
            .enum(['paid', 'unknown'], { error: 'must be paid or unknown' })
            .default('paid')
            .describe('paid: money taken, no order; unknown: payments in an unknown state'),
          after: afterCursor,
        }),
        response: {
          200: z.object({ payments: z.array(attemptItem), next }).describe('One page (at most 25 rows)'),
          ...securedAnswers,
          422: rowErrorsAnswer,
        },
      },
    },
    async (request) => {
      const { list, after } = request.query
      const page = await attention.attempts(list, parseAttentionCursor(after), {
        siteId: request.adminToken!.siteId,
      })
      return { payments: page.rows, next: page.next }
    },
  )

  api.get(
    '/refunds/attention',
    {
      config: { csrf: false },
      schema: {
        summary: "The site's refunds the provider has not confirmed (pending or unknown), newest first",
        security,
        querystring: z.object({ after: afterCursor }),
        response: {
          200: z.object({ refunds: z.array(refundItem), next }).describe('One page (at most 25 rows)'),
          ...securedAnswers,
          422: rowErrorsAnswer,
        },
      },
    },
    async (request) => {
      const page = await attention.refunds(parseAttentionCursor(request.query.after), {
        siteId: request.adminToken!.siteId,
      })
      return { refunds: page.rows, next: page.next }
    },
  )

  api.get(
    '/orders/attention',
    {
      config: { csrf: false },
      schema: {
        summary:
          "The site's orders that need a person, newest first: awaiting payment for over an hour, or with a refund the provider has not confirmed",
        security,
        querystring: z.object({
          after: z
            .string()
            .max(40)
            .regex(/^\d{1,15}\.\d{1,10}$/, 'is not a cursor this list gave (use next)')
            .optional()
            .describe('The `next` of the previous page; omitted: the newest orders'),
        }),
        response: {
          200: z.object({ orders: z.array(orderItem), next }).describe('One page, as the order list pages'),
          ...securedAnswers,
          422: rowErrorsAnswer,
        },
      },
    },
    async (request) => {
      const page = await listOrders(app.db, {
        attention: true,
        site: request.adminToken!.siteId,
        after: request.query.after,
        kind: 'auto',
        method: undefined,
        q: undefined,
      })
      return { orders: page.rows.map(({ id: _id, ...row }) => row), next: page.next }
    },
  )

  for (const { path, intent, summary } of PAYMENT_ACTIONS)
    api.post(
      `/payments/:id/${path}`,
      {
        config: { csrf: false, idempotencyKey: 'required' },
        schema: {
          summary,
          security,
          headers: keyedWriteHeaders,
          params: idParam('payment'),
          response: actionAnswers('payment'),
        },
      },
      async (request, reply) => {
        const result = await attention.act(tokenActor(request), intent, request.params.id, {
          siteId: request.adminToken!.siteId,
        })
        request.log.info({ id: request.params.id, intent, ok: result.ok }, 'admin API: payment action')
        if (!result.ok) return refused(reply, result)
        const row = result.row
        if (row?.kind !== 'payment') throw new Error('a payment action answered without its payment')
        return {
          message: result.message,
          payment: { id: row.id, state: row.state, resolution: row.resolution },
        }
      },
    )

  api.post(
    '/refunds/:id/reconcile',
    {
      config: { csrf: false, idempotencyKey: 'required' },
      schema: {
        summary: 'Ask the provider now about a refund it has not confirmed (one refund)',
        security,
        headers: keyedWriteHeaders,
        params: idParam('refund'),
        response: actionAnswers('refund'),
      },
    },
    async (request, reply) => {
      const result = await attention.act(tokenActor(request), 'refund_status', request.params.id, {
        siteId: request.adminToken!.siteId,
      })
      request.log.info({ id: request.params.id, ok: result.ok }, 'admin API: refund action')
      if (!result.ok) return refused(reply, result)
      const row = result.row
      if (row?.kind !== 'refund') throw new Error('a refund action answered without its refund')
      return { message: result.message, refund: { id: row.id, status: row.status } }
    },
  )
}
