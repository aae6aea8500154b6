/**
 * Copying a basket's lines into another basket: a share link's frozen copy, a saved basket, and
 * the session basket a visitor gets from either. Children point at their parents' copies, a
 * sign's stored address is dropped, and a design kept outside the basket (a workwear session) is
 * copied by the builders' `DesignCopier` the basket was given, so editing a copy never changes
 * the original.
 */
import { eq } from 'drizzle-orm'
import type { Tx } from '../../db/client.ts'
import type { Site } from '../sites/sites.service.ts'
import { loadLines } from './cart.lines.ts'
import { priceBasket, type Priced } from './cart.priced.ts'
import type { BasketStore } from './cart.store.ts'
import { cartItems, carts, type CartItemRow, type CartRow, type PrintableSign } from './cart.tables.ts'
import type { DesignCopier, LineRow } from './cart.types.ts'

/** A sign as a copy keeps it: without an address (never read; older lines hold a browser's). */
function copiedSign(sign: PrintableSign | null): PrintableSign | null {
  if (!sign) return null
  const { url: _url, ...kept } = sign
  return kept
}

/**
 * Copies `lines` (all of one basket) into the basket `cartId`: children point at their parents'
 * copies, and a line's design kept outside the basket points at the copy `copyDesigns` made.
 */
export async function copyLines(
  tx: Tx,
  lines: CartItemRow[],
  cartId: string,
  copyDesigns: DesignCopier,
): Promise<void> {
  const idMap = new Map<number, number>()
  // A workwear line's design lives in its basket's session: the copy gets sessions of its own.
  const sessions = await copyDesigns(tx, lines, cartId)
  // Parents first, so children can point at the copies.
  const ordered = [...lines].sort(
    (a, b) => Number(a.parentId !== null) - Number(b.parentId !== null) || a.id - b.id,
  )
  for (const line of ordered) {
    const [row] = await tx
      .insert(cartItems)
      .values({
        cartId,
        productId: line.productId,
        categoryId: line.categoryId,
        quantity: line.quantity,
        parentId: line.parentId !== null ? (idMap.get(line.parentId) ?? null) : null,
        isIsolatedFromParent: line.isIsolatedFromParent,
        isFreeGift: line.isFreeGift,
        sequenceId: line.sequenceId,
        printableSign: copiedSign(line.printableSign),
        options: line.options,
        workWearSession: line.workWearSession && {
          ...line.workWearSession,
          id: sessions.get(line.workWearSession.id) ?? line.workWearSession.id,
        },
      })
      .returning({ id: cartItems.id })
    idMap.set(line.id, row!.id)
  }
}

/**
 * A new session basket of the site holding a copy of `source`'s lines (`lines`), with its
 * delivery choices; priced as it stands (no code: a copy carries none) and its header summary
 * stored. `owner` says whose it is: a customer's (a saved basket loaded) or a visitor's from a
 * share link (`shared`).
 */
export async function sessionCopyOf(
  store: BasketStore,
  tx: Tx,
  site: Site,
  source: CartRow,
  lines: CartItemRow[],
  owner: { customerId: number } | { shared: true },
): Promise<{ copy: CartRow; lines: LineRow[]; priced: Priced }> {
  const [copy] = await tx
    .insert(carts)
    .values({
      siteId: site.id,
      kind: 'session',
      ...owner,
      shippingZone: source.shippingZone,
      despatchType: source.despatchType,
    })
    .returning()
  await copyLines(tx, lines, copy!.id, store.copyDesigns)
  const fresh = await loadLines(tx, copy!.id)
  const priced = await priceBasket(store, tx, site, copy!, fresh, 'frozen')
  await tx
    .update(carts)
    .set({ summaryCount: priced.priced.totalItems, summaryTotal: priced.priced.totalPriceIncTax })
    .where(eq(carts.id, copy!.id))
  return { copy: copy!, lines: fresh, priced }
}
