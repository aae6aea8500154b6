/**
 * An order once placed: who may see it (the session that placed it, or its logged-in owner), its
 * presentation (spec §3 Order), its e-mails, and what Order Complete lets the orderer do: leave
 * feedback and choose about marketing. Knows nothing of HTTP; refusals are domain errors.
 */
import { and, eq } from 'drizzle-orm'
import type { Executor, Db, Tx } from '../../db/client.ts'
import type { OrderData } from '../../../shared/checkout.ts'
import type { LastOrder } from '../../lib/last-order.ts'
import { customers, type CustomerRow } from '../auth/auth.tables.ts'
import { customerMarketing } from '../customers/customers.tables.ts'
import { enqueueMail } from '../mail/mail.queue.ts'
import type { Site } from '../sites/sites.service.ts'
import { acknowledgementMail, notificationMail } from './orders.mail.ts'
import { presentOrder } from './orders.presenter.ts'
import {
  orderEvents,
  orderFeedback,
  orderItems,
  orderOwnerConfirmations,
  orders,
  orderTransactions,
  type OrderRow,
} from './orders.tables.ts'
import type { OrderOwnerLinks } from './order-owner.ts'
import { notFound } from './placement.errors.ts'
import type { OrderEventSink } from './order-lifecycle.types.ts'

/** An order placement answered: the order, and what the session and the page need of it. */
export interface Placed {
  order: OrderData
  /** false when an earlier submit already placed it (a replay) */
  created: boolean
  placedAsGuest: boolean
  cartRef: string
  /** The order's customer */
  customerId: number | null
  /** The account was made by this very submit (a new guest), never an existing one (ADR 0063) */
  accountCreated: boolean
}

/** Who is looking: the session's last order and its logged-in customer. */
export interface Viewer {
  lastOrder: LastOrder | null
  customerId: number | null
}

/** The previews of an order's builder lines, by order item id. */
export type BuildPreviews = (
  executor: Executor,
  orderId: number,
) => Promise<ReadonlyMap<number, { url: string; alt: string }>>

/** How long after its order a new guest account still counts as made by that checkout. */
const SAME_CHECKOUT_MS = 10 * 60_000

export class OrdersService {
  /** Where order events for webhooks go (set with the lifecycle's sink: orders.plugin.ts) */
  events: OrderEventSink = async () => {}

  constructor(
    private readonly db: Db,
    /** Signs the link that lets an account's owner confirm a guest order placed with its e-mail. */
    private readonly ownerLinks: OrderOwnerLinks | null = null,
    /** The previews of an order's builder lines by order item id (the builders module's) */
    private readonly previews: BuildPreviews = async () => new Map(),
  ) {}

  async present(executor: Executor, order: OrderRow): Promise<OrderData> {
    const [items, transactions, previews] = await Promise.all([
      executor.select().from(orderItems).where(eq(orderItems.orderId, order.id)).orderBy(orderItems.id),
      executor
        .select()
        .from(orderTransactions)
        .where(eq(orderTransactions.orderId, order.id))
        .orderBy(orderTransactions.id),
      this.previews(executor, order.id),
    ])
    return presentOrder(order, items, transactions, previews)
  }

  async placed(executor: Executor, order: OrderRow, created: boolean): Promise<Placed> {
    return {
      order: await this.present(executor, order),
      created,
      placedAsGuest: order.placedAsGuest,
      cartRef: order.cartRef,
      customerId: order.customerId,
      accountCreated: false,
    }
  }

  /** The acknowledgement and the shop's notification, queued in the order's own transaction. */
  async queueMails(tx: Tx, site: Site, order: OrderData, baseUrl: string, row: OrderRow) {
    const to = site.settings.orderNotificationEmail || site.settings.contactEmail
    // A guest order linked to an account by its e-mail: the owner confirms it from this mail
    // (ADR 0145), unless it is already the account's (the account was made by this order).
    const confirmed =
      row.placedAsGuest &&
      (await tx.select().from(orderOwnerConfirmations).where(eq(orderOwnerConfirmations.orderId, row.id)))
        .length > 0
    const confirmOwnerUrl = confirmed ? null : (this.ownerLinks?.url(baseUrl, row) ?? null)
    await enqueueMail(tx, [
      {
        dedupeKey: `order:${order.id}:acknowledgement`,
        message: acknowledgementMail(site, order, baseUrl, { confirmOwnerUrl }),
      },
      ...(to
        ? [
            {
              dedupeKey: `order:${order.id}:notification`,
              message: notificationMail(site, order, to, baseUrl),
            },
          ]
        : []),
    ])
  }

