import Fastify from 'fastify'
import { describe, expect, it } from 'vitest'
import { lazySerializerFactory, lazyValidatorFactory } from './lazy-schema-compilers.ts'

function appWithLazyCompilers() {
  const app = Fastify({
    schemaController: {
      compilersFactory: { buildValidator: lazyValidatorFactory, buildSerializer: lazySerializerFactory },
    },
  })
  app.post(
    '/echo',
    {
      schema: {
        body: {
          type: 'object',
          required: ['name'],
          properties: { name: { type: 'string', minLength: 2 }, email: { type: 'string', format: 'email' } },
        },
        response: { 200: { type: 'object', properties: { name: { type: 'string' } } } },
      },
    },
    async (request) => ({ ...(request.body as object), secret: 'not in the response schema' }),
  )
  return app
}

describe('schema compilers loaded on first use', () => {
  it('rejects a body that breaks the schema with the same 400 answer as the defaults', async () => {
    const app = appWithLazyCompilers()
    const res = await app.inject({ method: 'POST', url: '/echo', payload: { name: 'x' } })
    expect(res.statusCode).toBe(400)
    expect(res.json().message).toBe('body/name must NOT have fewer than 2 characters')
    const format = await app.inject({ method: 'POST', url: '/echo', payload: { name: 'xy', email: 'no' } })
    expect(format.statusCode).toBe(400)
    expect(format.json().message).toBe('body/email must match format "email"')
    await app.close()
  })

  it('accepts a valid body and serializes only what the response schema names', async () => {
    const app = appWithLazyCompilers()
    const res = await app.inject({ method: 'POST', url: '/echo', payload: { name: 'Ann' } })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ name: 'Ann' })
    // Compiled once: a second request answers the same.
    const again = await app.inject({ method: 'POST', url: '/echo', payload: { name: 'Bob' } })
    expect(again.json()).toEqual({ name: 'Bob' })
    await app.close()
  })
})
