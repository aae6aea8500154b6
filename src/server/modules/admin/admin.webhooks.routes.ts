/**
 * Webhook endpoints in the back-office API (ADR 0230), under the secured `/api/admin/v1` scope:
 * thin routes over `webhooks/webhooks.endpoints.ts`, validated by zod (fastify-type-provider-zod),
 * so the generated OpenAPI document describes them. Every endpoint belongs to the token's site.
 * The secret is in the answer only of a creation or a rotation.
 */
import type { FastifyError, FastifyInstance } from 'fastify'
import {
  hasZodFastifySchemaValidationErrors,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod'
import { z } from 'zod'
import { CONTROL_CHARACTERS_MESSAGE, hasControlCharacters } from '../../../shared/text.ts'
import { DomainError } from '../../lib/domain-error.ts'
import { withExample } from './admin.document.ts'
import { securedAnswers } from './admin.schemas.ts'
import {
  createEndpoint,
  deleteEndpoint,
  getEndpoint,
  listDeliveries,
  listEndpoints,
  rotateSecret,
  sendTestMessage,
  updateEndpoint,
} from '../webhooks/webhooks.endpoints.ts'
import { ORDER_EVENT_TYPES } from '../webhooks/webhooks.policy.ts'
import { DELIVERY_STATUSES } from '../webhooks/webhooks.tables.ts'

const eventTypes = z.array(z.enum(ORDER_EVENT_TYPES)).min(1).max(ORDER_EVENT_TYPES.length)
const text = (max: number) =>
  z
    .string()
    .max(max)
    .refine((v) => !hasControlCharacters(v), CONTROL_CHARACTERS_MESSAGE)

const endpoint = z.object({
  id: z.string(),
  url: z.string(),
  description: z.string(),
  eventTypes: z.array(z.string()),
  enabled: z.boolean(),
  disabledAt: z.string().nullable(),
  disabledReason: z.string().nullable(),
  failingSince: z.string().nullable(),
  consecutiveFailures: z.number().int(),
  secretHint: z.string(),
  undelivered: z.number().int(),
  createdAt: z.string(),
})
const withSecret = z.object({
  endpoint,
  secret: z.string().describe('whsec_…: shown only in this answer; store it now'),
})
const delivery = z.object({
  id: z.number().int(),
  messageId: z.string(),
  type: z.string(),
  orderNumber: z.number().int().nullable(),
  status: z.enum(DELIVERY_STATUSES),
  attempts: z.number().int(),
  nextAttemptAt: z.string().nullable(),
  lastAttemptAt: z.string().nullable(),
  lastStatusCode: z.number().int().nullable(),
  lastError: z.string().nullable(),
  deliveredAt: z.string().nullable(),
  createdAt: z.string(),
})
const message = z.object({ message: z.string() })
const invalid = z.object({
  message: z.string(),
  errors: z.array(z.object({ row: z.number(), field: z.string(), message: z.string() })),
})
const params = z.object({ id: z.string().min(1).max(64) })

const tags = ['webhooks']
const security = [{ bearer: [] }]

/** Refusals in the back-office API's shape: 422 `{message, errors: [{row, field, message}]}`. */
function refusal(error: FastifyError) {
  if (hasZodFastifySchemaValidationErrors(error)) {
    return {
      status: 422,
      body: {
        message: 'The request was not applied: some values are invalid.',
        errors: error.validation.map((v) => ({
          row: 0,
          field: v.instancePath.replace(/^\//, '').replace(/\//g, '.') || error.validationContext || 'body',
          message: v.message ?? 'Invalid value.',
        })),
      },
    }
  }
  if (error instanceof DomainError && error.code === 'invalid') {
    const fields = Object.entries(error.fields)
    return {
      status: 422,
      body: {
        message: error.message,
        errors: fields.length
          ? fields.flatMap(([field, messages]) => messages.map((m) => ({ row: 0, field, message: m })))
          : [{ row: 0, field: 'body', message: error.message }],
      },
    }
  }
  if (error instanceof DomainError && error.code === 'not_found') {
    return { status: 404, body: { message: error.message } }
  }
  return null
}

export async function adminWebhookRoutes(parent: FastifyInstance) {
  const app = parent.withTypeProvider<ZodTypeProvider>()
  app.setValidatorCompiler(validatorCompiler)
  app.setSerializerCompiler(serializerCompiler)
  app.setErrorHandler(async (error: FastifyError, _request, reply) => {
    const answer = refusal(error)
    if (!answer) throw error // the app's error handler answers the rest
    return reply.code(answer.status).send(answer.body)
  })
  const deps = () => ({ ...app.webhooks.deps, actor: 'the API' })
  const config = { csrf: false }

  app.get(
    '/webhook-endpoints',
    {
      config,
      schema: {
        tags,
        security,
        summary: "The site's webhook endpoints",
        response: { ...securedAnswers, 200: z.object({ items: z.array(endpoint) }) },
      },
    },
    async (request) => ({ items: await listEndpoints(app.db, request.adminToken!.siteId) }),
  )

  app.post(
    '/webhook-endpoints',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Registers an endpoint; the answer carries its signing secret, shown once',
        body: withExample(
          z
            .object({
              url: text(2000).min(1),
              description: text(200).optional(),
              eventTypes: eventTypes.optional(),
            })
            .strict(),
          {
            url: 'https://erp.example/hooks',
            description: 'ERP',
            eventTypes: ['order.placed', 'order.shipped'],
          },
        ),
        response: { ...securedAnswers, 201: withSecret, 422: invalid },
      },
    },
    async (request, reply) => {
      const created = await createEndpoint(app.db, deps(), request.adminToken!.siteId, request.body)
      return reply.code(201).send(created)
    },
  )

  app.get(
    '/webhook-endpoints/:id',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'One endpoint, with why it was disabled',
        params,
        response: { ...securedAnswers, 200: endpoint, 404: message },
      },
    },
    async (request) => getEndpoint(app.db, request.adminToken!.siteId, request.params.id),
  )

  app.patch(
    '/webhook-endpoints/:id',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Changes an endpoint; enabling it resumes from its oldest undelivered message',
        params,
        body: withExample(
          z
            .object({
              url: text(2000).min(1).optional(),
              description: text(200).optional(),
              eventTypes: eventTypes.optional(),
              enabled: z.boolean().optional(),
              skipBacklog: z
                .boolean()
                .optional()
                .describe('with enabled: true, abandon what was not delivered'),
            })
            .strict(),
          { enabled: false },
        ),
        response: { ...securedAnswers, 200: endpoint, 404: message, 422: invalid },
      },
    },
    async (request) =>
      updateEndpoint(app.db, deps(), request.adminToken!.siteId, request.params.id, request.body),
  )

  app.delete(
    '/webhook-endpoints/:id',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Removes an endpoint and its deliveries',
        params,
        response: { ...securedAnswers, 204: z.null(), 404: message },
      },
    },
    async (request, reply) => {
      await deleteEndpoint(app.db, request.adminToken!.siteId, request.params.id)
      return reply.code(204).send(null)
    },
  )

  app.post(
    '/webhook-endpoints/:id/rotate-secret',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'A new signing secret, shown once; the old one also signs for overlapHours',
        params,
        body: withExample(
          z
            .object({ overlapHours: z.number().int().min(0).max(72).optional() })
            .strict()
            .nullish(),
          { overlapHours: 24 },
        ),
        response: {
          ...securedAnswers,
          200: withSecret.extend({ previousSecretValidUntil: z.string().nullable() }),
          404: message,
          422: invalid,
        },
      },
    },
    async (request) =>
      rotateSecret(app.db, deps(), request.adminToken!.siteId, request.params.id, request.body?.overlapHours),
  )

  app.get(
    '/webhook-endpoints/:id/deliveries',
    {
      config,
      schema: {
        tags,
        security,
        summary: "The endpoint's deliveries, newest first",
        params,
        querystring: z
          .object({
            status: z.enum(DELIVERY_STATUSES).optional(),
            limit: z.coerce.number().int().min(1).max(200).optional(),
            before: z.coerce.number().int().min(1).max(2_147_483_647).optional(),
          })
          .strict(),
        response: {
          ...securedAnswers,
          200: z.object({ items: z.array(delivery) }),
          404: message,
          422: invalid,
        },
      },
    },
    async (request) => ({
      items: await listDeliveries(app.db, request.adminToken!.siteId, request.params.id, request.query),
    }),
  )

  app.post(
    '/webhook-endpoints/:id/test',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Queues a webhook.test message to this endpoint (after anything it is still owed)',
        params,
        response: { ...securedAnswers, 202: z.object({ messageId: z.string() }), 404: message, 422: invalid },
      },
    },
    async (request, reply) => {
      const sent = await sendTestMessage(
        app.db,
        app.webhooks.deps,
        request.adminToken!.siteId,
        request.params.id,
      )
      return reply.code(202).send(sent)
    },
  )
}