  /**
   * An order just written (placement) or whose payment just settled (pending-orders.ts): its
   * timeline row and, once placed, the `order.placed` event, in the writing transaction.
   */
  async recordWritten(
    tx: Tx,
    row: OrderRow,
    actor: { kind: 'customer' | 'provider' | 'system'; name: string },
    data: Record<string, unknown> = {},
  ): Promise<void> {
    await tx.insert(orderEvents).values({
      orderId: row.id,
      type: row.status,
      actorKind: actor.kind,
      actorName: actor.name,
      data: { ...data, version: row.version },
    })
    if (row.status === 'placed')
      await this.events(tx, {
        type: 'order.placed',
        orderId: row.id,
        orderNumber: row.orderNumber,
        version: row.version,
        data: { status: row.status, total: row.totalIncVat, currency: row.currency },
      })
  }

  /** An order by number, for the session that placed it or its logged-in owner; else null. */
  async visibleOrder(site: Site, orderNumber: number, viewer: Viewer): Promise<OrderRow | null> {
    if (!Number.isSafeInteger(orderNumber) || orderNumber <= 0) return null
    const [order] = await this.db
      .select()
      .from(orders)
      .where(and(eq(orders.orderNumber, orderNumber), eq(orders.siteId, site.id)))
    if (!order) return null
    const mine =
      viewer.lastOrder?.orderId === order.id ||
      (viewer.customerId !== null && order.customerId === viewer.customerId && !order.placedAsGuest)
    return mine ? order : null
  }

  /**
   * Whether the viewer may choose about marketing for the order's customer: that customer is
   * logged in, or the customer is the guest this very checkout created. An order linked to an
   * existing account by its e-mail gives the placer no say over that account.
   */
  private mayChooseFor(owner: CustomerRow | null, order: OrderRow, viewer: Viewer): boolean {
    return createdBy(owner, order) || (viewer.customerId !== null && viewer.customerId === order.customerId)
  }

  private async owner(order: OrderRow): Promise<CustomerRow | null> {
    if (!order.customerId) return null
    const [row] = await this.db.select().from(customers).where(eq(customers.id, order.customerId))
    return row ?? null
  }

  /** Order Complete's opt-out is offered only to a customer who registered today and may choose. */
  async showsOptOut(site: Site, order: OrderRow, viewer: Viewer, now = new Date()): Promise<boolean> {
    if (site.settings.marketingOptOut !== 'YES') return false
    const owner = await this.owner(order)
    const today = now.toISOString().slice(0, 10)
    return (
      !!owner?.registerDate &&
      owner.registerDate.toISOString().slice(0, 10) === today &&
      this.mayChooseFor(owner, order, viewer)
    )
  }

  /** Order Complete's feedback, kept with the order; not the viewer's order → not found. */
  async recordFeedback(site: Site, orderNumber: number, viewer: Viewer, feedback: string): Promise<void> {
    const order = await this.visibleOrder(site, orderNumber, viewer)
    if (!order) throw notFound()
    await this.db.insert(orderFeedback).values({ orderId: order.id, feedback })
  }

  /** Order Complete's marketing choice for the order's customer, when the viewer may make it. */
  async chooseMarketing(site: Site, orderNumber: number, viewer: Viewer, optedIn: boolean): Promise<void> {
    const order = await this.visibleOrder(site, orderNumber, viewer)
    if (!order || !order.customerId) throw notFound()
    if (!this.mayChooseFor(await this.owner(order), order, viewer)) throw notFound()
    await this.db
      .insert(customerMarketing)
      .values({ customerId: order.customerId, optedIn, source: 'checkout-complete' })
      .onConflictDoUpdate({
        target: customerMarketing.customerId,
        set: { optedIn, source: 'checkout-complete', updatedAt: new Date() },
      })
  }
}

/** Whether the order's customer is the guest this very checkout created (not a matched account). */
export function createdBy(owner: CustomerRow | null, order: OrderRow): boolean {
  return (
    !!owner?.registerDate &&
    owner.passwordHash === null &&
    Math.abs(owner.registerDate.getTime() - order.orderDate.getTime()) < SAME_CHECKOUT_MS
  )
}
