/**
 * Reading a basket: the header summary (kept 10 s), the checkout's fresh read (`get`), the Cart
 * page's kept read (`show`, ADR 0115, cart.read-cache.ts) and the builders' look at their lines.
 * Every read is priced now, so promotion dates and delivery rates are always current.
 */
import { and, eq } from 'drizzle-orm'
import type { Cart } from '../../../shared/cart.ts'
import type { CartSummary } from '../../../shared/page-props.ts'
import { recordCache } from '../../lib/cache-stats.ts'
import { findSessionCart, itemsOf } from './cart.lines.ts'
import { emptyCart, presentBasket, priceBasket } from './cart.priced.ts'
import type { BasketStore } from './cart.store.ts'
import { carts, type CartItemRow } from './cart.tables.ts'
import { isCartId, type BasketRead, type CartContext, type LineRow } from './cart.types.ts'

/** The header summary; null when the cart does not exist. One primary-key read at most per 10 s. */
export async function summary(
  store: BasketStore,
  siteId: number,
  cartId: string,
): Promise<CartSummary | null> {
  if (!isCartId(cartId)) return null
  const cached = store.caches.summary(siteId, cartId)
  recordCache('basket-summary', cached !== undefined)
  if (cached) return cached
  const [row] = await store.db
    .select({ count: carts.summaryCount, total: carts.summaryTotal })
    .from(carts)
    .where(and(eq(carts.id, cartId), eq(carts.siteId, siteId), eq(carts.kind, 'session')))
    .limit(1)
  if (!row) return null
  store.caches.keepSummary(siteId, cartId, row)
  return row
}

/** The visitor's cart, or the empty cart when there is none: read afresh (the checkout's view). */
export async function get(store: BasketStore, ctx: CartContext): Promise<Cart> {
  const found = ctx.cartId ? await findCartWithLines(store, ctx.site.id, ctx.cartId) : null
  return pricedCart(store, ctx, found)
}

/**
 * The visitor's cart as the Cart page shows it: the same as `get`, but a basket read a moment
 * ago by this instance and not changed since is not read again (cart.read-cache.ts). Priced now,
 * so a promotion's dates and the delivery rates are as fresh as `get`'s.
 */
export async function show(store: BasketStore, ctx: CartContext): Promise<Cart> {
  const cartId = ctx.cartId
  if (!cartId || !isCartId(cartId)) return emptyCart(ctx)
  let found: BasketRead | null | undefined = store.caches.shown.get(cartId)
  recordCache('basket-read', found !== undefined)
  // Keyed by id alone: a basket of another site is never shown.
  if (found && found.row.siteId !== ctx.site.id) found = null
  if (found === undefined) {
    const token = store.caches.shown.begin()
    found = await findCartWithLines(store, ctx.site.id, cartId)
    if (found) found = store.caches.shown.keep(cartId, token, found)
  }
  return pricedCart(store, ctx, found)
}

async function pricedCart(store: BasketStore, ctx: CartContext, found: BasketRead | null): Promise<Cart> {
  if (!found) return emptyCart(ctx)
  const { row, lines } = found
  return presentBasket(ctx, row, lines, await priceBasket(store, store.db, ctx.site, row, lines, 'read'))
}

/** Lines of the visitor's cart that `pick` selects (for the builders' previews and proofs). */
export async function findLines(
  store: BasketStore,
  ctx: CartContext,
  pick: (item: CartItemRow) => boolean,
): Promise<CartItemRow[]> {
  if (!ctx.cartId) return []
  const cart = await findSessionCart(store.db, ctx.site.id, ctx.cartId)
  if (!cart) return []
  return (await itemsOf(store.db, cart.id)).filter(pick)
}

/**
 * A session basket and its lines in one statement (a read: no lock; one snapshot for both).
 * Null when there is no such basket.
 */
async function findCartWithLines(
  store: BasketStore,
  siteId: number,
  cartId: string,
): Promise<BasketRead | null> {
  if (!isCartId(cartId)) return null
  const rows = await store.cartPageRead().execute({ cartId, siteId })
  const first = rows[0]
  if (!first) return null
  const lines: LineRow[] = []
  for (const { cart: _cart, item, ...rest } of rows) {
    // As loadLines' inner joins: a line counts only with its product and group.
    if (item && rest.sku !== null && rest.groupName !== null) lines.push({ item, ...rest } as LineRow)
  }
  return { row: first.cart, lines }
}
