/**
 * Changing what is in a basket, each in one locked change (cart.mutate.ts): quantities, the
 * whole-basket update (codes, delivery, VAT relief), removing lines or a sign set, the builders'
 * replacement of their lines, emptying it, and handing it to or from a customer at login and
 * logout. Adding products is cart.add.ts.
 */
import { and, eq, isNull, or } from 'drizzle-orm'
import { MAX_QUANTITY } from '../../../shared/cart.ts'
import {
  VAT_RELIEF_TEXT,
  vatReliefProblem,
  type VatReliefDeclarationInput,
} from '../../../shared/vat-relief.ts'
import type { Tx } from '../../db/client.ts'
import { productGroups, products } from '../catalog/catalog.tables.ts'
import { CartNotFoundError, invalid } from './cart.errors.ts'
import { deleteLines, publishedOnSite } from './cart.lines.ts'
import { mutate } from './cart.mutate.ts'
import { reliefLines } from './cart.price-inputs.ts'
import { emptyCart } from './cart.priced.ts'
import type { BasketStore } from './cart.store.ts'
import { cartItems, carts, type CartItemRow, type CartRow } from './cart.tables.ts'
import { isCartId, type BuilderLine, type CartContext, type CartResult, type LineRow } from './cart.types.ts'

/** Sets line quantities; 0 removes the line. */
export async function updateItems(
  store: BasketStore,
  ctx: CartContext,
  items: { id: number; quantity: number }[],
): Promise<CartResult> {
  return mutate(store, ctx, { create: false }, (tx, cart, lines, quantities) =>
    setQuantities(tx, cart, lines, items, quantities),
  )
}

/** What the whole-cart update may change (the JSON API's `PUT /cart`). */
export interface CartUpdate {
  items?: { id: number; quantity: number }[]
  promotionCodes?: string[]
  despatch_type?: string
  /** A rate of the basket's zone (§7 shippingRateId): its despatch type is chosen */
  shippingRateId?: number
  shippingZone?: string
  ApplyVATRelief?: boolean
  /** The declaration (claim relief) or false (withdraw it) */
  vatRelief?: VatReliefDeclarationInput | false
}

/** The whole-cart update: quantities, promotional codes, despatch type, zone, VAT relief. */
export async function updateCart(
  store: BasketStore,
  ctx: CartContext,
  payload: CartUpdate,
): Promise<CartResult> {
  const onlyCodes =
    !payload.items?.length &&
    payload.despatch_type === undefined &&
    payload.shippingRateId === undefined &&
    payload.shippingZone === undefined &&
    payload.ApplyVATRelief === undefined &&
    payload.vatRelief === undefined
  return mutate(
    store,
    ctx,
    {
      create: !onlyCodes || (payload.promotionCodes ?? []).some((c) => c.trim()),
      promotionCodes: payload.promotionCodes,
    },
    async (tx, cart, lines, quantities) => {
      const removed = payload.items?.length
        ? await setQuantities(tx, cart, lines, payload.items, quantities)
        : false
      const set: Partial<CartRow> = {}
      if (payload.shippingRateId !== undefined) {
        // The rate must be one of the zone the basket is priced for: its despatch type is chosen.
        const rates = await store.caches.rates(tx, ctx.site.id)
        const zone = payload.shippingZone ?? cart.shippingZone ?? rates[0]?.zone
        const rate = rates.find((r) => r.id === payload.shippingRateId && r.zone === zone)
        if (!rate) throw invalid('shippingRateId', 'This delivery option is not available.')
        payload = { ...payload, despatch_type: rate.despatchType }
      }
      if (payload.shippingZone !== undefined || payload.despatch_type !== undefined) {
        const rates = await store.caches.rates(tx, ctx.site.id)
        const zone = payload.shippingZone ?? cart.shippingZone ?? rates[0]?.zone
        if (payload.shippingZone !== undefined && !rates.some((r) => r.zone === payload.shippingZone)) {
          throw invalid('shippingZone', 'We do not deliver to this zone.')
        }
        if (
          payload.despatch_type !== undefined &&
          !rates.some((r) => r.zone === zone && r.despatchType === payload.despatch_type)
        ) {
          throw invalid('despatch_type', 'This delivery option is not available.')
        }
        if (payload.shippingZone !== undefined) {
          set.shippingZone = payload.shippingZone
          if (payload.despatch_type === undefined) set.despatchType = null
        }
        if (payload.despatch_type !== undefined) set.despatchType = payload.despatch_type
      }
      if (payload.vatRelief !== undefined || payload.ApplyVATRelief !== undefined) {
        // Relief is claimed only with a valid declaration, for goods that qualify, within limits.
        const claim = payload.vatRelief === undefined ? payload.ApplyVATRelief! : payload.vatRelief !== false
        if (!claim) {
          set.applyVatRelief = false
          set.vatReliefDeclaration = null
        } else {
          const given = payload.vatRelief || null
          const declaration = given
            ? { name: given.name, condition: given.condition, declaredAt: new Date().toISOString() }
            : cart.vatReliefDeclaration
          if (!declaration) throw invalid('vatRelief', VAT_RELIEF_TEXT.declarationRequired)
          const problem = vatReliefProblem(ctx.site.settings.tax.rate, reliefLines(lines))
          if (problem) throw invalid(problem.field, problem.message)
          set.applyVatRelief = true
          set.vatReliefDeclaration = declaration
        }
      }
      if (Object.keys(set).length) {
        await tx.update(carts).set(set).where(eq(carts.id, cart.id))
        Object.assign(cart, set)
      }
      return removed
    },
  )
}

