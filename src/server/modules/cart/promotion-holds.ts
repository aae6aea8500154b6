/**
 * Uses of limited promotional codes (ADR 0122). A basket that applies a limited code holds one
 * use for PROMOTION_HOLD_MINUTES; placing an order turns the hold into a redemption (the checkout
 * deletes the `promotion_uses` row and the use stays counted). `promotions.times_used` counts
 * every `promotion_uses` row, live or expired, plus the redemptions; an expired row is given back
 * (deleted and uncounted) by the next basket that needs a use of that code, in the statement that
 * takes the use, so expired holds never count against the limit when a use is decided.
 *
 * Locks are always taken in one order: the promotion row, then `promotion_uses` rows. Expired rows
 * another transaction holds are skipped (it is giving them back, or turning them into a
 * redemption), so no statement here waits on another basket's use row.
 */
import { and, eq, gt, sql } from 'drizzle-orm'
import type { Executor, Tx } from '../../db/client.ts'
import { promotions, promotionUses, type PromotionRow } from './cart.tables.ts'

/** How long a basket holds a use of a limited code without an order being placed. */
export const PROMOTION_HOLD_MINUTES = 30

const holdUntil = sql`now() + ${sql.raw(`interval '${PROMOTION_HOLD_MINUTES} minutes'`)}`

/** The basket's use of the promotion that has not expired. */
function liveHold(promotionId: number, cartId: string) {
  return and(
    eq(promotionUses.promotionId, promotionId),
    eq(promotionUses.cartId, cartId),
    gt(promotionUses.expiresAt, sql`now()`),
  )
}

/** Whether the basket holds a live (unexpired) use of the promotion; always true for an unlimited one. */
export async function holdsPromotion(
  executor: Executor,
  promo: PromotionRow,
  cartId: string,
): Promise<boolean> {
  if (promo.usageLimit === null) return true
  const [live] = await executor
    .select({ id: promotionUses.promotionId })
    .from(promotionUses)
    .where(liveHold(promo.id, cartId))
  return live !== undefined
}

/**
 * Makes sure the basket (locked by the caller's transaction) holds a use of the promotion: a live
 * hold is kept (with `extend`, for placing an order, it runs PROMOTION_HOLD_MINUTES from now and
 * is locked until the order commits); otherwise a use is taken if one is left, counting expired
 * holds as free. False when every use is held or redeemed.
 */
export async function holdPromotion(
  tx: Tx,
  promo: PromotionRow,
  cartId: string,
  opts: { extend: boolean },
): Promise<boolean> {
  if (promo.usageLimit === null) return true
  const live = opts.extend
    ? (
        await tx
          .update(promotionUses)
          .set({ expiresAt: holdUntil })
          .where(liveHold(promo.id, cartId))
          .returning({ id: promotionUses.promotionId })
      ).length > 0
    : await holdsPromotion(tx, promo, cartId)
  if (live) return true
  return takeUse(tx, promo.id, cartId)
}

/**
 * One statement decides and takes a use. It locks the promotion row first (so the count below is
 * the latest, whoever committed meanwhile), then the code's expired holds that nobody else holds,
 * and counts those as free: the use is taken when `times_used` less the expired holds is under the
 * limit. Taking it gives the expired holds back (their rows deleted, `times_used` lowered by their
 * number) and writes this basket's hold; when no use is left nothing at all changes.
 */
async function takeUse(tx: Tx, promotionId: number, cartId: string): Promise<boolean> {
  const result = (await tx.execute(sql`
    with promo as (
      select id from ${promotions} where id = ${promotionId} for update
    ), expired as (
      select cart_id from ${promotionUses}
      where promotion_id = (select id from promo) and expires_at <= now()
      for update skip locked
    ), won as (
      update ${promotions}
      set times_used = greatest(0, times_used - (select count(*) from expired)::integer) + 1
      where id = (select id from promo)
        and (usage_limit is null or times_used - (select count(*) from expired)::integer < usage_limit)
      returning id
    ), given_back as (
      delete from ${promotionUses}
      where promotion_id = (select id from won)
        and cart_id in (select cart_id from expired)
        and cart_id <> ${cartId}
    )
    insert into ${promotionUses} (promotion_id, cart_id, expires_at)
    select id, ${cartId}, ${holdUntil} from won
    on conflict (promotion_id, cart_id) do update set expires_at = excluded.expires_at
    returning promotion_id
  `)) as unknown as { rows: unknown[] }
  return result.rows.length > 0
}

/** Gives back the basket's use of a promotion (the code was removed): its row deleted, uncounted. */
export async function releasePromotion(tx: Tx, promotionId: number, cartId: string): Promise<void> {
  const released = await tx
    .delete(promotionUses)
    .where(and(eq(promotionUses.promotionId, promotionId), eq(promotionUses.cartId, cartId)))
    .returning({ id: promotionUses.promotionId })
  // None when another basket gave this expired hold back a moment ago (and uncounted it then).
  if (released.length) {
    await tx
      .update(promotions)
      .set({ timesUsed: sql`greatest(0, ${promotions.timesUsed} - 1)` })
      .where(eq(promotions.id, promotionId))
  }
}
