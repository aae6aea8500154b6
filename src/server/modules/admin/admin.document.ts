/**
 * The back-office API's OpenAPI 3.1 document, written by `@fastify/swagger` from the zod schemas
 * the routes validate with (ADR 0220), and the scope's error handler that keeps the API's 422
 * shape (`{message, errors: [{row, field, message}]}`) for a value the schemas refuse.
 */
import type { FastifyDynamicSwaggerOptions, SwaggerTransform } from '@fastify/swagger'
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { hasZodFastifySchemaValidationErrors, jsonSchemaTransform } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { DomainError } from '../../lib/domain-error.ts'
import { ImportError, type RowError } from './admin.catalog.ts'

export const INVALID = 'The request was not applied: some values are invalid.'

export function invalid(reply: FastifyReply, errors: RowError[]) {
  return reply.code(422).send({ message: INVALID, errors })
}

/**
 * A schema error's place as the API reports it: inside a batch (`items.3.price`) the row and the
 * field within the row (`{row: 3, field: 'price'}`), as the batch services report their rows;
 * elsewhere row 0 and the dotted path (or the part of the request, when the whole part is wrong).
 */
export function placeOf(path: string[], part: string): { row: number; field: string } {
  if (path[0] === 'items' && path.length >= 2 && /^\d+$/.test(path[1]!))
    return { row: Number(path[1]), field: path.slice(2).join('.') || 'row' }
  return { row: 0, field: path.join('.') || part }
}

const PART: Record<string, string> = {
  body: 'body',
  querystring: 'query',
  params: 'path',
  headers: 'headers',
}

/** The admin scope's error handler; anything it does not know goes on to the app's handler. */
export function adminErrorHandler(error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  if (hasZodFastifySchemaValidationErrors(error)) {
    const part = PART[error.validationContext ?? 'body'] ?? 'body'
    const errors = error.validation.map((v) => ({
      ...placeOf(v.instancePath.split('/').filter(Boolean), part),
      message: v.message ?? 'is invalid',
    }))
    // A header is not a value of the change: an ill-formed one is a bad request.
    if (part === 'headers')
      return reply
        .code(400)
        .send({ message: errors.map((e) => `${e.field}: ${e.message}`).join('; '), errors })
    return invalid(reply, errors)
  }
  if (error instanceof ImportError) return invalid(reply, error.errors)
  // A service's 'invalid' refusal, in the API's 422 shape.
  if (error instanceof DomainError && error.code === 'invalid')
    return invalid(
      reply,
      Object.entries(error.fields).flatMap(([field, messages]) =>
        messages.map((message) => ({ row: 0, field, message })),
      ),
    )
  throw error
}

/**
 * Each body schema's example. Zod leaves `examples` out of an input schema that transforms a
 * value (a promotion's code is upper-cased), so the document's examples are added from here.
 */
const EXAMPLES = new WeakMap<object, unknown>()

/** A schema with the one example the document shows for it. */
export function withExample<T extends z.ZodType>(schema: T, example: unknown): T {
  const described = schema.meta({ examples: [example] }) as T
  EXAMPLES.set(described, example)
  return described
}

const exampled = (json: Record<string, unknown>, schema: unknown) =>
  EXAMPLES.has(schema as object) && json.examples === undefined
    ? { ...json, examples: [EXAMPLES.get(schema as object)] }
    : json

const toJson = (schema: z.ZodType) => {
  const { $schema: _drop, ...json } = z.toJSONSchema(schema, {
    io: 'input',
    unrepresentable: 'any',
  }) as Record<string, unknown>
  return exampled(json, schema)
}

/**
 * `jsonSchemaTransform`, plus bodies given per content type (`{content: {'text/csv': {schema}}}`,
 * which Fastify validates per type and the zod transform does not read).
 */
const transform: SwaggerTransform = (input) => {
  const schema = input.schema as Record<string, unknown> | undefined
  const body = schema?.body as { content?: Record<string, { schema: z.ZodType }> } | undefined
  if (!schema || !body) return jsonSchemaTransform(input)
  if (body instanceof z.ZodType) {
    const out = jsonSchemaTransform(input) as { schema: Record<string, unknown>; url: string }
    const json = out.schema.body as Record<string, unknown>
    return { ...out, schema: { ...out.schema, body: exampled(json, body) } } as ReturnType<SwaggerTransform>
  }
  if (!body.content) return jsonSchemaTransform(input)
  const { body: _body, ...rest } = schema
  const out = jsonSchemaTransform({ ...input, schema: rest } as Parameters<SwaggerTransform>[0])
  const content = Object.fromEntries(
    Object.entries(body.content).map(([type, { schema: s }]) => [type, { schema: toJson(s) }]),
  )
  return { ...out, schema: { ...(out.schema as object), body: { content } } } as ReturnType<SwaggerTransform>
}

export const swaggerOptions: FastifyDynamicSwaggerOptions = {
  openapi: {
    openapi: '3.1.0',
    info: {
      title: 'Shop back-office API',
      version: '1',
      description:
        'Token-authenticated operations on one site (the token\'s site; send the site\'s host). Tokens: `npm run admin -- token create --site <host> --name <who>`. Writes take an `Idempotency-Key` (required for order writes) and order state changes take `If-Match: "v<version>"` (ADR 0220).',
    },
    servers: [{ url: '/api/admin/v1' }],
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
  },
  transform,
}
