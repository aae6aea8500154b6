/**
 * The checkout's order form read from a request body: the checked form, or null after answering
 * 422 with a message per field (nothing written). Complete Order and the card methods' pre-order
 * calls (sagepay, paya) check the same form the same way.
 */
import type { FastifyReply, FastifyRequest } from 'fastify'
import { fieldErrors } from '../../../shared/cart.schemas.ts'
import { CHECKOUT_TEXT, orderFormSchema, type OrderForm } from '../../../shared/checkout.ts'

export function parseOrderForm(request: FastifyRequest, reply: FastifyReply): OrderForm | null {
  const parsed = orderFormSchema.safeParse(request.body ?? {})
  if (parsed.success) return parsed.data
  const errors = fieldErrors(parsed.error)
  void reply
    .code(422)
    .send({ message: Object.values(errors)[0]?.[0] ?? CHECKOUT_TEXT.somethingWrong, errors })
  return null
}