export async function removeItem(store: BasketStore, ctx: CartContext, itemId: number): Promise<CartResult> {
  return mutate(store, ctx, { create: false }, async (tx, cart, lines) => {
    if (!lines.some((l) => l.item.id === itemId)) throw new CartNotFoundError()
    await deleteLines(tx, cart.id, [itemId])
    return true
  })
}

export async function removeSignSequence(
  store: BasketStore,
  ctx: CartContext,
  sequenceId: string,
): Promise<CartResult> {
  return mutate(store, ctx, { create: false }, async (tx, cart, lines) => {
    const ids = lines.filter((l) => l.item.sequenceId === sequenceId).map((l) => l.item.id)
    if (ids.length === 0) throw new CartNotFoundError()
    await deleteLines(tx, cart.id, ids)
    return true
  })
}

/** A builder's change of its lines (replaceBuilderLines). */
export interface BuilderLinesChange {
  replaces: ((item: CartItemRow) => boolean) | null
  mustReplace: boolean
  build: (tx: Tx, cartId: string) => Promise<BuilderLine[]>
}

/**
 * The builders' write ('Design A Sign', sign sets, custom workwear): in one locked change,
 * removes the lines `replaces` picks (an edited sign, a whole sign set, a workwear order's
 * lines) and adds the lines `build` makes inside the same transaction (the workwear builder
 * stores its session there). With `mustReplace`, a request that picks no line is not found:
 * another visitor's line, or one already gone, changes nothing.
 */
export async function replaceBuilderLines(
  store: BasketStore,
  ctx: CartContext,
  opts: BuilderLinesChange,
): Promise<CartResult> {
  return mutate(store, ctx, { create: !opts.mustReplace }, async (tx, cart, lines) => {
    const replaced = opts.replaces ? lines.filter((l) => opts.replaces!(l.item)).map((l) => l.item.id) : []
    if (opts.mustReplace && replaced.length === 0) throw new CartNotFoundError()
    const fresh = await opts.build(tx, cart.id)
    const ids = [...new Set(fresh.map((l) => l.productId))]
    const found = ids.length
      ? await tx
          .select({ id: products.id, minimumOrder: products.minimumOrder, name: products.name })
          .from(products)
          .innerJoin(productGroups, eq(productGroups.id, products.groupId))
          .where(publishedOnSite(ctx.site.id, ids))
      : []
    const byId = new Map(found.map((p) => [p.id, p]))
    for (const [index, line] of fresh.entries()) {
      const product = byId.get(line.productId)
      if (!product) throw invalid(`items.${index}.listing_id`, 'This product is not available.')
      if (line.quantity < Math.max(1, product.minimumOrder) || line.quantity > MAX_QUANTITY) {
        throw invalid(
          `items.${index}.quantity`,
          `The quantity of ${product.name} must be from ${Math.max(1, product.minimumOrder)} to ${MAX_QUANTITY}.`,
        )
      }
    }
    if (replaced.length) await deleteLines(tx, cart.id, replaced)
    if (fresh.length) {
      await tx.insert(cartItems).values(
        fresh.map((l) => ({
          cartId: cart.id,
          productId: l.productId,
          categoryId: l.categoryId,
          quantity: l.quantity,
          sequenceId: l.sequenceId ?? null,
          printableSign: l.printableSign ?? null,
          workWearSession: l.workWearSession ?? null,
        })),
      )
    }
    return true
  })
}

