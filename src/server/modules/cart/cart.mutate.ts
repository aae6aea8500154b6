/**
 * One locked change of the visitor's basket, the frame every basket write runs in (ADR 0111):
 * the row locked and its lines read, the caller's change, codes applied or checked, gifts synced,
 * every total recomputed from the catalogue, and the changed quantities stored with the header
 * summary. The caches are told before and after (cart.caches.ts, cart.read-cache.ts).
 */
import { and, eq, sql } from 'drizzle-orm'
import {
  CART_TEXT,
  MAX_BASKET_TOTAL_MINOR,
  tooManyPromotionCodes,
  type PromoError,
} from '../../../shared/cart.ts'
import type { Tx } from '../../db/client.ts'
import { applyCodes, codeInForce, dropCodesOverLimit, syncGifts } from './cart.codes.ts'
import { CartNotFoundError, invalid } from './cart.errors.ts'
import { loadLines, lockSessionCart } from './cart.lines.ts'
import { emptyCart, presentBasket, priceBasket } from './cart.priced.ts'
import type { PricedCart } from './cart.pricing.ts'
import type { BasketStore } from './cart.store.ts'
import { cartItems, carts, type CartRow } from './cart.tables.ts'
import { isCartId, summaryOf, type CartContext, type CartResult, type LineRow } from './cart.types.ts'

interface MutateOptions {
  create: boolean
  promotionCodes?: string[]
}

/**
 * What `mutate()` does to a basket, inside its transaction: returns true when lines were added
 * or removed (they are read again). Quantities it sets on existing lines go in `quantities` (line
 * id → quantity), patched on the loaded lines too: they are written with the summary, in the
 * transaction's last statement.
 */
type BasketChange = (
  tx: Tx,
  cart: CartRow,
  lines: LineRow[],
  quantities: Map<number, number>,
) => Promise<boolean | void>

/**
 * One locked change of the visitor's basket. Its round trips: the row lock and the lines read
 * (sent together: on PostgreSQL the pool pipelines them, and the read runs once the lock is
 * granted, so it sees the lines as the previous holder left them); whatever `change` must write
 * itself (new lines, deletions, codes); and one statement that stores the changed quantities
 * and the recomputed summary. An add of one more of a line is three statements.
 */
export async function mutate(
  store: BasketStore,
  ctx: CartContext,
  opts: MutateOptions,
  change: BasketChange,
): Promise<CartResult> {
  // The basket's kept Cart page read is forgotten before the change and again after it, so a
  // read that overlapped the change is not kept (cart.read-cache.ts).
  // More codes than a basket may hold: refused before anything is read or written.
  if (opts.promotionCodes && tooManyPromotionCodes(opts.promotionCodes)) {
    throw invalid('promotionCodes', CART_TEXT.promoOnlyOne)
  }
  const { shown } = store.caches
  const known = ctx.cartId && isCartId(ctx.cartId) ? ctx.cartId : null
  if (known) shown.forget(known)
  let result: CartResult
  try {
    result = await transactionOf(store, ctx, opts, change)
  } finally {
    if (known) shown.forget(known)
  }
  if (result.cartId) {
    // A basket this change made, or found by the browser's owner key: forgotten as well.
    if (result.cartId !== known) shown.forget(result.cartId)
    store.caches.wroteSummary(ctx.site.id, result.cartId, summaryOf(result.cart))
  }
  return result
}

