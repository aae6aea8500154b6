/** The account home's tiles: how many orders, invoices, saved baskets and saved cards. */
import { and, count, eq } from 'drizzle-orm'
import type { Executor } from '../../db/client.ts'
import { carts } from '../cart/cart.tables.ts'
import { savedCards } from '../customers/customers.tables.ts'
import { orderCounts } from '../orders/orders.queries.ts'

export async function accountCounts(db: Executor, siteId: number, customerId: number) {
  const [placed, [b], [c]] = await Promise.all([
    orderCounts(db, siteId, customerId),
    db
      .select({ n: count() })
      .from(carts)
      .where(and(eq(carts.siteId, siteId), eq(carts.customerId, customerId), eq(carts.kind, 'saved'))),
    db.select({ n: count() }).from(savedCards).where(eq(savedCards.customerId, customerId)),
  ])
  return { ...placed, baskets: Number(b!.n), cards: Number(c!.n) }
}
