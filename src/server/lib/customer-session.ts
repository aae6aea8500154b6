/**
 * The visitor's basket in the session (key `cartId`), and who the visitor is: the auth module
 * owns the key `customerId` (set at login after rotating the session id, removed at logout) and
 * its `currentCustomerId(request)` is re-exported here for the basket code.
 */
import type { FastifyRequest } from 'fastify'
import { currentCustomerId } from '../modules/auth/auth.session.ts'
import { sessionOf } from './session-like.ts'

export const CART_SESSION_KEY = 'cartId'

export { currentCustomerId }

/** The id of the basket the session holds, or null. */
export function sessionCartId(request: FastifyRequest): string | null {
  const value = sessionOf(request)?.get(CART_SESSION_KEY)
  return typeof value === 'string' && value ? value : null
}

/** The basket a shared basket replaced, kept so the visitor can restore it. */
export const PREVIOUS_CART_SESSION_KEY = 'previousCartId'

export function previousCartId(request: FastifyRequest): string | null {
  const value = sessionOf(request)?.get(PREVIOUS_CART_SESSION_KEY)
  return typeof value === 'string' && value ? value : null
}

export function rememberPreviousCart(request: FastifyRequest, cartId: string | null): void {
  const session = sessionOf(request)
  if (session && previousCartId(request) !== cartId)
    session.set(PREVIOUS_CART_SESSION_KEY, cartId ?? undefined)
}

export function rememberCart(request: FastifyRequest, cartId: string | null): void {
  const session = sessionOf(request)
  if (!session) return
  if (sessionCartId(request) !== cartId) session.set(CART_SESSION_KEY, cartId ?? undefined)
}
