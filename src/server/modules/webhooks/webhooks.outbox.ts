/**
 * The outbox (ADR 0230): `recordWebhookEvent(tx, event)` runs inside the caller's transaction. It
 * writes the message, one delivery per enabled endpoint of the order's site that subscribes to
 * the type, and queues each endpoint's delivery job, all in that transaction: when it rolls back
 * nothing is sent, when it commits every delivery exists and a job will send it.
 */
import { and, arrayContains, asc, eq, sql } from 'drizzle-orm'
import type { Executor } from '../../db/client.ts'
import type { JobQueue } from '../../jobs/queue.ts'
import { orders } from '../orders/orders.tables.ts'
import type { OrderEventType } from './webhooks.policy.ts'
import { newMessageId } from './webhooks.signing.ts'
import { webhookDeliveries, webhookEndpoints, webhookMessages } from './webhooks.tables.ts'

/** The job that sends an endpoint's deliveries (payload `{endpointId}`), or sweeps (no payload). */
export const WEBHOOK_JOB = 'webhook-deliver'

/** The transaction lock taken before a delivery job is queued (one namespace: db/client.ts LOCKS). */
const WEBHOOK_ENQUEUE_LOCK = 7_160_230

/** One delivery job per endpoint at a time: the key makes the queue keep its messages in turn. */
export const endpointJobKey = (endpointId: string) => `endpoint:${endpointId}`

/** What the order lifecycle hands over (contracts: `OrderEventSink`). */
export interface OrderWebhookEvent {
  type: OrderEventType
  orderId: number
  orderNumber: number
  version: number
  data: Record<string, unknown>
}

export type WebhookEventSink = (tx: Executor, event: OrderWebhookEvent) => Promise<void>

export interface OutboxDeps {
  /** The app's queue (read when an event is recorded: the queue is made after this module). */
  jobs: () => Pick<JobQueue, 'enqueue' | 'wake'>
  now?: () => Date
}

export interface NewMessage {
  siteId: number
  type: string
  data: Record<string, unknown>
  order?: { id: number; number: number; version: number }
  /** Only these endpoints (a test message); otherwise every enabled subscriber of the type */
  endpointIds?: string[]
}

/** Writes one message and its deliveries, and queues the endpoints' jobs, in `tx`. */
export async function recordMessage(
  tx: Executor,
  deps: OutboxDeps,
  m: NewMessage,
): Promise<{ messageId: string; endpointIds: string[] }> {
  const now = deps.now?.() ?? new Date()
  const id = newMessageId(now)
  const body = JSON.stringify({ type: m.type, timestamp: now.toISOString(), data: m.data })
  const [message] = await tx
    .insert(webhookMessages)
    .values({
      id,
      siteId: m.siteId,
      type: m.type,
      body,
      orderId: m.order?.id ?? null,
      orderNumber: m.order?.number ?? null,
      orderVersion: m.order?.version ?? null,
      createdAt: now,
    })
    .returning({ seq: webhookMessages.seq })
  const subscribers = await tx
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(
      and(
        eq(webhookEndpoints.siteId, m.siteId),
        eq(webhookEndpoints.enabled, true),
        m.endpointIds ? undefined : arrayContains(webhookEndpoints.eventTypes, [m.type]),
      ),
    )
    // One order for every transaction's job inserts: two at once cannot deadlock on the job keys.
    .orderBy(asc(webhookEndpoints.id))
  const endpointIds = subscribers.map((s) => s.id).filter((e) => !m.endpointIds || m.endpointIds.includes(e))
  if (endpointIds.length === 0) return { messageId: id, endpointIds }
  await tx.insert(webhookDeliveries).values(
    endpointIds.map((endpointId) => ({
      messageId: id,
      endpointId,
      messageSeq: message!.seq,
      nextAttemptAt: now,
    })),
  )
  // The job keys are taken one transaction at a time: two order transactions that each record
  // two events for different endpoints would otherwise wait on each other's keys (a deadlock).
  await tx.execute(sql`select pg_advisory_xact_lock(${WEBHOOK_ENQUEUE_LOCK})`)
  const jobs = deps.jobs()
  for (const endpointId of endpointIds) {
    await jobs.enqueue(tx, WEBHOOK_JOB, { endpointId }, { key: endpointJobKey(endpointId) })
  }
  return { messageId: id, endpointIds }
}

/**
 * The lifecycle's `OrderEventSink`: `recordWebhookEvent(tx, event)`. The body is thin (Standard
 * Webhooks' advice): `{type, timestamp, data: {orderNumber, version, …event.data}}`; a receiver
 * that wants the whole order asks the integration API, and uses `version` to ignore stale news.
 */
export function createWebhookEventSink(deps: OutboxDeps): WebhookEventSink {
  return async (tx, event) => {
    const [order] = await tx
      .select({ siteId: orders.siteId })
      .from(orders)
      .where(eq(orders.id, event.orderId))
    if (!order)
      throw new Error(`webhook event ${event.type} names order ${event.orderId}, which does not exist`)
    await recordMessage(tx, deps, {
      siteId: order.siteId,
      type: event.type,
      data: { ...event.data, orderNumber: event.orderNumber, version: event.version },
      order: { id: event.orderId, number: event.orderNumber, version: event.version },
    })
  }
}
