/**
 * The checkout's order form read from a request body: the checked form, or null after answering
 * 422 with a message per field (nothing written). Complete Order and the card methods' pre-order
 * calls (sagepay, paya) check the same form the same way. `placeInputOf` is the one place that
 * reads, from the request, who is placing an order and with which basket.
 */
import type { FastifyReply, FastifyRequest } from 'fastify'
import { fieldErrors } from '../../../shared/cart.schemas.ts'
import { CHECKOUT_TEXT, orderFormSchema, type OrderForm } from '../../../shared/checkout.ts'
import { currentCustomerId } from '../auth/auth.session.ts'
import { sessionCartId } from '../../lib/customer-session.ts'
import { lastOrderOf } from '../../lib/last-order.ts'
import { siteBaseUrl } from '../sites/site-url.ts'
import type { Site } from '../sites/sites.service.ts'
import type { PlaceInput } from '../orders/placement.workflow.ts'

export function parseOrderForm(request: FastifyRequest, reply: FastifyReply): OrderForm | null {
  const parsed = orderFormSchema.safeParse(request.body ?? {})
  if (parsed.success) return parsed.data
  const errors = fieldErrors(parsed.error)
  void reply
    .code(422)
    .send({ message: Object.values(errors)[0]?.[0] ?? CHECKOUT_TEXT.somethingWrong, errors })
  return null
}

/** The session's side of an order's placement: the site's origin, the basket, the last order, the customer. */
export function placeInputOf(
  request: FastifyRequest,
  site: Site,
): Pick<PlaceInput, 'site' | 'baseUrl' | 'sessionCartId' | 'lastOrder' | 'customerId'> {
  return {
    site,
    baseUrl: siteBaseUrl(request),
    sessionCartId: sessionCartId(request),
    lastOrder: lastOrderOf(request),
    customerId: currentCustomerId(request),
  }
}
