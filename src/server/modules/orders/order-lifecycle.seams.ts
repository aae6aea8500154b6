/**
 * The lifecycle's seams before the real ones are wired (issue 33): a money seam that refuses
 * with a clear message (the payments module's refund ledger replaces it) and a webhook sink that
 * records nothing (the webhooks module's outbox replaces it). Used by the app and the CLI.
 */
import { DomainError } from '../../lib/domain-error.ts'
import type { OrderEventSink, OrderMoney } from './order-lifecycle.types.ts'

const unavailable = () =>
  Promise.reject(new DomainError('order_transition_refused', 'Refunds are not available yet.'))

export const refundsUnavailable: OrderMoney = { refund: unavailable, giveBackAll: unavailable }

export const noOrderEvents: OrderEventSink = async () => {}
