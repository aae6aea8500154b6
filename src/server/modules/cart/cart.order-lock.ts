/**
 * The basket as placing an order sees it (the orders module calls these inside its own
 * transaction): locked and re-priced from the catalogue with its code's hold extended, and then
 * frozen once the order is written. Reads kept for the Cart page are forgotten here; the caller
 * announces the change after its commit (`CartService.basketChanged`).
 */
import { and, eq, inArray, sql } from 'drizzle-orm'
import type { Tx } from '../../db/client.ts'
import { codeInForce, dropCodesOverLimit } from './cart.codes.ts'
import { loadLines } from './cart.lines.ts'
import { presentBasket, priceBasket } from './cart.priced.ts'
import type { BasketStore } from './cart.store.ts'
import { carts } from './cart.tables.ts'
import { isCartId, type CartContext, type CheckoutBasket } from './cart.types.ts'

/**
 * Locks the basket row in the caller's transaction, as `mutate()` does, and re-prices it from
 * the catalogue. A basket already ordered is locked and returned too (its order is the answer
 * to a replay). Null when the id is not a session or ordered basket of this site.
 */
export async function lockForOrder(
  store: BasketStore,
  tx: Tx,
  ctx: CartContext,
  cartId: string,
  /** Price delivery for this zone (the order's shipping address), whatever the basket last had */
  opts: { shippingZone?: string } = {},
): Promise<CheckoutBasket | null> {
  if (!isCartId(cartId)) return null
  const [row] = await tx
    .select()
    .from(carts)
    .where(
      and(eq(carts.id, cartId), eq(carts.siteId, ctx.site.id), inArray(carts.kind, ['session', 'ordered'])),
    )
    .for('update')
  if (!row) return null
  const lines = await loadLines(tx, row.id)
  // The order records and redeems the basket's codes: never more than the one in force.
  if (row.kind === 'session') await dropCodesOverLimit(tx, ctx.site, row, lines)
  // A limited code's hold is extended for the order (or taken again if it expired and a use is
  // left); without one the code is reported and the checkout refuses the changed total.
  // (An ordered basket is only read: its order is the answer.)
  const standing = await codeInForce(
    store,
    tx,
    ctx.site,
    row,
    lines,
    row.kind === 'session' ? 'order' : 'frozen',
  )
  const priceAs = opts.shippingZone ? { ...row, shippingZone: opts.shippingZone } : row
  const priced = await priceBasket(store, tx, ctx.site, priceAs, lines, standing)
  const cart = presentBasket({ ...ctx, cartId: row.id }, priceAs, lines, priced)
  return { row, lines, ...priced, cart }
}

/** Freezes an ordered basket: no basket call finds it any more; the sweep leaves it alone. */
export async function markOrdered(store: BasketStore, tx: Tx, cartId: string): Promise<void> {
  // The caller calls basketChanged() after its commit; forgetting now stops reads kept meanwhile.
  store.caches.shown.forget(cartId)
  await tx
    .update(carts)
    .set({ kind: 'ordered', orderedAt: sql`now()`, updatedAt: sql`now()` })
    .where(eq(carts.id, cartId))
}
