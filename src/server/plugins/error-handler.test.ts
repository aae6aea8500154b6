import Fastify from 'fastify'
import { describe, expect, it } from 'vitest'
import { DomainError, type DomainCode } from '../lib/domain-error.ts'
import { domainAnswer, installErrorHandler, MESSAGES } from './error-handler.ts'

const cart = { id: 'cart-1', items: [] }

/** Each code, the error that carries it, and the answer the checkout page expects. */
const CASES: { code: DomainCode; error: DomainError; status: number; body: Record<string, unknown> }[] = [
  {
    code: 'not_found',
    error: new DomainError('not_found', 'no such address'),
    status: 404,
    body: { message: 'Not Found' },
  },
  {
    code: 'invalid',
    error: new DomainError('invalid', 'Enter a postcode.', {
      'shipping_address.postcode': ['Enter a postcode.'],
    }),
    status: 422,
    body: { message: 'Enter a postcode.', errors: { 'shipping_address.postcode': ['Enter a postcode.'] } },
  },
  {
    code: 'empty_basket',
    error: new DomainError('empty_basket', 'Your basket is empty.'),
    status: 422,
    body: {
      message: 'Your basket is empty.',
      errors: { cart: ['Your basket is empty.'] },
      redirect: '/cart',
    },
  },
  {
    code: 'basket_moved',
    error: new DomainError('basket_moved', 'The total changed.', {}, { cart }),
    status: 409,
    body: { message: 'The total changed.', warning: 'The total changed.', cart },
  },
  {
    code: 'payment_pending',
    error: new DomainError(
      'payment_pending',
      'Confirming…',
      {},
      { message: 'Confirming…', status: 'paymentPending' },
    ),
    status: 202,
    body: { message: 'Confirming…', status: 'paymentPending' },
  },
  {
    code: 'payment_declined',
    error: new DomainError('payment_declined', 'Declined', {}, { message: 'Declined', retry: true }),
    status: 402,
    body: { message: 'Declined', retry: true },
  },
  {
    code: 'payment_not_found',
    error: new DomainError('payment_not_found', 'Check failed', {}, { message: 'Check failed' }),
    status: 404,
    body: { message: 'Check failed' },
  },
  {
    code: 'payment_moved',
    error: new DomainError('payment_moved', 'The total changed.', {}, { warning: 'The total changed.' }),
    status: 409,
    body: { message: 'The total changed.', warning: 'The total changed.' },
  },
  {
    code: 'payment_invalid',
    error: new DomainError(
      'payment_invalid',
      'Card refused',
      {},
      { errors: { card_identifier: ['Card refused'] } },
    ),
    status: 422,
    body: { message: 'Card refused', errors: { card_identifier: ['Card refused'] } },
  },
  {
    code: 'payment_in_progress',
    error: new DomainError('payment_in_progress', 'This basket has already been paid for.'),
    status: 409,
    body: { message: 'This basket has already been paid for.' },
  },
  {
    code: 'too_many_attempts',
    error: new DomainError('too_many_attempts', 'Too many payment attempts for this basket.'),
    status: 429,
    body: { message: 'Too many payment attempts for this basket.' },
  },
  {
    code: 'provider_unavailable',
    error: new DomainError('provider_unavailable', 'Error updating shipping options.', {}, { cart }),
    status: 502,
    body: { message: 'Error updating shipping options.', cart },
  },
]

async function appThrowing(error: unknown) {
  const app = Fastify({ logger: false })
  installErrorHandler(app, {
    isDev: false,
    renderErrorPage: (_request, reply, status, message) =>
      reply.code(status).send({ page: 'Error', message }),
  })
  app.post('/boom', async () => {
    throw error
  })
  await app.ready()
  return app
}

describe('the error handler', () => {
  it.each(CASES)(
    'answers $code with $status and the body the page reads',
    async ({ error, status, body }) => {
      expect(domainAnswer(error)).toEqual({ status, body })
      const app = await appThrowing(error)
      const res = await app.inject({ method: 'POST', url: '/boom', headers: { accept: 'application/json' } })
      expect(res.statusCode).toBe(status)
      expect(res.json()).toEqual(body)
      await app.close()
    },
  )

  it('sends the error’s own message even when what else it carries names another', async () => {
    const error = new DomainError(
      'payment_declined',
      'Declined. Your payment was returned.',
      {},
      {
        message: 'Declined',
        status: 'paypalRestart',
      },
    )
    expect(domainAnswer(error).body).toEqual({
      message: 'Declined. Your payment was returned.',
      status: 'paypalRestart',
    })
  })

  it('answers a domain error as JSON even to a request that accepts a page', async () => {
    const app = await appThrowing(new DomainError('empty_basket', 'Your basket is empty.'))
    const res = await app.inject({ method: 'POST', url: '/boom', headers: { accept: 'text/html' } })
    expect(res.statusCode).toBe(422)
    expect(res.json()).toMatchObject({ redirect: '/cart' })
    await app.close()
  })

  it('answers an unknown error with 500 and the generic message, never its own text', async () => {
    const app = await appThrowing(new Error('relation "orders" does not exist'))
    const res = await app.inject({ method: 'POST', url: '/boom', headers: { accept: 'application/json' } })
    expect(res.statusCode).toBe(500)
    expect(res.json()).toEqual({ message: MESSAGES.server })
    await app.close()
  })
})

describe('the error handler while the database is away', () => {
  const unavailable = [
    Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
    Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
    new Error('Connection terminated unexpectedly'),
    new Error('Failed query: select 1', {
      cause: Object.assign(new Error('the database system is starting up'), { code: '57P03' }),
    }),
    // A transaction cut by a database restart: its rollback fails on the broken connection.
    new Error('Failed query: rollback', {
      cause: new Error('Client has encountered a connection error and is not queryable'),
    }),
  ]

  it.each(unavailable.map((error) => ({ error, text: error.message })))(
    'answers "$text" with 503, a Retry-After and its own message',
    async ({ error }) => {
      const app = await appThrowing(error)
      const res = await app.inject({ method: 'POST', url: '/boom', headers: { accept: 'application/json' } })
      expect(res.statusCode).toBe(503)
      expect(res.headers['retry-after']).toBe('5')
      expect(res.json()).toEqual({ message: MESSAGES.unavailable })
      await app.close()
    },
  )

  it('still answers a query the database refused for another reason with 500', async () => {
    const app = await appThrowing(Object.assign(new Error('duplicate key value'), { code: '23505' }))
    const res = await app.inject({ method: 'POST', url: '/boom', headers: { accept: 'application/json' } })
    expect(res.statusCode).toBe(500)
    await app.close()
  })
})
