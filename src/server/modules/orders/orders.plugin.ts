/**
 * The orders module in the app: `app.orders` (orders once placed) and `app.placement` (the
 * placement workflow), decorated by app.ts; and, once the payments module is registered, its
 * hooks on orders and on money taken without an order. The payments module imports neither
 * orders nor checkout: it calls these hooks, wired here.
 */
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import type { Db } from '../../db/client.ts'
import { DomainError } from '../../lib/domain-error.ts'
import { checkOrderMachine } from './order.state.ts'
import {
  createOrderLifecycle,
  type OrderEventSink,
  type OrderLifecycle,
  type OrderMoney,
  type RefundSettled,
} from './order-lifecycle.ts'
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
    /** What happens to an order after it is placed: hold, ship, cancel, refund (ADR 0200) */
    orderLifecycle: OrderLifecycle
  }
}

/** Until the payments module's refund ledger is wired (issue 33), no money can be given back. */
const refundsUnavailable: OrderMoney = {
  refund: () => Promise.reject(new DomainError('order_transition_refused', 'Refunds are not available yet.')),
  giveBackAll: () =>
    Promise.reject(new DomainError('order_transition_refused', 'Refunds are not available yet.')),
}

/** Until the webhooks module's outbox is wired, order events go nowhere. */
const noOrderEvents: OrderEventSink = async () => {}

/**
 * The app's order lifecycle: its money seam and webhook sink are the given ones, or (until
 * app.ts hands the real ones) a money seam that refuses and a sink that records nothing. The
 * state machine proves itself first (a fault stops the start). Holds nothing in the process.
 */
export function orderLifecycleFor(
  app: FastifyInstance,
  db: Db,
  seams: { money?: OrderMoney; events?: OrderEventSink } = {},
): OrderLifecycle {
  checkOrderMachine()
  const events = seams.events ?? noOrderEvents
  // Placement and pending settlements announce `order.placed` through the same sink.
  app.orders.events = events
  return createOrderLifecycle({
    db,
    money: seams.money ?? refundsUnavailable,
    events,
    mail: {
      site: (siteId) => app.sites.byId(siteId),
      present: (executor, row) => app.orders.present(executor, row),
    },
  })
}

export const ordersPaymentHooks = fp(
  async (app: FastifyInstance) => {
    // A paid attempt whose browser never came back: the reconciler places its order (ADR 0071).
    app.payments.unclaimedResolver = unclaimedPaymentResolver(app)
    // A pending order moves on when its payment settles or fails (same transaction).
    app.payments.onClaimedSettled = pendingOrderSettlement(app)
    // A pending refund settled later: its timeline row, payment status and e-mail (ADR 0200).
    Object.assign(app.payments, {
      onRefundSettled: app.orderLifecycle.onRefundSettled satisfies RefundSettled,
    })
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
