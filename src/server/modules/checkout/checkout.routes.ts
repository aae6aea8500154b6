/**
 * The checkout calls (spec §7). `POST /checkout/complete` places the order: JSON in, JSON out.
 *  200 `{ order, redirect, force_logout }`: placed now, or placed by an earlier submit of the
 *      same basket (a replay answers the same order);
 *  409 `{ message, warning, cart }`: the basket's total or delivery moved; nothing was ordered;
 *  422 `{ message, errors }` (and `redirect: '/cart'` for an empty basket); 404 for an id that is
 *  not the customer's.
 * A guest is never logged in: the session remembers only its last order (`checkout.lastOrder`).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { fieldErrors } from '../../../shared/cart.schemas.ts'
import { CHECKOUT_TEXT, orderFormSchema } from '../../../shared/checkout.ts'
import { baseUrlOf } from '../../app.ts'
import { currentCustomerId, rememberCart, sessionCartId } from '../../lib/customer-session.ts'
import { sessionGet, sessionSet } from '../auth/auth.session.ts'
import { BOT_FIELD } from '../auth/bot-check.ts'
import { CheckoutRefusal, type LastOrder, type Placed, type PlaceInput } from './checkout.service.ts'

export const LAST_ORDER_KEY = 'checkout.lastOrder'

export function lastOrderOf(request: FastifyRequest): LastOrder | null {
  const v = sessionGet<LastOrder>(request, LAST_ORDER_KEY)
  return v && typeof v.orderId === 'number' && typeof v.cartRef === 'string' ? v : null
}

function refused(reply: FastifyReply, err: CheckoutRefusal) {
  switch (err.kind) {
    case 'not_found':
      return reply.code(404).send({ message: 'Not Found' })
    case 'empty':
      return reply
        .code(422)
        .send({ message: err.message, errors: { cart: [err.message] }, redirect: '/cart' })
    case 'moved':
      return reply.code(409).send({ message: err.message, warning: err.message, cart: err.cart })
    default:
      return reply.code(422).send({ message: err.message, errors: err.errors })
  }
}

export async function checkoutRoutes(app: FastifyInstance) {
  const checkout = app.checkout

  function answer(request: FastifyRequest, reply: FastifyReply, placed: Placed) {
    // The basket is forgotten; the session keeps only what Order Complete needs.
    if (sessionCartId(request) === placed.cartRef) rememberCart(request, null)
    sessionSet(request, LAST_ORDER_KEY, {
      orderId: placed.order.id,
      orderNumber: placed.order.OrderNumber,
      cartRef: placed.cartRef,
    } satisfies LastOrder)
    return reply.send({
      order: placed.order,
      redirect: `/checkout/complete/${placed.order.OrderNumber}`,
      // A guest's browser forgets any customer it had (§6); a guest is never logged in here.
      force_logout: currentCustomerId(request) === null,
    })
  }

  app.post(
    '/checkout/complete',
    { config: { rateLimit: { max: 60, timeWindow: 60_000 } } },
    async (request, reply) => {
      const site = request.site
      if (!site) return reply.callNotFound()
      const parsed = orderFormSchema.safeParse(request.body ?? {})
      if (!parsed.success) {
        const errors = fieldErrors(parsed.error)
        return reply
          .code(422)
          .send({ message: Object.values(errors)[0]?.[0] ?? CHECKOUT_TEXT.somethingWrong, errors })
      }
      const key = request.headers['idempotency-key']
      const input: PlaceInput = {
        site,
        baseUrl: baseUrlOf(request),
        sessionCartId: sessionCartId(request),
        lastOrder: lastOrderOf(request),
        customerId: currentCustomerId(request),
        form: parsed.data,
        idempotencyKey: typeof key === 'string' && /^[\w-]{8,100}$/.test(key) ? key : null,
      }
      try {
        // A replay first: an honest retry must not fail on its already-used bot-check token.
        const replay = await checkout.replay(input)
        if (replay) return answer(request, reply, replay)
        const checker = app.auth.botCheck(site)
        if (checker) {
          const token = (request.body as Record<string, unknown>)[BOT_FIELD]
          const verdict = await checker.verify(typeof token === 'string' ? token : undefined, request.ip)
          if (!verdict.ok)
            return reply
              .code(422)
              .send({ message: verdict.message, errors: { [BOT_FIELD]: [verdict.message] } })
        }
        return answer(request, reply, await checkout.place(input))
      } catch (err) {
        if (err instanceof CheckoutRefusal) return refused(reply, err)
        throw err
      }
    },
  )
}
