/**
 * The order lifecycle (issue 33, ADR 0200): what happens to an order after it is placed. Every
 * function takes the database and one input object and changes the order in one transaction
 * (order-lifecycle.write.ts: row lock, `expectVersion`, the declared transition of order.state.ts,
 * a timeline row with who did it, the customer's e-mail queued, the webhook event, version and
 * change sequence bumped), and answers the order's new summary. Refusals are DomainErrors:
 * order_not_found, order_version_mismatch, order_transition_refused (saying why),
 * refund_exceeds_refundable, shipment_exceeds_ordered, invalid.
 *
 * A cancel and a refund give money back through the injected `OrderMoney`, outside the order's
 * transaction (order-lifecycle.refunds.ts explains the three steps). Nothing here is cached in
 * the process: any number of instances share the database's row locks.
 */
import type { Db } from '../../db/client.ts'
import { orderTransition, type OrderEvent } from './order.state.ts'
import { cancelledMail, heldMail } from './orders.lifecycle-mail.ts'
import { orderEvents, type OrderRow } from './orders.tables.ts'
import {
  actorOf,
  applyChange,
  checkVersion,
  inTransaction,
  lockOrder,
  requiredText,
} from './order-lifecycle.write.ts'
import {
  quoteRefund,
  recordOutcome,
  recordThrown,
  refundableOf,
  refundLedger,
  refundOrder,
  refundSettlement,
} from './order-lifecycle.refunds.ts'
import { shipOrder } from './order-lifecycle.shipments.ts'
import {
  summaryOf,
  transitionRefused,
  type AcknowledgeInput,
  type CancelInput,
  type HoldInput,
  type OrderLifecycle,
  type OrderLifecycleDeps,
  type ReleaseInput,
  type RefundOutcome,
} from './order-lifecycle.types.ts'

export type {
  Actor,
  OrderEventRecord,
  OrderEventSink,
  OrderEventType,
  OrderLifecycle,
  OrderLifecycleDeps,
  OrderLifecycleSummary,
  OrderMoney,
  RefundOutcome,
  RefundQuote,
  RefundSettled,
} from './order-lifecycle.types.ts'

function transitionOf(order: OrderRow, event: OrderEvent) {
  const t = orderTransition({ status: order.status, heldFrom: order.heldFrom }, event)
  if (!t.ok) throw transitionRefused(t.reason, { status: order.status, version: order.version })
  return t
}

/** The idempotency key of a cancel's give-back: one per order. */
const giveBackKey = (order: OrderRow) => `order:${order.id}:cancel`

async function acknowledgeOrder(deps: OrderLifecycleDeps, db: Db, input: AcknowledgeInput) {
  const actor = actorOf(input.actor)
  const erpRef = requiredText('erpRef', input.erpRef, 100, "The ERP's reference")
  return inTransaction(deps, db, input, async (tx, site) => {
    const order = await lockOrder(tx, input)
    // The same acknowledgement again is a replay: nothing changes.
    if (order.erpRef === erpRef && order.erpAcknowledgedAt) return summaryOf(order)
    checkVersion(order, input.expectVersion)
    if (order.status === 'pending_payment' || order.status === 'payment_failed')
      throw transitionRefused(
        `An order that is ${order.status === 'pending_payment' ? 'waiting for its payment' : 'not paid (its payment failed)'} cannot be acknowledged.`,
      )
    const data = { erpRef, previousErpRef: order.erpRef }
    const changed = await applyChange(tx, deps, site, order, {
      set: { erpRef, erpAcknowledgedAt: new Date() },
      timeline: { type: 'acknowledged', actor, data },
      event: { type: 'order.updated', data },
    })
    return summaryOf(changed)
  })
}

async function holdOrder(deps: OrderLifecycleDeps, db: Db, input: HoldInput) {
  const actor = actorOf(input.actor)
  const reason = requiredText('reason', input.reason, 500, 'The reason')
  return inTransaction(deps, db, input, async (tx, site) => {
    const order = await lockOrder(tx, input, input.expectVersion)
    const t = transitionOf(order, 'hold')
    const data = { reason, from: order.status }
    const changed = await applyChange(tx, deps, site, order, {
      set: { status: t.to, heldFrom: t.heldFrom, holdReason: reason },
      timeline: { type: 'held', actor, data },
      event: { type: 'order.held', data },
      mail: (site, o, row) => heldMail(site, o, row.siteOrigin),
    })
    return summaryOf(changed)
  })
}

