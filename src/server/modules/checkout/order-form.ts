/**
 * The checkout's order form read from a request body: the checked form, or an `invalid` domain
 * error with a message per field (nothing written; the error handler answers it). Complete Order
 * and the card methods' pre-order calls (sagepay, paya) check the same form the same way.
 * `placeInputOf` is the one place that reads, from the request, who is placing an order and with
 * which basket.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { fieldErrors } from '../../../shared/cart.schemas.ts'
import { orderFormSchema, type OrderForm } from '../../../shared/checkout.ts'
import { invalidFields } from '../../lib/domain-error.ts'
import { currentCustomerId } from '../auth/auth.session.ts'
import { sessionCartId } from '../../lib/customer-session.ts'
import { lastOrderOf } from '../../lib/last-order.ts'
import { siteBaseUrl } from '../sites/site-url.ts'
import type { Site } from '../sites/sites.service.ts'
import type { PlaceInput } from '../orders/placement.workflow.ts'

export function parseOrderForm(request: FastifyRequest): OrderForm {
  const parsed = orderFormSchema.safeParse(request.body ?? {})
  if (!parsed.success) throw invalidFields(fieldErrors(parsed.error))
  return parsed.data
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

/**
 * A card method's pre-order call (sagepay, paya): the order form checked as paid by `method`, and
 * everything placing it would check before the payment (basket, details, delivery, the re-priced
 * total), nothing written but the basket's delivery zone. Refusals are domain errors.
 */
export async function preparePayment(
  app: FastifyInstance,
  request: FastifyRequest,
  site: Site,
  method: string,
) {
  const form = { ...parseOrderForm(request), payment_method: method }
  const prepared = await app.checkout.prepare({ ...placeInputOf(request, site), form, idempotencyKey: null })
  return { form, prepared }
}
