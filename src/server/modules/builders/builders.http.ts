/** Request helpers shared by the builders' routes (the visitor's basket, JSON failures). */
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { z } from 'zod'
import { fieldErrors } from '../../../shared/cart.schemas.ts'
import { siteBaseUrl } from '../sites/site-url.ts'
import { currentCustomerId, rememberCart, sessionCartId } from '../../lib/customer-session.ts'
import type { CartContext, CartResult } from '../cart/cart.service.ts'

export const NOT_FOUND = { message: 'Not Found' }

export function cartContext(request: FastifyRequest): CartContext {
  return {
    site: request.site!,
    cartId: sessionCartId(request),
    baseUrl: siteBaseUrl(request),
    customerId: currentCustomerId(request),
  }
}

/** A positive id from a path or query value ('12', '12.svg'), else null. */
export function idFrom(value: unknown, suffix = ''): number | null {
  if (typeof value !== 'string') return null
  const match = new RegExp(`^([1-9]\\d{0,8})${suffix.replace('.', '\\.')}$`).exec(value)
  return match ? Number(match[1]) : null
}

export function parseBody<S extends z.ZodType>(
  schema: S,
  body: unknown,
  reply: FastifyReply,
  rename: (key: string) => string = (key) => key,
): z.output<S> | null {
  const result = schema.safeParse(body ?? {})
  if (result.success) return result.data
  const errors: Record<string, string[]> = {}
  for (const [key, messages] of Object.entries(fieldErrors(result.error))) {
    ;(errors[rename(key)] ??= []).push(...messages)
  }
  void reply
    .code(422)
    .send({ message: Object.values(errors)[0]?.[0] ?? 'The given data was invalid.', errors })
  return null
}

/** Answers a basket change (its cart), 404 for what is not the visitor's, 422 for a refusal. */
export async function answerCart(
  request: FastifyRequest,
  reply: FastifyReply,
  run: () => Promise<CartResult>,
  extra: Record<string, unknown> = {},
  onError?: (err: unknown) => { status: number; body: unknown } | null,
): Promise<FastifyReply> {
  try {
    const result = await run()
    if (result.cartId) rememberCart(request, result.cartId)
    return reply.send({ ...result.cart, ...extra })
  } catch (err) {
    const mapped = onError?.(err)
    if (mapped) return reply.code(mapped.status).send(mapped.body)
    throw err
  }
}

/** Headers for an SVG served from the shop's own data: never a document that can run anything. */
export const SVG_HEADERS = {
  'content-type': 'image/svg+xml; charset=utf-8',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
  'x-content-type-options': 'nosniff',
  'cache-control': 'private, no-cache',
} as const