async function releaseOrder(deps: OrderLifecycleDeps, db: Db, input: ReleaseInput) {
  const actor = actorOf(input.actor)
  return inTransaction(deps, db, input, async (tx, site) => {
    const order = await lockOrder(tx, input, input.expectVersion)
    const t = transitionOf(order, 'release')
    const data = { to: t.to, holdReason: order.holdReason }
    const changed = await applyChange(tx, deps, site, order, {
      set: { status: t.to, heldFrom: null, holdReason: null },
      timeline: { type: 'released', actor, data },
      event: { type: 'order.released', data },
    })
    return summaryOf(changed)
  })
}

/**
 * Cancels an order nothing of which was shipped (ADR 0200: after a parcel, the rest is refunded,
 * not cancelled) and gives its money back through `OrderMoney.giveBackAll`. The cancel commits
 * first; the give-back's outcome is recorded after. If the money could not be asked, the order
 * stays cancelled with the give-back open on its timeline: cancelling it again asks again (same key).
 */
async function cancelOrder(deps: OrderLifecycleDeps, db: Db, input: CancelInput) {
  const actor = actorOf(input.actor)
  const reason = requiredText('reason', input.reason, 500, 'The reason')
  const step = await inTransaction(deps, db, input, async (tx, site) => {
    const order = await lockOrder(tx, input)
    const ledger = await refundLedger(tx, order.id)
    const key = giveBackKey(order)
    if (order.status === 'cancelled' && ledger.requests.has(key) && !ledger.outcomes.has(key))
      return { order, key, retry: true }
    checkVersion(order, input.expectVersion)
    const t = transitionOf(order, 'cancel')
    const owed = order.paymentStatus !== 'voided' && order.paymentStatus !== 'refunded'
    const data = { reason, from: order.status }
    const changed = await applyChange(tx, deps, site, order, {
      set: { status: t.to, heldFrom: null, holdReason: null, cancelReason: reason },
      timeline: { type: 'cancelled', actor, data },
      event: { type: 'order.cancelled', data },
      mail: (site, o, row) => cancelledMail(site, o, row.siteOrigin),
    })
    if (owed)
      await tx.insert(orderEvents).values({
        orderId: order.id,
        type: 'refund_requested',
        actorKind: actor.kind,
        actorName: actor.name,
        data: { idempotencyKey: key, amountMinor: refundableOf(order, ledger), reason, kind: 'give_back' },
      })
    return { order: changed, key, retry: owed }
  })
  if (!step.retry) return summaryOf(step.order)
  let outcome: RefundOutcome
  try {
    outcome = await deps.money.giveBackAll({
      orderId: String(step.order.id),
      idempotencyKey: step.key,
      reason,
      actor,
    })
  } catch (error) {
    // The cancel stands; the give-back's failure is on the timeline and a person is told.
    return inTransaction(deps, db, input, async (tx, site) =>
      summaryOf(await recordThrown(tx, deps, site, await lockOrder(tx, input), step.key, error, actor)),
    )
  }
  return inTransaction(deps, db, input, async (tx, site) =>
    summaryOf(await recordOutcome(tx, deps, site, await lockOrder(tx, input), step.key, outcome, actor)),
  )
}

/** The lifecycle with its money seam, its webhook sink and what its e-mails need. */
export function createOrderLifecycle(deps: OrderLifecycleDeps): OrderLifecycle {
  return {
    acknowledgeOrder: (db, input) => acknowledgeOrder(deps, db, input),
    holdOrder: (db, input) => holdOrder(deps, db, input),
    releaseOrder: (db, input) => releaseOrder(deps, db, input),
    shipOrder: (db, input) => shipOrder(deps, db, input),
    cancelOrder: (db, input) => cancelOrder(deps, db, input),
    quoteRefund: (db, input) => quoteRefund(db, input),
    refundOrder: (db, input) => refundOrder(deps, db, input),
    onRefundSettled: refundSettlement(deps),
  }
}
