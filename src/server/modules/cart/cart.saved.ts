/**
 * Saved baskets (spec §3 Saved cart, the account's Baskets page): a named copy of the visitor's
 * basket kept for a customer, listed priced from today's catalogue, renamed, deleted, and loaded
 * back as a new session basket (the saved one stays as it is).
 */
import { and, asc, eq, sql } from 'drizzle-orm'
import type { Site } from '../sites/sites.service.ts'
import { copyLines, sessionCopyOf } from './cart.copy.ts'
import { CartNotFoundError, invalid } from './cart.errors.ts'
import { findSessionCart, itemsOf, loadLines } from './cart.lines.ts'
import { presentBasket, priceBasket } from './cart.priced.ts'
import type { BasketStore } from './cart.store.ts'
import { carts } from './cart.tables.ts'
import {
  isCartId,
  summaryOf,
  type CartContext,
  type CartResult,
  type SavedBasketSummary,
} from './cart.types.ts'

/** Saves a named copy of the visitor's cart for a logged-in customer. */
export async function save(
  store: BasketStore,
  ctx: CartContext,
  customerId: number,
  basketName: string,
): Promise<{ id: string; basketName: string }> {
  if (!ctx.cartId) throw new CartNotFoundError()
  // Taking the session basket for the customer changes nothing the Cart page shows.
  return store.db.transaction(async (tx) => {
    const cart = await findSessionCart(tx, ctx.site.id, ctx.cartId!)
    if (!cart) throw new CartNotFoundError()
    const lines = await itemsOf(tx, cart.id)
    const goods = lines.filter((l) => !l.isFreeGift)
    if (goods.length === 0) throw invalid('basketName', 'There is nothing in the basket to save.')
    const [copy] = await tx
      .insert(carts)
      .values({
        siteId: ctx.site.id,
        kind: 'saved',
        customerId,
        basketName,
        shippingZone: cart.shippingZone,
        despatchType: cart.despatchType,
      })
      .returning()
    await copyLines(tx, goods, copy!.id, store.copyDesigns)
    if (cart.customerId === null) await tx.update(carts).set({ customerId }).where(eq(carts.id, cart.id))
    return { id: copy!.id, basketName }
  })
}

/** The customer's saved baskets, newest first, each priced from today's catalogue. */
export async function savedBaskets(
  store: BasketStore,
  site: Site,
  customerId: number,
): Promise<SavedBasketSummary[]> {
  const rows = await store.db
    .select()
    .from(carts)
    .where(and(eq(carts.siteId, site.id), eq(carts.customerId, customerId), eq(carts.kind, 'saved')))
    .orderBy(sql`${carts.createdAt} desc`, asc(carts.id))
    .limit(100)
  const out: SavedBasketSummary[] = []
  for (const row of rows) {
    const lines = await loadLines(store.db, row.id)
    const { priced } = await priceBasket(store, store.db, site, row, lines, 'frozen')
    out.push({
      id: row.id,
      basketName: row.basketName ?? '',
      created: row.createdAt.toISOString(),
      items: lines.map((l, i) => ({
        product: { id: l.item.productId, sku: l.sku, name: l.productName || l.groupName },
        quantity: l.item.quantity,
        line_total: priced.lines[i]?.net ?? 0,
      })),
      itemCount: priced.totalItems,
      total: priced.itemsTotal,
      totalIncTax: priced.itemsTotal + priced.lines.reduce((n, l) => n + l.vat, 0),
    })
  }
  return out
}

/** Renames a saved basket of the customer; NotFound for any other id. */
export async function renameSaved(
  store: BasketStore,
  site: Site,
  customerId: number,
  id: string,
  basketName: string,
): Promise<void> {
  if (!isCartId(id)) throw new CartNotFoundError()
  const rows = await store.db
    .update(carts)
    .set({ basketName, updatedAt: sql`now()` })
    .where(savedBasketOf(site.id, customerId, id))
    .returning({ id: carts.id })
  if (rows.length === 0) throw new CartNotFoundError()
}

/** Deletes a saved basket of the customer; NotFound for any other id. */
export async function deleteSaved(
  store: BasketStore,
  site: Site,
  customerId: number,
  id: string,
): Promise<void> {
  if (!isCartId(id)) throw new CartNotFoundError()
  const rows = await store.db
    .delete(carts)
    .where(savedBasketOf(site.id, customerId, id))
    .returning({ id: carts.id })
  if (rows.length === 0) throw new CartNotFoundError()
}

/**
 * Loads a saved basket: a new session basket of the customer holding a copy of its lines (the
 * saved basket stays as it is). Returns it priced; the caller makes it the session's basket.
 */
export async function loadSaved(
  store: BasketStore,
  ctx: CartContext,
  customerId: number,
  id: string,
): Promise<CartResult> {
  if (!isCartId(id)) throw new CartNotFoundError()
  const result = await store.db.transaction(async (tx) => {
    const [source] = await tx
      .select()
      .from(carts)
      .where(savedBasketOf(ctx.site.id, customerId, id))
    if (!source) throw new CartNotFoundError()
    const lines = await itemsOf(tx, source.id)
    const copied = await sessionCopyOf(store, tx, ctx.site, source, lines, { customerId })
    return {
      cartId: copied.copy.id,
      cart: presentBasket({ ...ctx, cartId: copied.copy.id }, copied.copy, copied.lines, copied.priced),
    }
  })
  store.caches.keepSummary(ctx.site.id, result.cartId, summaryOf(result.cart))
  return result
}

/** A saved basket of this customer on this site: the only kind the account area may touch. */
function savedBasketOf(siteId: number, customerId: number, id: string) {
  return and(
    eq(carts.id, id),
    eq(carts.siteId, siteId),
    eq(carts.customerId, customerId),
    eq(carts.kind, 'saved'),
  )
}
