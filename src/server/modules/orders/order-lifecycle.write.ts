/**
 * The one way the lifecycle changes an order (ADR 0200): inside the caller's transaction, the
 * order's row is locked (`FOR UPDATE`), the caller's `expectVersion` checked, and every change
 * writes, in that same transaction, the order (its version and change sequence bumped, its
 * customer word derived from its status), a timeline row with who did it, the customer's e-mail
 * (queued in the mail outbox) and the order event for webhooks. Two instances, or two calls at
 * once, take turns on the row lock; the second sees the first's version.
 */
import { and, eq, sql } from 'drizzle-orm'
import type { Db, Tx } from '../../db/client.ts'
import { DomainError } from '../../lib/domain-error.ts'
import { enqueueMail, type QueuedMail } from '../mail/mail.queue.ts'
import type { Site } from '../sites/sites.service.ts'
import type { OrderData } from '../../../shared/checkout.ts'
import { CUSTOMER_STATUS } from './order.state.ts'
import { orderEvents, orders, type OrderRow } from './orders.tables.ts'
import {
  invalidInput,
  orderNotFound,
  type Actor,
  type OrderEventType,
  type OrderLifecycleDeps,
  type OrderScope,
} from './order-lifecycle.types.ts'

/**
 * Runs one change in one transaction, with the order's site (for its e-mail) loaded first: the
 * site registry may read the database, which must not happen inside the transaction (the
 * embedded database has one connection). An order's site never changes, so reading it unlocked is safe.
 */
export async function inTransaction<T>(
  deps: Pick<OrderLifecycleDeps, 'mail'>,
  db: Db,
  scope: OrderScope,
  fn: (tx: Tx, site: Site | null) => Promise<T>,
): Promise<T> {
  if (!Number.isSafeInteger(scope.orderNumber) || scope.orderNumber <= 0)
    throw invalidInput('orderNumber', 'The order number must be a positive whole number.')
  const [found] = await db
    .select({ siteId: orders.siteId })
    .from(orders)
    .where(eq(orders.orderNumber, scope.orderNumber))
  const site = found ? await deps.mail.site(found.siteId) : null
  return db.transaction(async (tx) => {
    const result = await fn(tx, site)
    if (scope.alsoInTransaction) await scope.alsoInTransaction(tx)
    return result
  })
}

/** Locks the order and checks the caller read its current version. */
export async function lockOrder(tx: Tx, scope: OrderScope, expectVersion?: number): Promise<OrderRow> {
  if (!Number.isSafeInteger(scope.orderNumber) || scope.orderNumber <= 0)
    throw invalidInput('orderNumber', 'The order number must be a positive whole number.')
  const where =
    scope.siteId === undefined
      ? eq(orders.orderNumber, scope.orderNumber)
      : and(eq(orders.orderNumber, scope.orderNumber), eq(orders.siteId, scope.siteId))
  const [order] = await tx.select().from(orders).where(where).for('update')
  if (!order) throw orderNotFound(scope.orderNumber)
  checkVersion(order, expectVersion)
  return order
}

export function checkVersion(order: OrderRow, expectVersion: number | undefined): void {
  if (expectVersion === undefined) return
  if (!Number.isSafeInteger(expectVersion))
    throw invalidInput('expectVersion', 'The expected version must be a whole number.')
  if (order.version !== expectVersion)
    throw new DomainError(
      'order_version_mismatch',
      `Order ${order.orderNumber} is at version ${order.version}, not ${expectVersion}: it changed since it was read. Read it again and retry.`,
      {},
      { version: order.version },
    )
}

/** A required piece of text: trimmed, not empty, no control characters, at most `max` characters. */
export function requiredText(field: string, value: unknown, max: number, label: string): string {
  const text = typeof value === 'string' ? value.trim() : ''
  if (!text) throw invalidInput(field, `${label} is required.`)
  if (text.length > max) throw invalidInput(field, `${label} must be at most ${max} characters.`)
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0008\u000B-\u001F\u007F]/.test(text))
    throw invalidInput(field, `${label} contains control characters.`)
  return text
}

export function actorOf(actor: Actor): Actor {
  const kinds: Actor['kind'][] = ['token', 'staff', 'provider', 'system']
  if (!actor || !kinds.includes(actor.kind))
    throw invalidInput('actor', 'Who is making the change must be given.')
  return { kind: actor.kind, name: requiredText('actor.name', actor.name, 200, "The actor's name") }
}

export interface Change {
  /** Columns to write besides version, change_seq, change_xid, maginus_status and updated_at */
  set: Partial<typeof orders.$inferInsert>
  /** The timeline row */
  timeline: { type: string; actor: Actor; data: Record<string, unknown> }
  /** The order event for webhooks */
  event: { type: OrderEventType; data: Record<string, unknown> }
  /** The customer's e-mail for this change, built from the changed order */
  mail?: (site: Site, order: OrderData, row: OrderRow) => QueuedMail['message'] | null
  /** Names the e-mail (its idempotency key, with the order and its new version) */
  mailName?: string
}

/** Writes one change of a locked order (see the file's head) and returns the changed row. */
export async function applyChange(
  tx: Tx,
  deps: Pick<OrderLifecycleDeps, 'events' | 'mail'>,
  site: Site | null,
  order: OrderRow,
  change: Change,
): Promise<OrderRow> {
  const status = change.set.status ?? order.status
  const [row] = await tx
    .update(orders)
    .set({
      ...change.set,
      maginusStatus: CUSTOMER_STATUS[status],
      version: sql`${orders.version} + 1`,
      changeSeq: sql`nextval('order_change_seq')`,
      changeXid: sql`pg_current_xact_id()`,
      updatedAt: sql`now()`,
    })
    .where(eq(orders.id, order.id))
    .returning()
  const changed = row!
  await tx.insert(orderEvents).values({
    orderId: order.id,
    type: change.timeline.type,
    actorKind: change.timeline.actor.kind,
    actorName: change.timeline.actor.name,
    data: { ...change.timeline.data, version: changed.version },
  })
  if (change.mail) {
    if (site && site.id === changed.siteId) {
      const message = change.mail(site, await deps.mail.present(tx, changed), changed)
      if (message)
        await enqueueMail(tx, [
          {
            dedupeKey: `order:${changed.id}:v${changed.version}:${change.mailName ?? change.timeline.type}`,
            message,
          },
        ])
    }
  }
  await deps.events(tx, {
    type: change.event.type,
    orderId: changed.id,
    orderNumber: changed.orderNumber,
    version: changed.version,
    data: { status: changed.status, ...change.event.data },
  })
  return changed
}
