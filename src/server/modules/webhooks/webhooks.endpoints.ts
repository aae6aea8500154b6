/**
 * The owner's side of webhooks (ADR 0230): register, list, change, enable or disable, remove an
 * endpoint, rotate its secret, list its deliveries and send it a test message. Used by the
 * back-office API and the CLI alike; knows no HTTP. Every call is scoped to one site: another
 * site's endpoint is "not found".
 */
import { and, desc, eq, inArray, lt, sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { DomainError } from '../../lib/domain-error.ts'
import { endpointJobKey, recordMessage, WEBHOOK_JOB, type OutboxDeps } from './webhooks.outbox.ts'
import { ORDER_EVENT_TYPES, TEST_EVENT_TYPE, UNDELIVERED, type OrderEventType } from './webhooks.policy.ts'
import { checkEndpointUrl, type UrlPolicy } from './webhooks.sender.ts'
import { maskSecret, newEndpointId, newSecret } from './webhooks.signing.ts'
import {
  webhookDeliveries,
  webhookEndpoints,
  webhookMessages,
  type DeliveryStatus,
  type WebhookEndpointRow,
} from './webhooks.tables.ts'

/** How an endpoint is shown: never its secret (that is shown once, at creation or rotation). */
export interface EndpointView {
  id: string
  url: string
  description: string
  eventTypes: string[]
  enabled: boolean
  disabledAt: string | null
  disabledReason: string | null
  failingSince: string | null
  consecutiveFailures: number
  /** `whsec_…abcd`: enough to tell which secret a receiver holds */
  secretHint: string
  /** Messages not yet delivered (pending, or failed and waiting for a retry) */
  undelivered: number
  createdAt: string
}

export interface DeliveryView {
  id: number
  messageId: string
  type: string
  orderNumber: number | null
  status: DeliveryStatus
  attempts: number
  nextAttemptAt: string | null
  lastAttemptAt: string | null
  lastStatusCode: number | null
  lastError: string | null
  deliveredAt: string | null
  createdAt: string
}

export interface EndpointInput {
  url: string
  description?: string
  eventTypes?: OrderEventType[]
}

export interface EndpointChange {
  url?: string
  description?: string
  eventTypes?: OrderEventType[]
  enabled?: boolean
  /** With `enabled: true`: the messages not delivered while it was off are abandoned, not sent */
  skipBacklog?: boolean
}

export interface EndpointsDeps extends OutboxDeps {
  urlPolicy: UrlPolicy
  /** Who disables by hand, for the reason shown in the endpoint ('the API', 'the command line') */
  actor?: string
}

const iso = (d: Date | null) => (d ? d.toISOString() : null)

function present(row: WebhookEndpointRow, undelivered: number): EndpointView {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    eventTypes: row.eventTypes,
    enabled: row.enabled,
    disabledAt: iso(row.disabledAt),
    disabledReason: row.disabledReason,
    failingSince: iso(row.failingSince),
    consecutiveFailures: row.consecutiveFailures,
    secretHint: maskSecret(row.secret),
    undelivered,
    createdAt: row.createdAt.toISOString(),
  }
}

function checkedUrl(raw: string, policy: UrlPolicy): string {
  const checked = checkEndpointUrl(raw, policy)
  if (!checked.ok) throw new DomainError('invalid', checked.message, { url: [checked.message] })
  return checked.url
}

function checkedTypes(types: readonly string[]): OrderEventType[] {
  const known = new Set<string>(ORDER_EVENT_TYPES)
  const unknown = types.filter((t) => !known.has(t))
  if (unknown.length) {
    const message = `Unknown event type: ${unknown.join(', ')} (known: ${ORDER_EVENT_TYPES.join(', ')}).`
    throw new DomainError('invalid', message, { eventTypes: [message] })
  }
  if (types.length === 0) {
    throw new DomainError('invalid', 'Choose at least one event type.', {
      eventTypes: ['Choose at least one event type.'],
    })
  }
  return [...new Set(types)] as OrderEventType[]
}

