/** Price brackets and the lowest price of a product group. Money is integer minor units, ex VAT. */
import type { PriceBreak } from '../../../../shared/catalog.ts'

/** Bracket label: '1-9', '10', '100+'. */
export function bracketName(lowerQty: number, higherQty: number | null): string {
  if (higherQty === null) return `${lowerQty}+`
  return lowerQty === higherQty ? `${lowerQty}` : `${lowerQty}-${higherQty}`
}

/** Discount per step down the brackets (fraction of the single price). */
const STEP_DISCOUNTS = [0, 0.07, 0.13, 0.19, 0.24]

/**
 * 2-5 brackets starting at the first lower bound, the last one open-ended, each unit price
 * strictly lower than the one before (fewer brackets for prices of a few pence).
 * `lowerBounds` must be increasing and start at 1.
 */
export function priceBreaks(basePrice: number, lowerBounds: readonly number[], count: number): PriceBreak[] {
  const base = Math.max(2, Math.round(basePrice))
  // A price of p minor units leaves room for at most p strictly falling brackets.
  const n = Math.min(base, Math.max(2, Math.min(count, lowerBounds.length, STEP_DISCOUNTS.length)))
  const breaks: PriceBreak[] = []
  let previous = Number.POSITIVE_INFINITY
  for (let i = 0; i < n; i++) {
    const lowerQty = lowerBounds[i] as number
    const higherQty = i === n - 1 ? null : (lowerBounds[i + 1] as number) - 1
    // Below the previous price, yet high enough for the brackets still to come.
    const price = Math.max(
      n - i,
      Math.min(previous - 1, Math.round(base * (1 - (STEP_DISCOUNTS[i] as number)))),
    )
    previous = price
    breaks.push({ lowerQty, higherQty, price, name: bracketName(lowerQty, higherQty) })
  }
  return breaks
}

/** A 'nice' price near the given amount: ends in 9 or 5 pence. */
export function nicePrice(amount: number): number {
  const p = Math.max(99, Math.round(amount))
  if (p < 1000) return Math.floor(p / 10) * 10 + 9
  if (p < 10000) return Math.floor(p / 50) * 50 + 49
  return Math.floor(p / 500) * 500 + 499
}

/**
 * The lowest published unit price across a group's SKUs and all their brackets (0 when no SKU
 * is published). This is the 'As Low As' price and the listing sort key.
 */
export function computeMinPrice(
  skus: readonly { published: boolean; priceList: readonly PriceBreak[] }[],
): number {
  let min = Number.POSITIVE_INFINITY
  for (const sku of skus) {
    if (!sku.published) continue
    for (const bracket of sku.priceList) if (bracket.price < min) min = bracket.price
  }
  return Number.isFinite(min) ? min : 0
}
