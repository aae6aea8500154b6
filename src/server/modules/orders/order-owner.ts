/**
 * Whose account shows an order placed without logging in (ADR 0066, 0145). Such an order is
 * linked to the account holding its e-mail address for the back office, but the account shows it
 * (history, order page, reorder, invoices) only after the account's owner confirmed it: logged in
 * as that customer, from the link in the order's acknowledgement e-mail. The link is built by the
 * shop from its own ids (site, order, order number, customer) and signed with a key derived from
 * the session secret, so it cannot be made up, or moved to another order or another account.
 * Following it twice changes nothing the second time.
 */
import { createHmac, timingSafeEqual } from 'node:crypto'
import { and, eq, inArray } from 'drizzle-orm'
import type { Executor } from '../../db/client.ts'
import { ACCOUNT_STATES } from './order.state.ts'
import { orderOwnerConfirmations, orders } from './orders.tables.ts'

export interface OwnedOrder {
  siteId: number
  id: number
  orderNumber: number
  customerId: number | null
  placedAsGuest: boolean
}

const SIGNATURE = /^[A-Za-z0-9_-]{43}$/

export class OrderOwnerLinks {
  private readonly key: Buffer

  /** `secret`: the session secret (config.session.secret); a key of its own is derived from it. */
  constructor(secret: string) {
    this.key = createHmac('sha256', secret).update('order-owner-confirmation:v1').digest()
  }

  private sign(order: OwnedOrder): string {
    return createHmac('sha256', this.key)
      .update(`${order.siteId}:${order.id}:${order.orderNumber}:${order.customerId}`)
      .digest('base64url')
  }

  /**
   * The confirmation link for the acknowledgement e-mail of an order placed as a guest and linked
   * to an account; null for any other order (a logged-in customer's order needs none).
   */
  url(baseUrl: string, order: OwnedOrder): string | null {
    if (!order.placedAsGuest || order.customerId === null) return null
    const base = baseUrl.replace(/\/+$/, '')
    return `${base}/customer/orders/${order.orderNumber}/confirm?${new URLSearchParams({ sig: this.sign(order) })}`
  }

  /** Whether `signature` is this order's, as linked to its customer now. */
  verify(order: OwnedOrder, signature: unknown): boolean {
    if (typeof signature !== 'string' || !SIGNATURE.test(signature)) return false
    if (order.customerId === null) return false
    return timingSafeEqual(Buffer.from(this.sign(order)), Buffer.from(signature))
  }
}

export type ConfirmResult = 'confirmed' | 'already' | 'not_found'

/**
 * The logged-in `customerId` confirms that order `orderNumber` is theirs with `signature`. Not
 * found (and nothing written) unless the order is placed, on this site, linked to this very
 * customer and the signature is the one the shop made for it.
 */
export async function confirmOrderOwner(
  db: Executor,
  links: OrderOwnerLinks,
  siteId: number,
  customerId: number,
  orderNumber: number,
  signature: unknown,
): Promise<ConfirmResult> {
  const [order] = await db
    .select({
      siteId: orders.siteId,
      id: orders.id,
      orderNumber: orders.orderNumber,
      customerId: orders.customerId,
      placedAsGuest: orders.placedAsGuest,
    })
    .from(orders)
    .where(
      and(
        eq(orders.siteId, siteId),
        eq(orders.orderNumber, orderNumber),
        inArray(orders.status, [...ACCOUNT_STATES]),
      ),
    )
  if (!order || order.customerId !== customerId || !links.verify(order, signature)) return 'not_found'
  if (!order.placedAsGuest) return 'already'
  const inserted = await db
    .insert(orderOwnerConfirmations)
    .values({ orderId: order.id, customerId })
    .onConflictDoNothing()
    .returning({ orderId: orderOwnerConfirmations.orderId })
  return inserted.length > 0 ? 'confirmed' : 'already'
}
