/**
 * The order lifecycle's shared names (contracts for issue 33): who acts, what a change returns,
 * the money seam it gives money back through, and the sink its webhook events go to. The real
 * `OrderMoney` is the payments module's (payments/refunds.ts) and the real sink the webhooks
 * module's outbox; both are handed to `createOrderLifecycle` (order-lifecycle.ts) by app.ts.
 */
import type { OrderData } from '../../../shared/checkout.ts'
import type { Db, Executor, Tx } from '../../db/client.ts'
import { DomainError } from '../../lib/domain-error.ts'
import type { Site } from '../sites/sites.service.ts'
import type { FulfilmentStatus, OrderRow, OrderStatus, PaymentStatus } from './orders.tables.ts'
import type { Actor, OrderMoney, RefundOutcome, RefundSettled } from '../payments/refunds.types.ts'

/** The money seam is the payments module's (who acts, what giving money back answers). */
export type { Actor, OrderMoney, RefundOutcome, RefundSettled }

/** What every change answers: the order's new state and version. */
export interface OrderLifecycleSummary {
  number: number
  status: OrderStatus
  version: number
  paymentStatus: PaymentStatus
  fulfilmentStatus: FulfilmentStatus
}

export type OrderEventType =
  | 'order.placed'
  | 'order.updated'
  | 'order.held'
  | 'order.released'
  | 'order.shipped'
  | 'order.cancelled'
  | 'order.refunded'
  | 'payment.needs_attention'

/** An order event for webhooks, recorded inside the change's transaction. */
export interface OrderEventRecord {
  type: OrderEventType
  orderId: number
  orderNumber: number
  version: number
  data: Record<string, unknown>
}

export type OrderEventSink = (tx: Tx, event: OrderEventRecord) => Promise<void>

/** What the customer e-mails need: the order's site and the order as pages and e-mails read it. */
export interface LifecycleMail {
  site(siteId: number): Promise<Site | null>
  present(executor: Executor, order: OrderRow): Promise<OrderData>
}

export interface OrderLifecycleDeps {
  db: Db
  money: OrderMoney
  events: OrderEventSink
  mail: LifecycleMail
  /** Clock for shipment dates when none is given (tests); the database's now() otherwise */
  now?: () => Date
}

/** Which order: its number, and the site the caller may act for (an order of another site is not found). */
export interface OrderScope {
  orderNumber: number
  siteId?: number
  /**
   * Runs inside each of the call's transactions that wrote without a refusal, after its change
   * (the back office's audit row, ADR 0260: the change and its row commit together or not at all).
   */
  alsoInTransaction?: (tx: Tx) => Promise<void>
}

export interface AcknowledgeInput extends OrderScope {
  erpRef: string
  actor: Actor
  expectVersion?: number
}
export interface HoldInput extends OrderScope {
  reason: string
  actor: Actor
  expectVersion?: number
}
export interface ReleaseInput extends OrderScope {
  actor: Actor
  expectVersion?: number
}
export interface ShipInput extends OrderScope {
  shipmentRef: string
  carrier: string
  /** Absent or null: the parcel has no tracking number (the ERP's Maginus status 2) */
  trackingNumber?: string | null
  trackingUrl?: string | null
  shippedAt?: Date | string
  /** Absent: all that remains to be shipped */
  lines?: { lineId: number; quantity: number }[]
  actor: Actor
  expectVersion?: number
}
export interface CancelInput extends OrderScope {
  reason: string
  actor: Actor
  expectVersion?: number
}
export interface QuoteRefundInput extends OrderScope {
  amountMinor?: number
  lines?: { lineId: number; quantity: number }[]
}
export interface RefundQuote {
  /** What may still be given back: captured − refunded − refunds under way */
  refundableMinor: number
  /** What this refund would give back */
  amountMinor: number
  currency: string
}
export interface RefundInput extends QuoteRefundInput {
  reason: string
  idempotencyKey: string
  actor: Actor
  expectVersion?: number
}

export interface OrderLifecycle {
  acknowledgeOrder(db: Db, input: AcknowledgeInput): Promise<OrderLifecycleSummary>
  holdOrder(db: Db, input: HoldInput): Promise<OrderLifecycleSummary>
  releaseOrder(db: Db, input: ReleaseInput): Promise<OrderLifecycleSummary>
  shipOrder(db: Db, input: ShipInput): Promise<OrderLifecycleSummary>
  cancelOrder(db: Db, input: CancelInput): Promise<OrderLifecycleSummary>
  quoteRefund(db: Db, input: QuoteRefundInput): Promise<RefundQuote>
  refundOrder(db: Db, input: RefundInput): Promise<OrderLifecycleSummary>
  /** For `app.payments.onRefundSettled`: records a pending refund's settlement and its e-mail */
  onRefundSettled: RefundSettled
}

export const orderNotFound = (orderNumber: number) =>
  new DomainError('order_not_found', `There is no order ${orderNumber}.`)

export const transitionRefused = (message: string, answer: Record<string, unknown> = {}) =>
  new DomainError('order_transition_refused', message, {}, answer)

export const invalidInput = (field: string, message: string) =>
  new DomainError('invalid', message, { [field]: [message] })

export function summaryOf(row: OrderRow): OrderLifecycleSummary {
  return {
    number: row.orderNumber,
    status: row.status,
    version: row.version,
    paymentStatus: row.paymentStatus,
    fulfilmentStatus: row.fulfilmentStatus,
  }
}
