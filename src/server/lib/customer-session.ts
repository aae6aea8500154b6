/**
 * Who the visitor is, from the session. The one place that reads the logged-in customer: the
 * auth module sets the session key `customerId` at login (after rotating the session id) and
 * removes it at logout; everything else asks `currentCustomerId(request)`.
 */
import type { FastifyRequest } from 'fastify'

export const CUSTOMER_SESSION_KEY = 'customerId'
export const CART_SESSION_KEY = 'cartId'

interface SessionLike {
  get(key: string): unknown
  set(key: string, value: unknown): void
}

function sessionOf(request: FastifyRequest): SessionLike | null {
  return ((request as { session?: SessionLike }).session as SessionLike | undefined) ?? null
}

export function currentCustomerId(request: FastifyRequest): number | null {
  const value = sessionOf(request)?.get(CUSTOMER_SESSION_KEY)
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : null
}

/** The id of the basket the session holds, or null. */
export function sessionCartId(request: FastifyRequest): string | null {
  const value = sessionOf(request)?.get(CART_SESSION_KEY)
  return typeof value === 'string' && value ? value : null
}

export function rememberCart(request: FastifyRequest, cartId: string | null): void {
  const session = sessionOf(request)
  if (!session) return
  if (sessionCartId(request) !== cartId) session.set(CART_SESSION_KEY, cartId ?? undefined)
}
