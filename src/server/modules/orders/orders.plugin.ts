/**
 * The orders module in the app: `app.orders` (orders once placed) and `app.placement` (the
 * placement workflow), decorated by app.ts; and, once the payments module is registered, its
 * hooks on orders and on money taken without an order. The payments module imports neither
 * orders nor checkout: it calls these hooks, wired here.
 */
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import type { OrdersService } from './orders.service.ts'
import type { OrderPlacement } from './placement.workflow.ts'
import { pendingOrderSettlement } from './pending-orders.ts'
import { unclaimedPaymentResolver } from './unclaimed-payments.ts'

declare module 'fastify' {
  interface FastifyInstance {
    /** Orders once placed: who sees them, their presentation, e-mails, feedback */
    orders: OrdersService
    /** Placing an order, once (orders/placement.workflow.ts) */
    placement: OrderPlacement
  }
}

export const ordersPaymentHooks = fp(
  async (app: FastifyInstance) => {
    // A paid attempt whose browser never came back: the reconciler places its order (ADR 0071).
    app.payments.unclaimedResolver = unclaimedPaymentResolver(app)
    // A pending order moves on when its payment settles or fails (same transaction).
    app.payments.onClaimedSettled = pendingOrderSettlement(app)
    // A refused order's payment is given back at once (issue 29: the money invariant).
    app.placement.payments = app.payments
    app.placement.onGivenBack = (attempt, resolution) =>
      app.log[resolution === 'voided' ? 'warn' : 'error'](
        { attempt, resolution },
        resolution === 'voided'
          ? 'payment given back: its order was refused'
          : 'payment of a refused order not given back yet: the reconciler retries, or a person refunds it',
      )
  },
  { name: 'shop-orders-payment-hooks', dependencies: ['shop-payments'] },
)
