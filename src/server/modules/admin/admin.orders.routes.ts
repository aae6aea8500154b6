/**
 * The ERP's order routes (ADR 0220): the change feed, one order with its ETag, and the writes,
 * each through the order lifecycle service with the token as the actor. Every write needs an
 * Idempotency-Key; every state change needs If-Match (admin.preconditions.ts).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { Actor } from '../orders/order-lifecycle.types.ts'
import { invalid } from './admin.document.ts'
import { IDEMPOTENCY_MESSAGES } from './admin.idempotency.ts'
import { afterParam, limitParam } from './admin.feed.ts'
import { putErpInvoice } from './admin.invoices.ts'
import { orderDetail, ordersFeed } from './admin.orders.ts'
import { etagOf, parseIfMatch, PRECONDITION_MESSAGES } from './admin.preconditions.ts'
import {
  acknowledgeBody,
  cancelBody,
  holdBody,
  invoiceBody,
  orderDetailAnswer,
  orderNumberParam,
  ordersPageAnswer,
  orderWriteAnswers,
  quoteAnswer,
  quoteBody,
  refundBody,
  shipmentBody,
  statusBody,
  statusParam,
} from './admin.orders.schemas.ts'
import { messageAnswer, rowErrorsAnswer, securedAnswers } from './admin.schemas.ts'

const security = [{ bearer: [] }]
const write = { csrf: false, idempotencyKey: 'required' as const }
const headers = (ifMatch: 'required' | 'optional' | 'none') =>
  z
    .object({
      'idempotency-key': z
        .string({ error: IDEMPOTENCY_MESSAGES.required })
        .describe('A new unique key per change (e.g. a UUID); a repeat answers the first answer'),
      ...(ifMatch === 'none'
        ? {}
        : {
            'if-match': z
              .string()
              .optional()
              .describe(
                ifMatch === 'required'
                  ? 'Required: the order\'s ETag ("v3"); without it 428, and 412 if the order changed since'
                  : 'The order\'s ETag ("v3"): the change is refused (412) if the order changed since',
              ),
          }),
    })
    .loose()

export async function adminOrderRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>()
  const actor = (request: FastifyRequest): Actor => ({ kind: 'token', name: request.adminToken!.name })
  const siteOf = (request: FastifyRequest) => request.adminToken!.siteId

  /** The If-Match version, or undefined after answering 400/428 (`required`: a state change). */
  const expected = (request: FastifyRequest, reply: FastifyReply, required: boolean) => {
    const parsed = parseIfMatch(request.headers['if-match'])
    if (parsed.kind === 'version') return parsed.version
    if (parsed.kind === 'malformed') reply.code(400).send({ message: parsed.message })
    else if (required) reply.code(428).send({ message: PRECONDITION_MESSAGES.required })
    return undefined
  }
  const answered = <T extends { version: number }>(reply: FastifyReply, summary: T): T => {
    reply.header('etag', etagOf(summary.version))
    return summary
  }

  api.get(
    '/orders',
    {
      config: { csrf: false },
      schema: {
        summary:
          "The site's orders in change order (an order comes again after each change); poll with after=next_cursor",
        security,
        querystring: z.object({ after: afterParam, status: statusParam, limit: limitParam }),
        response: { 200: ordersPageAnswer, ...securedAnswers, 422: rowErrorsAnswer },
      },
    },
    async (request) => ordersFeed(app.db, siteOf(request), request.query),
  )

  api.get(
    '/orders/:number',
    {
      config: { csrf: false },
      schema: {
        summary: 'One order with everything an ERP needs; its ETag is the version for If-Match',
        security,
        params: orderNumberParam,
        response: {
          200: orderDetailAnswer,
          ...securedAnswers,
          404: messageAnswer('No such order on this site'),
        },
      },
    },
    async (request, reply) => {
      const order = await orderDetail(app.db, siteOf(request), request.params.number)
      reply.header('etag', etagOf(order.version))
      return order
    },
  )

  api.post(
    '/orders/:number/acknowledge',
    {
      config: write,
      schema: {
        summary: 'Acknowledge (exported): the ERP has the order, under its own reference',
        security,
        headers: headers('required'),
        params: orderNumberParam,
        body: acknowledgeBody,
        response: orderWriteAnswers,
      },
    },
    async (request, reply) => {
      const expectVersion = expected(request, reply, true)
      if (expectVersion === undefined) return reply
      const summary = await app.orderLifecycle.acknowledgeOrder(app.db, {
        orderNumber: request.params.number,
        siteId: siteOf(request),
        erpRef: request.body.erpRef,
        actor: actor(request),
        expectVersion,
      })
      return answered(reply, summary)
    },
  )

  api.post(
    '/orders/:number/hold',
    {
      config: write,
      schema: {
        summary: 'Hold the order (the customer sees ORDER HELD)',
        security,
        headers: headers('required'),
        params: orderNumberParam,
        body: holdBody,
        response: orderWriteAnswers,
      },
    },
    async (request, reply) => {
      const expectVersion = expected(request, reply, true)
      if (expectVersion === undefined) return reply
      const summary = await app.orderLifecycle.holdOrder(app.db, {
        orderNumber: request.params.number,
        siteId: siteOf(request),
        reason: request.body.reason,
        actor: actor(request),
        expectVersion,
      })
      return answered(reply, summary)
    },
  )

  api.post(
    '/orders/:number/release',
    {
      config: write,
      schema: {
        summary: 'Release a held order to the state it was held from',
        security,
        headers: headers('required'),
        params: orderNumberParam,
        response: orderWriteAnswers,
      },
    },
    async (request, reply) => {
      const expectVersion = expected(request, reply, true)
      if (expectVersion === undefined) return reply
      const summary = await app.orderLifecycle.releaseOrder(app.db, {
        orderNumber: request.params.number,
        siteId: siteOf(request),
        actor: actor(request),
        expectVersion,
      })
      return answered(reply, summary)
    },
  )

  api.post(
    '/orders/:number/shipments',
    {
      config: write,
      schema: {
        summary: 'Record a shipment (some lines, or all that remains); the customer is e-mailed the tracking',
        security,
        headers: headers('required'),
        params: orderNumberParam,
        body: shipmentBody,
        response: orderWriteAnswers,
      },
    },
    async (request, reply) => {
      const expectVersion = expected(request, reply, true)
      if (expectVersion === undefined) return reply
      const { shippedAt, ...body } = request.body
      const summary = await app.orderLifecycle.shipOrder(app.db, {
        orderNumber: request.params.number,
        siteId: siteOf(request),
        ...body,
        ...(shippedAt ? { shippedAt: new Date(shippedAt) } : {}),
        actor: actor(request),
        expectVersion,
      })
      return answered(reply, summary)
    },
  )

  api.post(
    '/orders/:number/cancel',
    {
      config: write,
      schema: {
        summary: 'Cancel the order before it ships; the payment is voided or refunded',
        security,
        headers: headers('required'),
        params: orderNumberParam,
        body: cancelBody,
        response: orderWriteAnswers,
      },
    },
    async (request, reply) => {
      const expectVersion = expected(request, reply, true)
      if (expectVersion === undefined) return reply
      const summary = await app.orderLifecycle.cancelOrder(app.db, {
        orderNumber: request.params.number,
        siteId: siteOf(request),
        reason: request.body.reason,
        actor: actor(request),
        expectVersion,
      })
      return answered(reply, summary)
    },
  )

  api.post(
    '/orders/:number/refunds/quote',
    {
      config: write,
      schema: {
        summary:
          'What a refund (an amount, or lines) would give back, and what may still be refunded; changes nothing',
        security,
        headers: headers('none'),
        params: orderNumberParam,
        body: quoteBody,
        response: { ...orderWriteAnswers, 200: quoteAnswer },
      },
    },
    async (request) =>
      app.orderLifecycle.quoteRefund(app.db, {
        orderNumber: request.params.number,
        siteId: siteOf(request),
        ...request.body,
      }),
  )

  api.post(
    '/orders/:number/refunds',
    {
      config: write,
      schema: {
        summary:
          "Refund an amount or lines (never more than captured minus refunded); the Idempotency-Key is the refund's own key with the provider",
        security,
        headers: headers('required'),
        params: orderNumberParam,
        body: refundBody,
        response: orderWriteAnswers,
      },
    },
    async (request, reply) => {
      const expectVersion = expected(request, reply, true)
      if (expectVersion === undefined) return reply
      const summary = await app.orderLifecycle.refundOrder(app.db, {
        orderNumber: request.params.number,
        siteId: siteOf(request),
        ...request.body,
        // Unique per token, as the API's keys are (payment_refunds.idempotency_key is global).
        idempotencyKey: `admin:${request.adminToken!.tokenId}:${request.idempotency!.key}`,
        actor: actor(request),
        expectVersion,
      })
      return answered(reply, summary)
    },
  )

  api.put(
    '/orders/:number/status',
    {
      config: write,
      schema: {
        summary: 'Maginus status: 1 holds, 2 ships all that remains, 3 cancels (already so: no change)',
        security,
        headers: headers('required'),
        params: orderNumberParam,
        body: statusBody,
        response: orderWriteAnswers,
      },
    },
    async (request, reply) => {
      const expectVersion = expected(request, reply, true)
      if (expectVersion === undefined) return reply
      const scope = {
        orderNumber: request.params.number,
        siteId: siteOf(request),
        actor: actor(request),
        expectVersion,
      }
      const current = await orderDetail(app.db, scope.siteId, scope.orderNumber)
      const { maginusStatus, reason, shipment } = request.body
      const already = { 1: 'held', 2: 'shipped', 3: 'cancelled' }[maginusStatus]
      if (current.status === already && current.version === expectVersion)
        return answered(reply, {
          number: current.number,
          status: current.status,
          version: current.version,
          paymentStatus: current.paymentStatus,
          fulfilmentStatus: current.fulfilmentStatus,
        })
      const why = reason ?? `Maginus status ${maginusStatus}`
      const summary =
        maginusStatus === 1
          ? await app.orderLifecycle.holdOrder(app.db, { ...scope, reason: why })
          : maginusStatus === 3
            ? await app.orderLifecycle.cancelOrder(app.db, { ...scope, reason: why })
            : await app.orderLifecycle.shipOrder(app.db, {
                ...scope,
                shipmentRef: shipment?.shipmentRef ?? `maginus-2-v${expectVersion}`,
                carrier: shipment?.carrier ?? 'Not given',
                // No parcel named: everything left went, by a carrier and with tracking not given.
                trackingNumber: shipment?.trackingNumber ?? null,
                trackingUrl: shipment?.trackingUrl ?? null,
              })
      return answered(reply, summary)
    },
  )

  api.put(
    '/orders/:number/invoices/:invoiceNumber',
    {
      config: write,
      schema: {
        summary:
          "Record the ERP's invoice for the order (number, date, amount) with its PDF, or without one for the shop to draw; repeating it is safe",
        security,
        headers: headers('optional'),
        params: orderNumberParam.extend({
          invoiceNumber: z.coerce
            .number()
            .int()
            .min(1)
            .max(Number.MAX_SAFE_INTEGER)
            .meta({ examples: [900001] }),
        }),
        body: invoiceBody,
        response: {
          ...orderWriteAnswers,
          200: z
            .object({
              invoiceNumber: z.number().int(),
              created: z.boolean(),
              pdf: z.enum(['stored', 'generated']),
            })
            .describe('Recorded; the customer finds it under Your Invoices'),
        },
      },
    },
    async (request, reply) => {
      const parsed = parseIfMatch(request.headers['if-match'])
      if (parsed.kind === 'malformed') return reply.code(400).send({ message: parsed.message })
      if (request.body.pdfBase64 !== undefined && request.body.pdfBase64.length === 0)
        return invalid(reply, [{ row: 0, field: 'pdfBase64', message: 'must not be empty' }])
      return putErpInvoice(app.db, {
        siteId: siteOf(request),
        orderNumber: request.params.number,
        invoiceNumber: request.params.invoiceNumber,
        invoiceDate: new Date(request.body.invoiceDate),
        amountMinor: request.body.amountMinor,
        ...(request.body.pdfBase64 !== undefined ? { pdfBase64: request.body.pdfBase64 } : {}),
        ...(parsed.kind === 'version' ? { expectVersion: parsed.version } : {}),
      })
    },
  )
}
