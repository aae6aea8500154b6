/**
 * Sharing a basket (spec §2): a frozen copy behind a secret link, what the link's page shows
 * before it is opened, and opening it into a basket of the visitor's own.
 */
import { randomBytes } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import type { Site } from '../sites/sites.service.ts'
import { copyLines, sessionCopyOf } from './cart.copy.ts'
import { CartNotFoundError, invalid } from './cart.errors.ts'
import { findSessionCart, itemsOf } from './cart.lines.ts'
import type { BasketStore } from './cart.store.ts'
import { cartItems, carts } from './cart.tables.ts'
import type { CartContext } from './cart.types.ts'

/**
 * A frozen copy of the visitor's cart behind a secret link (128 bits). Returns the token; the
 * copy carries no customer and no codes, only the lines.
 */
export async function share(store: BasketStore, ctx: CartContext): Promise<string> {
  if (!ctx.cartId) throw new CartNotFoundError()
  return store.db.transaction(async (tx) => {
    const cart = await findSessionCart(tx, ctx.site.id, ctx.cartId!)
    if (!cart) throw new CartNotFoundError()
    const lines = await itemsOf(tx, cart.id)
    if (lines.filter((l) => !l.isFreeGift).length === 0)
      throw invalid('cart_id', 'There is nothing in the basket to share.')
    const token = randomBytes(16).toString('base64url')
    const [copy] = await tx
      .insert(carts)
      .values({
        siteId: ctx.site.id,
        kind: 'shared',
        shareToken: token,
        shippingZone: cart.shippingZone,
        despatchType: cart.despatchType,
      })
      .returning()
    await copyLines(
      tx,
      lines.filter((l) => !l.isFreeGift),
      copy!.id,
      store.copyDesigns,
    )
    return token
  })
}

/** A share link's basket, read only: its number of items, or null for an unknown token. */
export async function peekShared(
  store: BasketStore,
  site: Site,
  token: string,
): Promise<{ count: number } | null> {
  if (!/^[A-Za-z0-9_-]{16,64}$/.test(token)) return null
  const [source] = await store.db
    .select({ id: carts.id })
    .from(carts)
    .where(and(eq(carts.shareToken, token), eq(carts.siteId, site.id), eq(carts.kind, 'shared')))
  if (!source) return null
  const lines = await store.db
    .select({ quantity: cartItems.quantity })
    .from(cartItems)
    .where(eq(cartItems.cartId, source.id))
  return { count: lines.reduce((n, l) => n + l.quantity, 0) }
}

/**
 * Opens a share link: the visitor gets a new session basket holding a copy of its lines, marked
 * shared; returns its id. Null for an unknown token (or one of another site).
 */
export async function openShared(store: BasketStore, site: Site, token: string): Promise<string | null> {
  if (!/^[A-Za-z0-9_-]{16,64}$/.test(token)) return null
  return store.db.transaction(async (tx) => {
    const [source] = await tx
      .select()
      .from(carts)
      .where(and(eq(carts.shareToken, token), eq(carts.siteId, site.id), eq(carts.kind, 'shared')))
    if (!source) return null
    const lines = await itemsOf(tx, source.id)
    const { copy } = await sessionCopyOf(store, tx, site, source, lines, { shared: true })
    return copy.id
  })
}
