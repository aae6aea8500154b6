/**
 * What the session remembers of the order it placed last (key `checkout.lastOrder`): Order
 * Complete shows it, a replayed submit of the same basket answers it, and a guest (never logged
 * in) may see that one order and no other. Set after placement (checkout/placed-session.ts);
 * read by every checkout call that places or prepares an order, whichever module serves it.
 */
import type { FastifyRequest } from 'fastify'
import { sessionOf } from './session-like.ts'

export const LAST_ORDER_KEY = 'checkout.lastOrder'

export interface LastOrder {
  orderId: number
  orderNumber: number
  cartRef: string
}

export function lastOrderOf(request: FastifyRequest): LastOrder | null {
  const v = sessionOf(request)?.get(LAST_ORDER_KEY) as LastOrder | null | undefined
  return v && typeof v.orderId === 'number' && typeof v.cartRef === 'string' ? v : null
}

export function rememberLastOrder(request: FastifyRequest, order: LastOrder): void {
  sessionOf(request)?.set(LAST_ORDER_KEY, order)
}
