/**
 * The rules of outbound webhooks, pure (no clock, no database; ADR 0230): the event types, what a
 * delivery may become and on which outcome, the retry schedule, and when an endpoint that keeps
 * failing is disabled.
 *
 *   pending ─┬─ succeeded ─> delivered
 *            ├─ failed ────> failed ─┬─ succeeded ─> delivered
 *            │                       └─ failed ────> failed (retried on the schedule)
 *            └─ abandon ───> abandoned  (also from failed: a person chose to skip it)
 *
 * `delivered` and `abandoned` are final: a late answer from a lease that ran out cannot reopen
 * them. pending and failed are "undelivered": an endpoint's oldest undelivered message blocks the
 * ones after it, so each endpoint receives its messages in order.
 */
import type { DeliveryStatus } from './webhooks.tables.ts'

/** What the order lifecycle announces (contracts: `OrderEventSink`). */
export const ORDER_EVENT_TYPES = [
  'order.placed',
  'order.updated',
  'order.held',
  'order.released',
  'order.shipped',
  'order.cancelled',
  'order.refunded',
  'payment.needs_attention',
] as const
export type OrderEventType = (typeof ORDER_EVENT_TYPES)[number]

/** Sent only to the one endpoint a person tests (`POST /webhook-endpoints/{id}/test`). */
export const TEST_EVENT_TYPE = 'webhook.test'

export type DeliveryEvent = 'succeeded' | 'failed' | 'abandon'

export const DELIVERY_TRANSITIONS: Readonly<
  Record<DeliveryStatus, Partial<Record<DeliveryEvent, DeliveryStatus>>>
> = {
  pending: { succeeded: 'delivered', failed: 'failed', abandon: 'abandoned' },
  failed: { succeeded: 'delivered', failed: 'failed', abandon: 'abandoned' },
  delivered: {},
  abandoned: {},
}

/** The statuses a delivery may still leave (the rows the sender looks at). */
export const UNDELIVERED: readonly DeliveryStatus[] = ['pending', 'failed']

/** The status after `event`, or null when the declared table refuses it. */
export function nextDeliveryStatus(status: DeliveryStatus, event: DeliveryEvent): DeliveryStatus | null {
  return DELIVERY_TRANSITIONS[status][event] ?? null
}

/** A 2xx answer is the only success (Standard Webhooks); a redirect is not followed. */
export function isSuccess(statusCode: number): boolean {
  return statusCode >= 200 && statusCode <= 299
}

const SECOND = 1000
const MINUTE = 60 * SECOND
const HOUR = 60 * MINUTE

/**
 * The wait before the next attempt after the n-th failure in a row (Standard Webhooks' example
 * schedule): 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h — about 3 days 8 hours in all.
 */
export const RETRY_SCHEDULE_MS: readonly number[] = [
  5 * SECOND,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  5 * HOUR,
  10 * HOUR,
  14 * HOUR,
  20 * HOUR,
  24 * HOUR,
]

/** An endpoint failing this long (whatever the count) is disabled. */
export const MAX_FAILING_MS = 5 * 24 * HOUR

/**
 * The wait after `consecutiveFailures` failures in a row (1 after the first), with ±10 % jitter
 * so that many endpoints failing together do not come back in step.
 */
export function retryDelayMs(
  consecutiveFailures: number,
  schedule: readonly number[] = RETRY_SCHEDULE_MS,
  random: () => number = Math.random,
): number {
  const base = schedule[Math.min(Math.max(consecutiveFailures, 1), schedule.length) - 1]!
  return Math.round(base * (0.9 + 0.2 * random()))
}

export interface FailureState {
  /** Failures in a row, this one included */
  consecutiveFailures: number
  /** The first failure of the run (this one when it is the first) */
  failingSince: Date
  now: Date
  /** The endpoint's answer, or null when there was none (refused, timed out) */
  statusCode: number | null
}

/**
 * Why an endpoint is to be disabled after a failure, or null to keep retrying: 410 Gone says the
 * receiver is gone for good; otherwise every attempt of the schedule failed in a row, or the
 * endpoint has failed for `MAX_FAILING_MS`.
 */
export function disableReason(
  s: FailureState,
  schedule: readonly number[] = RETRY_SCHEDULE_MS,
  maxFailingMs: number = MAX_FAILING_MS,
): string | null {
  if (s.statusCode === 410)
    return 'The endpoint answered 410 Gone: the receiver asked for no more deliveries.'
  const since = s.failingSince.toISOString()
  if (s.consecutiveFailures > schedule.length) {
    return `Every attempt failed for ${s.consecutiveFailures} attempts in a row since ${since}.`
  }
  if (s.now.getTime() - s.failingSince.getTime() >= maxFailingMs) {
    return `The endpoint has been failing since ${since}.`
  }
  return null
}