async function transactionOf(
  store: BasketStore,
  ctx: CartContext,
  opts: MutateOptions,
  change: BasketChange,
): Promise<CartResult> {
  return store.db.transaction(async (tx) => {
    let cart: CartRow | null = null
    let lines: LineRow[] = []
    if (ctx.cartId && isCartId(ctx.cartId)) {
      const [row, read] = await Promise.all([
        lockSessionCart(tx, ctx.site.id, ctx.cartId),
        loadLines(tx, ctx.cartId),
      ])
      // Lines of an id that is not this site's session basket are never used.
      if (row) [cart, lines] = [row, read]
    }
    if (!cart) {
      if (!opts.create) {
        if (ctx.cartId && !isCartId(ctx.cartId)) throw new CartNotFoundError()
        if (opts.promotionCodes !== undefined && !ctx.cartId) {
          // Codes without a basket: nothing to apply them to.
          const errors: PromoError[] = opts.promotionCodes
            .filter((c) => c.trim())
            .map((code) => ({ message: CART_TEXT.promoInvalid, code }))
          return { cartId: null, cart: { ...emptyCart(ctx), errors: { promotionCodes: errors } } }
        }
        throw new CartNotFoundError()
      }
      const created = await createSessionCart(tx, ctx)
      cart = created.row
      // A basket another request of this browser made a moment ago may hold lines already.
      if (!created.fresh) lines = await loadLines(tx, cart.id)
    }
    const id = cart.id
    const quantities = new Map<number, number>()
    // A read again sees the quantities not written yet as they will be.
    const reread = async () => {
      const fresh = await loadLines(tx, id)
      for (const l of fresh) l.item.quantity = quantities.get(l.item.id) ?? l.item.quantity
      return fresh
    }
    if (await change(tx, cart, lines, quantities)) lines = await reread()
    const promoErrors: PromoError[] = []
    if (opts.promotionCodes !== undefined) {
      promoErrors.push(...(await applyCodes(tx, ctx.site, cart, lines, opts.promotionCodes)))
    } else await dropCodesOverLimit(tx, ctx.site, cart, lines)
    const standing = await codeInForce(store, tx, ctx.site, cart, lines, 'write')
    if (await syncGifts(tx, cart, lines, standing.promo)) lines = await reread()
    const priced = await priceBasket(store, tx, ctx.site, cart, lines, standing)
    for (const e of priced.promoErrors) if (!promoErrors.some((p) => p.code === e.code)) promoErrors.push(e)
    // Totals are whole minor units in 32-bit columns (basket summary, order, lines): a basket
    // beyond the online limit is refused with a message, never stored (and never a 500).
    if (priced.priced.totalPriceIncTax > MAX_BASKET_TOTAL_MINOR)
      throw invalid('items', CART_TEXT.basketTooLarge)
    await storeChanges(tx, id, quantities, priced.priced)
    return { cartId: cart.id, cart: presentBasket(ctx, cart, lines, { ...priced, promoErrors }) }
  })
}

/**
 * The last statement of a basket change: stores the quantities `change` set (none is fine)
 * and the recomputed header summary, in one statement (a named one: its text never varies).
 */
async function storeChanges(
  tx: Tx,
  cartId: string,
  quantities: Map<number, number>,
  priced: PricedCart,
): Promise<void> {
  const written = tx.$with('written', { id: cartItems.id }).as(
    sql`update ${cartItems} set quantity = v.quantity
      from unnest(${sql.param([...quantities.keys()])}::integer[], ${sql.param([...quantities.values()])}::integer[]) as v(id, quantity)
      where ${cartItems.id} = v.id and ${cartItems.cartId} = ${cartId}
      returning ${cartItems.id}`,
  )
  await tx
    .with(written)
    .update(carts)
    .set({ summaryCount: priced.totalItems, summaryTotal: priced.totalPriceIncTax, updatedAt: sql`now()` })
    .where(eq(carts.id, cartId))
    .prepare('cart_store')
    .execute()
}

/**
 * The first basket of a browser. With an owner key, concurrent first adds meet on one row: the
 * insert that loses the race waits for the winner's transaction and then locks its basket.
 */
async function createSessionCart(tx: Tx, ctx: CartContext): Promise<{ row: CartRow; fresh: boolean }> {
  const customerId = ctx.customerId ?? null
  const ownerKey = ctx.ownerKey ?? null
  if (ownerKey) {
    const [created] = await tx
      .insert(carts)
      .values({ siteId: ctx.site.id, customerId, ownerKey })
      .onConflictDoNothing({ target: [carts.siteId, carts.ownerKey] })
      .returning()
    if (created) return { row: created, fresh: true }
    const [existing] = await tx
      .select()
      .from(carts)
      .where(and(eq(carts.siteId, ctx.site.id), eq(carts.ownerKey, ownerKey), eq(carts.kind, 'session')))
      .for('update')
    // Only a basket that is still this visitor's (no other customer has taken it over).
    if (existing && existing.customerId === customerId) return { row: existing, fresh: false }
  }
  const [created] = await tx.insert(carts).values({ siteId: ctx.site.id, customerId }).returning()
  return { row: created!, fresh: true }
}
