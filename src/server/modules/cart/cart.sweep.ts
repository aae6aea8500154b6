/**
 * The sweep (a job, jobs/index.ts): baskets nobody can reach any more are deleted and the code
 * uses they held given back. Any instance may run it at the same time as another.
 */
import { and, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm'
import type { BasketStore } from './cart.store.ts'
import { carts, promotions, promotionUses } from './cart.tables.ts'

/**
 * Deletes baskets nobody can reach any more: session baskets without a customer whose last
 * change is older than `maxAgeSeconds` (their session has expired), and share-link copies of
 * that age. The promotional code uses they held are given back. Saved baskets stay.
 */
export async function sweep(store: BasketStore, maxAgeSeconds: number): Promise<number> {
  const cutoff = new Date(Date.now() - maxAgeSeconds * 1000)
  const ids = await store.db.transaction(async (tx) => {
    const stale = await tx
      .select({ id: carts.id })
      .from(carts)
      .where(
        and(
          lt(carts.updatedAt, cutoff),
          or(and(eq(carts.kind, 'session'), isNull(carts.customerId)), eq(carts.kind, 'shared')),
        ),
      )
      .limit(5000)
      // Another instance sweeping at the same moment takes other rows; a basket being changed
      // right now (locked by mutate) is left for the next sweep.
      .for('update', { skipLocked: true })
    if (stale.length === 0) return []
    const ids = stale.map((c) => c.id)
    const released = await tx
      .delete(promotionUses)
      .where(inArray(promotionUses.cartId, ids))
      .returning({ promotionId: promotionUses.promotionId })
    const counts = new Map<number, number>()
    for (const r of released) counts.set(r.promotionId, (counts.get(r.promotionId) ?? 0) + 1)
    // In promotion id order, as every basket change takes them (promotion-holds.ts).
    for (const [promotionId, n] of [...counts].sort((a, b) => a[0] - b[0])) {
      await tx
        .update(promotions)
        .set({ timesUsed: sql`greatest(0, ${promotions.timesUsed} - ${n})` })
        .where(eq(promotions.id, promotionId))
    }
    // Forgotten before the delete and again after its commit, as in mutate(): a Cart page read
    // in between is not kept.
    for (const id of ids) store.caches.shown.forget(id)
    await tx.delete(carts).where(inArray(carts.id, ids))
    return ids
  })
  // Announced once the delete is committed, so another instance does not read it back.
  store.caches.basketsDeleted(ids)
  return ids.length
}
