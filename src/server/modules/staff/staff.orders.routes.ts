/**
 * The back office's order page and its actions (issue 34): GET shows the order; POST to the same
 * address runs one action (`intent`) through StaffOrders and answers the page with a notice, the
 * form's errors, or the refund's quote. Thin: parse, call, render. `orders.act` is checked by the
 * route's guard before anything runs (a viewer gets 403 whatever the page showed).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { z } from 'zod'
import {
  cancelSchema,
  chosenLines,
  holdSchema,
  invoiceSchema,
  noteSchema,
  ORDER_ACTION_INTENTS,
  parseMoney,
  refundSchema,
  shipSchema,
} from '../../../shared/staff-orders.ts'
import type { Db } from '../../db/client.ts'
import { DomainError } from '../../lib/domain-error.ts'
import type { OrderLifecycle } from '../orders/order-lifecycle.types.ts'
import { siteBaseUrl } from '../sites/site-url.ts'
import { issues } from './staff.auth.routes.ts'
import { ADMIN_PATH, actorOf, guard, renderAdmin } from './staff.http.ts'
import { orderPage, orderSignLine } from './staff.order-page.ts'
import { storedSignProof } from '../builders/sign-proof.ts'
import { STALE_MESSAGE, StaffOrders, type OrderAction } from './staff.orders.ts'

/** Who gives a refund back, by the order's payment method. */
const REFUND_BY: Record<string, string> = {
  sagepay: 'card, through Opayo',
  paya: 'card, through Paya',
  paypal: 'PayPal',
  amazon: 'Amazon Pay',
  purchase_order: 'a credit note (purchase order: no provider)',
}

const envelope = z.object({
  intent: z.enum(ORDER_ACTION_INTENTS, { error: 'The request could not be understood.' }),
  version: z.coerce.number().int().min(1),
  submission: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/),
})

type Parsed = { ok: true; action: OrderAction } | { ok: false; errors: Record<string, string> }

/** The form's fields as the lifecycle takes them, or the form's errors. */
function parseAction(intent: (typeof ORDER_ACTION_INTENTS)[number], body: unknown): Parsed {
  const fail = (e: z.ZodError): Parsed => ({ ok: false, errors: issues(e) })
  switch (intent) {
    case 'hold':
    case 'cancel': {
      const p = (intent === 'hold' ? holdSchema : cancelSchema).safeParse(body)
      return p.success ? { ok: true, action: { intent, reason: p.data.reason } } : fail(p.error)
    }
    case 'release':
    case 'resend':
      return { ok: true, action: { intent } }
    case 'note': {
      const p = noteSchema.safeParse(body)
      return p.success ? { ok: true, action: { intent, note: p.data.note } } : fail(p.error)
    }
    case 'ship': {
      const p = shipSchema.safeParse(body)
      if (!p.success) return fail(p.error)
      const { carrier, trackingNumber, trackingUrl, scope, lines } = p.data
      return {
        ok: true,
        action: {
          intent,
          carrier,
          trackingNumber,
          trackingUrl: trackingUrl || null,
          ...(scope === 'lines' ? { lines: chosenLines(lines) } : {}),
        },
      }
    }
    case 'quote':
    case 'refund': {
      const p = refundSchema.safeParse(body)
      if (!p.success) return fail(p.error)
      const { reason, scope, amount, lines } = p.data
      return {
        ok: true,
        action: {
          intent: 'refund',
          reason,
          ...(scope === 'amount' ? { amountMinor: parseMoney(amount ?? '')! } : {}),
          ...(scope === 'lines' ? { lines: chosenLines(lines) } : {}),
        },
      }
    }
    case 'invoice': {
      const p = invoiceSchema.safeParse(body)
      if (!p.success) return fail(p.error)
      const date = new Date(`${p.data.invoiceDate}T12:00:00Z`)
      if (Number.isNaN(date.getTime()))
        return { ok: false, errors: { invoiceDate: 'Please enter a real date.' } }
      return {
        ok: true,
        action: {
          intent,
          invoiceDate: date,
          amountMinor: parseMoney(p.data.amount)!,
          ...(p.data.invoiceNumber ? { invoiceNumber: Number(p.data.invoiceNumber) } : {}),
          ...(p.data.pdfBase64 ? { pdfBase64: p.data.pdfBase64 } : {}),
        },
      }
    }
  }
}

/** A refusal's field messages under the page's field names. */
function fieldsOf(error: DomainError): Record<string, string> {
  // The API's terse field words ("must be a PDF file") become sentences for a person.
  const sentence = (m: string) => (/^[a-z]/.test(m) ? `The PDF ${m}.` : m)
  const out: Record<string, string> = { form: sentence(error.message) }
  for (const [key, messages] of Object.entries(error.fields)) {
    const name = key === 'amountMinor' ? 'amount' : key.startsWith('lines') ? 'lines' : key
    if (messages[0]) out[name] ??= sentence(messages[0])
  }
  return out
}

