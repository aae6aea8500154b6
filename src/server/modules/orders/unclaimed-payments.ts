/**
 * A payment taken without an order is voided: given back through its provider, or handed to a
 * person to refund where the provider cannot. This file decides it (ADR 0071 "Paid but not
 * ordered", ADR 0118); a refused order's payment is given back at once by the placement
 * workflow's compensation (placement.workflow.ts, the pay step), and everything else is here.
 *
 * The payments-reconcile job hands every authorised or captured attempt still without an order
 * after the grace period (UNCLAIMED_PAYMENT_GRACE_MS) to this resolver, which
 *
 *  1. answers at once when the basket has its order (the browser placed it after all);
 *  2. else places the order from the basket and the checked order form kept with the attempt,
 *     through the placement workflow (its basket row lock and "order already placed" check make
 *     it exactly once, whatever the browser or another instance does at the same moment);
 *  3. else (the basket changed so the total differs, items gone, no form kept) the money is given
 *     back: placement itself gives back the payment of an order it refused (the money invariant,
 *     ADR 0118); what it did not reach is marked `voiding` here (one conditional statement, so an
 *     order that claimed it meanwhile wins) and given back through the provider; a provider that
 *     cannot leaves it `needs_attention` for a person, logged as an error.
 */
import { eq } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import { orderFormSchema } from '../../../shared/checkout.ts'
import { DomainError } from '../../lib/domain-error.ts'
import { orders } from './orders.tables.ts'
import type { PaymentAttempt, UnclaimedPaymentResolver } from '../payments/payments.service.ts'
import { BASKET_ORDER_PREFIX } from '../payments/order-ref.ts'

/**
 * Places the order of a paid attempt from the basket and the checked order form kept with it,
 * through the placement workflow (exactly once, whatever else runs at the same moment). Null when
 * the order was placed (or already was), else why it cannot be. Used by the reconciler below and
 * by the back office's 'place the order' for a payment a person is looking at.
 */
export async function placeFromPayment(
  app: FastifyInstance,
  attempt: PaymentAttempt,
  log: FastifyInstance['log'] = app.log,
): Promise<string | null> {
  if (!attempt.orderRef.startsWith(BASKET_ORDER_PREFIX)) return 'the payment is not for a basket'
  const cartRef = attempt.orderRef.slice(BASKET_ORDER_PREFIX.length)
  const kept = attempt.checkout
  if (!kept) return 'no order form was kept with the payment'
  const site = await app.sites.byId(attempt.siteId)
  if (!site) return 'the site no longer exists'
  const form = orderFormSchema.safeParse(kept.form)
  if (!form.success) return 'the kept order form is not valid any more'
  const method = app.paymentMethods.get(attempt.method)
  if (!method?.resume) return `the ${attempt.method} method cannot resume a payment`
  try {
    const placed = await app.placement.place({
      site,
      baseUrl: kept.baseUrl,
      sessionCartId: cartRef,
      lastOrder: null,
      customerId: kept.customerId,
      form: { ...form.data, cart_id: cartRef, payment_method: attempt.method },
      idempotencyKey: kept.idempotencyKey,
      resumed: { details: await method.resume(attempt) },
    })
    log.info(
      { attempt: attempt.id, order: placed.order.OrderNumber, created: placed.created },
      placed.created
        ? 'order placed by the reconciler for a payment whose browser never came back'
        : 'the paid basket already had its order',
    )
    return null
  } catch (err) {
    if (err instanceof DomainError) return err.message
    throw err
  }
}

export function unclaimedPaymentResolver(app: FastifyInstance): UnclaimedPaymentResolver {
  const log = app.log.child({ job: 'payments-reconcile' })

  const orderOf = async (cartRef: string) =>
    (await app.db.select().from(orders).where(eq(orders.cartRef, cartRef)).limit(1))[0] ?? null

  /** Why the order cannot be placed, or null when it was (or already is). */
  const place = (attempt: PaymentAttempt) => placeFromPayment(app, attempt, log)

  return async (attempt) => {
    if (!attempt.orderRef.startsWith(BASKET_ORDER_PREFIX)) {
      await app.payments.resolve(attempt.id, 'needs_attention', 'not a basket payment')
      log.error({ attempt: attempt.id }, 'paid attempt without a basket: needs a person')
      return
    }
    const cartRef = attempt.orderRef.slice(BASKET_ORDER_PREFIX.length)
    let reason = attempt.resolution === 'voiding' ? (attempt.resolutionNote ?? 'voiding') : null
    if (reason === null) {
      if (attempt.resolution === 'needs_attention') return
      if (await orderOf(cartRef)) {
        // Placed by the browser; this attempt is its order's unless an order claimed another.
        if (await app.payments.markVoiding(attempt.id, 'the basket was ordered with another payment'))
          reason = 'the basket was ordered with another payment'
        else return
      } else {
        const refused = await place(attempt)
        if (refused === null) return
        // Placement gives back the payment of an order it refused; anything it did not reach
        // (no form kept, the method cannot resume) is marked here, unless an order claimed it.
        const now = await app.payments.get(attempt.id)
        if (!now || now.resolution === 'order_placed' || now.state === 'voided') return
        if (
          now.resolution === null &&
          !(await app.payments.markVoiding(attempt.id, `order not placed: ${refused}`))
        )
          return
        reason = `order not placed: ${refused}`
      }
    }
    const after = await app.payments.voidUnclaimed(attempt.id, reason)
    if (after.resolution === 'voided')
      log.warn({ attempt: attempt.id, reason }, 'payment voided: its order could not be placed')
    else if (after.resolution === 'needs_attention')
      log.error(
        { attempt: attempt.id, method: attempt.method, note: after.resolutionNote },
        'paid attempt without an order needs a person: refund it with the provider',
      )
  }
}