async function undeliveredCounts(db: Db, endpointIds: string[]): Promise<Map<string, number>> {
  if (endpointIds.length === 0) return new Map()
  const rows = await db
    .select({ endpointId: webhookDeliveries.endpointId, n: sql<number>`count(*)::int` })
    .from(webhookDeliveries)
    .where(
      and(inArray(webhookDeliveries.endpointId, endpointIds), inArray(webhookDeliveries.status, UNDELIVERED)),
    )
    .groupBy(webhookDeliveries.endpointId)
  return new Map(rows.map((r) => [r.endpointId, Number(r.n)]))
}

async function owned(db: Db, siteId: number, id: string): Promise<WebhookEndpointRow> {
  const [row] = await db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.siteId, siteId)))
  if (!row) throw new DomainError('not_found', 'No webhook endpoint has this id.')
  return row
}

export async function createEndpoint(
  db: Db,
  deps: EndpointsDeps,
  siteId: number,
  input: EndpointInput,
): Promise<{ endpoint: EndpointView; secret: string }> {
  const url = checkedUrl(input.url, deps.urlPolicy)
  const eventTypes = checkedTypes(input.eventTypes ?? ORDER_EVENT_TYPES)
  const secret = newSecret()
  const [row] = await db
    .insert(webhookEndpoints)
    .values({ id: newEndpointId(), siteId, url, description: input.description ?? '', secret, eventTypes })
    .returning()
  return { endpoint: present(row!, 0), secret }
}

export async function listEndpoints(db: Db, siteId: number): Promise<EndpointView[]> {
  const rows = await db
    .select()
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.siteId, siteId))
    .orderBy(webhookEndpoints.createdAt, webhookEndpoints.id)
  const counts = await undeliveredCounts(
    db,
    rows.map((r) => r.id),
  )
  return rows.map((r) => present(r, counts.get(r.id) ?? 0))
}

export async function getEndpoint(db: Db, siteId: number, id: string): Promise<EndpointView> {
  const row = await owned(db, siteId, id)
  return present(row, (await undeliveredCounts(db, [id])).get(id) ?? 0)
}

/**
 * Changes an endpoint. Disabling keeps its undelivered messages; enabling resumes from the oldest
 * of them (due now, in order), or abandons them all with `skipBacklog`.
 */
export async function updateEndpoint(
  db: Db,
  deps: EndpointsDeps,
  siteId: number,
  id: string,
  change: EndpointChange,
): Promise<EndpointView> {
  const url = change.url === undefined ? undefined : checkedUrl(change.url, deps.urlPolicy)
  const eventTypes = change.eventTypes === undefined ? undefined : checkedTypes(change.eventTypes)
  if (change.skipBacklog && change.enabled !== true) {
    const message = 'skipBacklog applies only when enabling the endpoint (enabled: true).'
    throw new DomainError('invalid', message, { skipBacklog: [message] })
  }
  await db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(webhookEndpoints)
      .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.siteId, siteId)))
      .for('no key update')
    if (!row) throw new DomainError('not_found', 'No webhook endpoint has this id.')
    const now = deps.now?.() ?? new Date()
    const enabling = change.enabled === true && !row.enabled
    const disabling = change.enabled === false && row.enabled
    await tx
      .update(webhookEndpoints)
      .set({
        ...(url !== undefined ? { url } : {}),
        ...(change.description !== undefined ? { description: change.description } : {}),
        ...(eventTypes !== undefined ? { eventTypes } : {}),
        ...(enabling
          ? {
              enabled: true,
              disabledAt: null,
              disabledReason: null,
              failingSince: null,
              consecutiveFailures: 0,
            }
          : {}),
        ...(disabling
          ? {
              enabled: false,
              disabledAt: now,
              disabledReason: `Disabled by a person, through ${deps.actor ?? 'the API'}.`,
            }
          : {}),
        updatedAt: now,
      })
      .where(eq(webhookEndpoints.id, id))
    if (!enabling) return
    if (change.skipBacklog) {
      await tx
        .update(webhookDeliveries)
        .set({
          status: 'abandoned',
          lastError: 'Abandoned when the endpoint was enabled without its backlog.',
        })
        .where(and(eq(webhookDeliveries.endpointId, id), inArray(webhookDeliveries.status, UNDELIVERED)))
      return
    }
    // Resume from the oldest undelivered message: everything waiting is due now, in its order.
    await tx
      .update(webhookDeliveries)
      .set({ nextAttemptAt: now })
      .where(and(eq(webhookDeliveries.endpointId, id), inArray(webhookDeliveries.status, UNDELIVERED)))
    await deps.jobs().enqueue(tx, WEBHOOK_JOB, { endpointId: id }, { key: endpointJobKey(id) })
  })
  return getEndpoint(db, siteId, id)
}