export async function clear(store: BasketStore, ctx: CartContext): Promise<CartResult> {
  if (!ctx.cartId) return { cartId: null, cart: emptyCart(ctx) }
  return mutate(store, ctx, { create: false, promotionCodes: [] }, async (tx, cart) => {
    await tx.delete(cartItems).where(eq(cartItems.cartId, cart.id))
    return true
  })
}

/**
 * At login: the session's basket becomes the customer's (the auth work calls this after
 * rotating the session id). A basket that already belongs to another customer is left alone.
 */
export async function attachToCustomer(
  store: BasketStore,
  siteId: number,
  cartId: string,
  customerId: number,
): Promise<boolean> {
  if (!isCartId(cartId)) return false
  store.caches.shown.forget(cartId)
  const rows = await store.db
    .update(carts)
    .set({ customerId, ownerKey: null })
    .where(
      and(
        eq(carts.id, cartId),
        eq(carts.siteId, siteId),
        eq(carts.kind, 'session'),
        or(isNull(carts.customerId), eq(carts.customerId, customerId)),
      ),
    )
    .returning({ id: carts.id })
  store.caches.shown.forget(cartId)
  return rows.length > 0
}

/**
 * At a logout that keeps the basket (ADR 0136): the session's basket stops being the customer's
 * and stays with the browser as a visitor's basket. What was the customer's own in it goes: a
 * VAT relief declaration (a person's name and illness) is dropped. A basket of another customer
 * is left alone (false): the caller then does not keep it.
 */
export async function releaseFromCustomer(
  store: BasketStore,
  ctx: CartContext,
  customerId: number | null,
): Promise<boolean> {
  if (!ctx.cartId || !isCartId(ctx.cartId)) return false
  try {
    // A change like any other: locked, re-priced (relief gone) and the header summary rewritten.
    await mutate(store, { ...ctx, customerId: null }, { create: false }, async (tx, cart) => {
      if (cart.customerId !== null && cart.customerId !== customerId) throw new CartNotFoundError()
      const set: Partial<CartRow> =
        customerId === null
          ? { ownerKey: null }
          : { customerId: null, ownerKey: null, applyVatRelief: false, vatReliefDeclaration: null }
      await tx.update(carts).set(set).where(eq(carts.id, cart.id))
      Object.assign(cart, set)
    })
    return true
  } catch (err) {
    if (err instanceof CartNotFoundError) return false
    throw err
  }
}

/**
 * Sets quantities on the loaded lines (patched in place, and noted in `quantities` for the
 * summary's statement to write); true when some were removed.
 */
async function setQuantities(
  tx: Tx,
  cart: CartRow,
  lines: LineRow[],
  items: { id: number; quantity: number }[],
  quantities: Map<number, number>,
): Promise<boolean> {
  const byId = new Map(lines.map((l) => [l.item.id, l]))
  const remove: number[] = []
  for (const [index, change] of items.entries()) {
    const row = byId.get(change.id)
    // Another visitor's line, or one already gone: the same answer as a missing one.
    if (!row) throw new CartNotFoundError()
    const line = row.item
    if (line.isFreeGift)
      throw invalid(`items.${index}.quantity`, 'The quantity of a free gift cannot be changed.')
    if (line.parentId !== null && !line.isIsolatedFromParent) {
      throw invalid(`items.${index}.quantity`, 'This item follows the quantity of the item it belongs to.')
    }
    if (change.quantity === 0) {
      remove.push(line.id)
      continue
    }
    if (change.quantity < row.minimumOrder) {
      throw invalid(
        `items.${index}.quantity`,
        `The minimum order quantity for ${row.productName || row.groupName} is ${row.minimumOrder}.`,
      )
    }
    quantities.set(line.id, change.quantity)
    line.quantity = change.quantity
    // Children that are not isolated follow their parent.
    for (const c of lines) {
      if (c.item.parentId === line.id && !c.item.isIsolatedFromParent) {
        quantities.set(c.item.id, change.quantity)
        c.item.quantity = change.quantity
      }
    }
  }
  if (remove.length) await deleteLines(tx, cart.id, remove)
  return remove.length > 0
}
