/**
 * A basket's promotional code (one at most: ADR 0120): applying and dropping codes, the code in
 * force and whether it can be used now (a limited code's use is held: ADR 0122,
 * promotion-holds.ts), and the free gift line it earns. Every write here runs inside the
 * caller's locked basket change.
 */
import { and, eq, inArray } from 'drizzle-orm'
import {
  CART_TEXT,
  normalisePromotionCode,
  promotionCodesInForce,
  tooManyPromotionCodes,
  type PromoError,
} from '../../../shared/cart.ts'
import type { Executor, Tx } from '../../db/client.ts'
import type { Site } from '../sites/sites.service.ts'
import { invalid } from './cart.errors.ts'
import { lockSessionCart } from './cart.lines.ts'
import { goodsTotal } from './cart.price-inputs.ts'
import type { BasketStore } from './cart.store.ts'
import { cartItems, carts, promotions, type CartRow, type PromotionRow } from './cart.tables.ts'
import type { LineRow } from './cart.types.ts'
import { holdPromotion, holdsPromotion, releasePromotion } from './promotion-holds.ts'

/** Whether a promotion can be used now on a basket whose goods come to `goodsTotal`. */
function promotionApplies(promo: PromotionRow, goods: number, now = new Date()): boolean {
  if (!promo.active) return false
  if (promo.startsAt && promo.startsAt.getTime() > now.getTime()) return false
  if (promo.endsAt && promo.endsAt.getTime() < now.getTime()) return false
  return goods >= promo.minimumSpend
}

/** The basket's code in force that can be used now (null: none), and the errors of one that cannot. */
export interface CodeInForce {
  promo: PromotionRow | null
  errors: PromoError[]
}

/** The promotions behind a basket's codes. */
export async function findPromotions(
  executor: Executor,
  siteId: number,
  codes: string[],
): Promise<PromotionRow[]> {
  if (codes.length === 0) return []
  return executor
    .select()
    .from(promotions)
    .where(and(eq(promotions.siteId, siteId), inArray(promotions.code, codes)))
}

/**
 * Makes `requested` the cart's codes. A code dropped gives back its use; a new code must exist
 * on this site, be in date, reach its minimum spend and (when limited) win one of the uses left
 * (promotion-holds.ts: one statement decides, so a limit holds however many baskets try at
 * once, and holds that expired count as free). Promotion rows are touched in id order.
 */
export async function applyCodes(
  tx: Tx,
  site: Site,
  cart: CartRow,
  lines: LineRow[],
  requested: string[],
): Promise<PromoError[]> {
  // One code per basket (ADR 0120): enforced here too, whatever called with whatever list.
  if (tooManyPromotionCodes(requested)) throw invalid('promotionCodes', CART_TEXT.promoOnlyOne)
  const wanted: { code: string; entered: string }[] = []
  for (const entered of requested) {
    const code = normalisePromotionCode(entered)
    if (code && !wanted.some((w) => w.code === code)) wanted.push({ code, entered: entered.trim() })
  }
  const current = cart.promotionCodes ?? []
  const removed = current.filter((c) => !wanted.some((w) => w.code === c))
  const added = wanted.filter((w) => !current.includes(w.code))
  const rows = await findPromotions(tx, site.id, [...removed, ...added.map((a) => a.code)])
  const byCode = new Map(rows.map((r) => [r.code, r]))

  const goods = goodsTotal(lines)
  const errors: PromoError[] = []
  const keep = current.filter((c) => !removed.includes(c))
  // Releases and takes, ordered by promotion id: two baskets swapping codes never deadlock.
  const steps: { promotionId: number; run: () => Promise<void> }[] = []
  for (const code of removed) {
    const promo = byCode.get(code)
    if (promo) steps.push({ promotionId: promo.id, run: () => releasePromotion(tx, promo.id, cart.id) })
  }
  const outcomes = new Map<string, PromoError | null>()
  for (const { code, entered } of added) {
    const promo = byCode.get(code)
    if (!promo || !promotionApplies(promo, goods)) {
      outcomes.set(code, { message: CART_TEXT.promoInvalid, code: entered })
      continue
    }
    steps.push({
      promotionId: promo.id,
      run: async () => {
        const held = await holdPromotion(tx, promo, cart.id, { extend: false })
        outcomes.set(code, held ? null : { message: CART_TEXT.promoUsedUp, code: entered })
      },
    })
  }
  steps.sort((a, b) => a.promotionId - b.promotionId)
  for (const step of steps) await step.run()
  for (const { code } of added) {
    const error = outcomes.get(code)
    if (error) errors.push(error)
    else keep.push(code)
  }
  await tx.update(carts).set({ promotionCodes: keep }).where(eq(carts.id, cart.id))
  cart.promotionCodes = keep
  return errors
}