/** Removes the endpoint and its deliveries (a delivery under way finishes, then records nothing). */
export async function deleteEndpoint(db: Db, siteId: number, id: string): Promise<void> {
  const removed = await db
    .delete(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.siteId, siteId)))
    .returning({ id: webhookEndpoints.id })
  if (removed.length === 0) throw new DomainError('not_found', 'No webhook endpoint has this id.')
}

/**
 * A new secret, shown once. The old one keeps signing beside it for `overlapHours` (a second
 * signature in the same header), so the receiver can switch without losing a message.
 */
export async function rotateSecret(
  db: Db,
  deps: Pick<EndpointsDeps, 'now'>,
  siteId: number,
  id: string,
  overlapHours = 24,
): Promise<{ endpoint: EndpointView; secret: string; previousSecretValidUntil: string | null }> {
  const row = await owned(db, siteId, id)
  const now = deps.now?.() ?? new Date()
  const secret = newSecret()
  const until = overlapHours > 0 ? new Date(now.getTime() + overlapHours * 3600_000) : null
  await db
    .update(webhookEndpoints)
    .set({ secret, previousSecret: until ? row.secret : null, previousSecretUntil: until, updatedAt: now })
    .where(eq(webhookEndpoints.id, id))
  return { endpoint: await getEndpoint(db, siteId, id), secret, previousSecretValidUntil: iso(until) }
}

/** The endpoint's deliveries, newest first, `limit` at a time (`before`: the last id seen). */
export async function listDeliveries(
  db: Db,
  siteId: number,
  id: string,
  page: { status?: DeliveryStatus; limit?: number; before?: number } = {},
): Promise<DeliveryView[]> {
  await owned(db, siteId, id)
  const rows = await db
    .select({ d: webhookDeliveries, type: webhookMessages.type, orderNumber: webhookMessages.orderNumber })
    .from(webhookDeliveries)
    .innerJoin(webhookMessages, eq(webhookMessages.id, webhookDeliveries.messageId))
    .where(
      and(
        eq(webhookDeliveries.endpointId, id),
        page.status ? eq(webhookDeliveries.status, page.status) : undefined,
        page.before ? lt(webhookDeliveries.id, page.before) : undefined,
      ),
    )
    .orderBy(desc(webhookDeliveries.id))
    .limit(Math.min(Math.max(page.limit ?? 50, 1), 200))
  return rows.map(({ d, type, orderNumber }) => ({
    id: d.id,
    messageId: d.messageId,
    type,
    orderNumber,
    status: d.status,
    attempts: d.attempts,
    nextAttemptAt: d.status === 'pending' || d.status === 'failed' ? iso(d.nextAttemptAt) : null,
    lastAttemptAt: iso(d.lastAttemptAt),
    lastStatusCode: d.lastStatusCode,
    lastError: d.lastError,
    deliveredAt: iso(d.deliveredAt),
    createdAt: d.createdAt.toISOString(),
  }))
}

/** Queues a `webhook.test` message to this endpoint only (after anything it is still owed). */
export async function sendTestMessage(
  db: Db,
  deps: OutboxDeps,
  siteId: number,
  id: string,
): Promise<{ messageId: string }> {
  const row = await owned(db, siteId, id)
  if (!row.enabled) {
    throw new DomainError('invalid', 'The endpoint is disabled: enable it before testing it.', {
      enabled: ['The endpoint is disabled: enable it before testing it.'],
    })
  }
  const { messageId } = await db.transaction((tx) =>
    recordMessage(tx, deps, {
      siteId,
      type: TEST_EVENT_TYPE,
      data: { endpointId: id, message: 'A test message from the shop.' },
      endpointIds: [id],
    }),
  )
  deps.jobs().wake()
  return { messageId }
}