export async function staffOrderRoutes(
  app: FastifyInstance,
  opts: { db: Db; lifecycle: () => OrderLifecycle },
) {
  const { db } = opts
  const service = () =>
    new StaffOrders({
      db,
      lifecycle: opts.lifecycle(),
      mail: { site: (id) => app.sites.byId(id), present: (ex, r) => app.orders.present(ex, r) },
    })
  const number = (raw: string) => (/^\d{1,15}$/.test(raw) ? Number(raw) : NaN)

  const page = async (
    request: FastifyRequest,
    reply: FastifyReply,
    orderNumber: number,
    extra: Record<string, unknown> = {},
    status = 200,
  ) => {
    const order = Number.isSafeInteger(orderNumber)
      ? await orderPage(db, orderNumber, (ex, r) => app.orders.present(ex, r))
      : null
    if (!order)
      return renderAdmin(
        request,
        reply,
        'admin/Forbidden',
        { message: 'There is no order with this number.', title: 'Order not found' },
        404,
      )
    return renderAdmin(
      request,
      reply,
      'admin/Order',
      {
        order,
        refundBy: REFUND_BY[order.method] ?? order.method,
        errors: {},
        action: null,
        notice: null,
        quote: null,
        ...extra,
      },
      status,
    )
  }

  app.get<{ Params: { number: string } }>(
    `${ADMIN_PATH}/orders/:number`,
    guard('orders.view'),
    (request, reply) => page(request, reply, number(request.params.number)),
  )

  // A designed sign's printable proof, as the shopper saw it before ordering (made once, then kept).
  app.get<{ Params: { number: string; file: string } }>(
    `${ADMIN_PATH}/orders/:number/proofs/:file`,
    guard('orders.view', { config: { rateLimit: { max: 30, timeWindow: 60_000 } } }),
    async (request, reply) => {
      const id = /^(\d{1,12})\.pdf$/.exec(request.params.file)?.[1]
      const line = id ? await orderSignLine(db, number(request.params.number), Number(id)) : null
      const site = line ? await app.sites.byId(line.siteId) : null
      if (!line || !line.sign.design)
        return renderAdmin(
          request,
          reply,
          'admin/Forbidden',
          { message: 'This line has no proof.', title: 'Not found' },
          404,
        )
      const pdf = await storedSignProof(app.uploads, line.sign, {
        shopName: site?.name ?? '',
        sku: line.sign.design.sku,
        quantity: line.quantity,
      })
      return reply
        .headers({
          'content-type': 'application/pdf',
          'content-disposition': `inline; filename="order-${request.params.number}-proof-${id}.pdf"`,
          'x-content-type-options': 'nosniff',
        })
        .send(pdf)
    },
  )

  app.post<{ Params: { number: string } }>(
    `${ADMIN_PATH}/orders/:number`,
    // An invoice's PDF (at most 5 MB) arrives as base64 in the form.
    guard('orders.act', { bodyLimit: 8 * 1024 * 1024 }),
    async (request, reply) => {
      const orderNumber = number(request.params.number)
      if (!Number.isSafeInteger(orderNumber)) return page(request, reply, orderNumber)
      const env = envelope.safeParse(request.body ?? {})
      if (!env.success)
        return page(
          request,
          reply,
          orderNumber,
          { errors: { form: 'The request could not be understood.' } },
          422,
        )
      const { intent, version, submission } = env.data
      const parsed = parseAction(intent, request.body)
      if (!parsed.ok) return page(request, reply, orderNumber, { errors: parsed.errors, action: intent }, 422)
      const orders = service()
      if (intent === 'quote') {
        const a = parsed.action as Extract<OrderAction, { intent: 'refund' }>
        try {
          const quote = await orders.quote(orderNumber, a)
          return page(request, reply, orderNumber, {
            action: 'refund',
            quote: { ...quote, form: request.body },
          })
        } catch (error) {
          if (!(error instanceof DomainError)) throw error
          return page(request, reply, orderNumber, { errors: fieldsOf(error), action: 'refund' }, 422)
        }
      }
      const staff = request.staff!.user
      try {
        const result = await orders.act(
          { ...actorOf(request), name: staff.name },
          {
            orderNumber,
            version,
            submission,
            action: parsed.action,
            baseUrl: (site) => siteBaseUrl(request, site),
          },
        )
        return page(request, reply, orderNumber, { notice: result.message, action: intent })
      } catch (error) {
        if (error instanceof DomainError && error.code === 'order_version_mismatch')
          return page(request, reply, orderNumber, { errors: { form: STALE_MESSAGE }, action: intent }, 409)
        if (error instanceof DomainError)
          return page(request, reply, orderNumber, { errors: fieldsOf(error), action: intent }, 422)
        if (intent !== 'refund' && intent !== 'cancel') throw error
        // The provider could not be asked: the lifecycle kept the request open for a person.
        request.log.warn({ err: error, orderNumber }, 'back office: refund could not reach the provider')
        const message =
          'The payment provider could not be reached. The refund is recorded as needing attention; sending the same form again asks again.'
        return page(request, reply, orderNumber, { errors: { form: message }, action: intent }, 502)
      }
    },
  )
}