/**
 * A basket row stored before the one-code limit may hold several codes: all but the one in
 * force are dropped, and their uses given back (inside the caller's locked change).
 */
export async function dropCodesOverLimit(tx: Tx, site: Site, cart: CartRow, lines: LineRow[]): Promise<void> {
  const inForce = promotionCodesInForce(cart.promotionCodes)
  if ((cart.promotionCodes ?? []).length > inForce.length) await applyCodes(tx, site, cart, lines, inForce)
}

/**
 * Adds the gift line of the code in force when it is a free gift that applies, and drops gifts
 * no longer earned (`promo` is the code in force that can be used: codeInForce()).
 */
export async function syncGifts(
  tx: Tx,
  cart: CartRow,
  lines: LineRow[],
  promo: PromotionRow | null,
): Promise<boolean> {
  const goods = goodsTotal(lines)
  const wanted = new Set(
    promo &&
      promo.kind === 'free_gift' &&
      promo.giftProductId !== null &&
      promotionApplies(promo, goods) &&
      goods > 0
      ? [promo.giftProductId]
      : [],
  )
  const gifts = lines.filter((l) => l.item.isFreeGift)
  const stale = gifts.filter((g) => !wanted.has(g.item.productId)).map((g) => g.item.id)
  const missing = [...wanted].filter((id) => !gifts.some((g) => g.item.productId === id))
  if (stale.length) await tx.delete(cartItems).where(inArray(cartItems.id, stale))
  for (const productId of missing) {
    await tx.insert(cartItems).values({ cartId: cart.id, productId, quantity: 1, isFreeGift: true })
  }
  return stale.length > 0 || missing.length > 0
}

/**
 * The basket's code in force (never more than one, even from a row stored before the limit:
 * ADR 0120) and whether it can be used now: it exists, is in date, the goods reach its minimum
 * spend, and a limited code's use is held (ADR 0122). A hold that expired is taken again when a
 * use is left: by the caller's locked change (`write`; `order` also extends the hold for the
 * order being placed), or on a read in a short locked change of its own (`read`). Otherwise the
 * code stays on the basket, unpriced, with the spec's 'not valid or applicable' message.
 */
export async function codeInForce(
  store: BasketStore,
  executor: Executor,
  site: Site,
  cart: CartRow,
  lines: LineRow[],
  mode: 'read' | 'write' | 'order' | 'frozen',
): Promise<CodeInForce> {
  const [code] = promotionCodesInForce(cart.promotionCodes)
  if (code === undefined) return { promo: null, errors: [] }
  const [found] = await findPromotions(executor, site.id, [code])
  const refused = { promo: null, errors: [{ message: CART_TEXT.promoInvalid, code }] }
  if (!found || !promotionApplies(found, goodsTotal(lines))) return refused
  let held: boolean
  if (mode === 'frozen') held = true
  else if (mode === 'read') {
    held = (await holdsPromotion(executor, found, cart.id)) || (await holdAgain(store, site, cart.id, found))
  } else {
    held = await holdPromotion(executor as Tx, found, cart.id, { extend: mode === 'order' })
  }
  return held ? { promo: found, errors: [] } : refused
}

/** A read found the basket's hold expired: takes a use again, under the basket's lock, if one is left. */
async function holdAgain(
  store: BasketStore,
  site: Site,
  cartId: string,
  promo: PromotionRow,
): Promise<boolean> {
  return store.db.transaction(async (tx) => {
    const row = await lockSessionCart(tx, site.id, cartId)
    if (!row || promotionCodesInForce(row.promotionCodes)[0] !== promo.code) return false
    return holdPromotion(tx, promo, cartId, { extend: false })
  })
}
