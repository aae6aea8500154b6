/**
 * A pending order's payment settled or failed (issue 29 defect 7). The payments module calls this
 * inside the transaction that records the provider's answer (a verified notification or the
 * reconciler), for an attempt an order claimed. The order moves by its declared transitions
 * (orders/order.state.ts), in the same transaction as the answer:
 *  - settled for exactly the order's amount and currency: placed, and its e-mails are queued;
 *  - failed: payment_failed, and the shopper is told by e-mail;
 *  - settled for another amount or currency: payment_failed too, and the attempt is marked
 *    `voiding` so the reconciler gives the money back (its next pass, after this commit).
 * Two instances receiving the same answer: the attempt row is locked by the caller and the order
 * row here, and a transition that already happened changes nothing.
 */
import { eq, sql } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import { enqueueMail } from '../mail/mail.queue.ts'
import { CUSTOMER_STATUS, orderTransition } from './order.state.ts'
import { orders } from './orders.tables.ts'
import { paymentFailedMail } from './orders.payment-mail.ts'
import { settlementEvent } from './placement.invariant.ts'
import type { ClaimedAttemptSettled } from '../payments/payments.service.ts'

export function pendingOrderSettlement(app: FastifyInstance): ClaimedAttemptSettled {
  const log = app.log.child({ job: 'pending-orders' })
  return async (tx, attempt) => {
    const [order] = await tx
      .select()
      .from(orders)
      .where(eq(orders.paymentAttemptId, attempt.id))
      .for('update')
    if (!order) return
    const confirmed =
      attempt.confirmedAmountMinor !== null && attempt.confirmedCurrency !== null
        ? { amountMinor: attempt.confirmedAmountMinor, currency: attempt.confirmedCurrency }
        : null
    const event = settlementEvent(
      { total: order.totalIncVat, currency: order.currency },
      { state: attempt.state, confirmed },
    )
    if (!event) return
    const t = orderTransition(order.status, event)
    if (!t.ok) return
    // The lifecycle's bookkeeping (ADR 0200): version and change sequence bumped, the customer
    // word derived, and the provider's word on the order's timeline, in this same transaction.
    const [moved] = await tx
      .update(orders)
      .set({
        status: t.to,
        maginusStatus: CUSTOMER_STATUS[t.to],
        ...(t.to === 'placed' ? { paymentStatus: 'paid' as const } : {}),
        version: sql`${orders.version} + 1`,
        changeSeq: sql`nextval('order_change_seq')`,
        changeXid: sql`pg_current_xact_id()`,
        updatedAt: sql`now()`,
      })
      .where(eq(orders.id, order.id))
      .returning()
    await app.orders.recordWritten(
      tx,
      moved!,
      { kind: 'provider', name: attempt.method },
      { event, attempt: attempt.id, confirmed },
    )
    const site = await app.sites.byId(order.siteId)
    if (!site) return
    const data = await app.orders.present(tx, moved!)
    if (t.to === 'placed') {
      await app.orders.queueMails(tx, site, data, order.siteOrigin, moved!)
      log.info({ order: order.orderNumber, attempt: attempt.id }, 'pending order placed: its payment settled')
      return
    }
    await enqueueMail(tx, [
      {
        dedupeKey: `order:${order.id}:payment-failed`,
        message: paymentFailedMail(site, data, order.siteOrigin),
      },
    ])
    if (attempt.state === 'captured' || attempt.state === 'authorised') {
      // Money taken, but not the order's amount: nothing is ordered and it is given back. The
      // attempt's declared step (order_placed -> voiding), under its row lock, in this transaction.
      await app.payments.markVoiding(attempt.id, `order ${order.orderNumber}: settled for another amount`, {
        claimed: true,
        executor: tx,
      })
      log.error(
        { order: order.orderNumber, attempt: attempt.id, confirmed },
        'pending order settled for another amount: payment failed, money being given back',
      )
    } else log.warn({ order: order.orderNumber, attempt: attempt.id }, 'pending order payment failed')
  }
}
