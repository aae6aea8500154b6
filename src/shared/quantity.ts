/**
 * Quantity editor rules (spec §4 "Quantity editor", §5 "Quantity", §9). Pure functions, shared by
 * the price grid, the builder and (later) the basket's editor.
 *
 * - A quantity is a whole number from 0 to MAX_QUANTITY.
 * - A line has a minimum order (price grids default to 1). Any quantity above 0 is at least that.
 * - Price grid rows may be 0 (not ordered): `allowZero`. Decreasing from the minimum order then
 *   goes to 0, increasing from 0 goes straight to the minimum order. Without `allowZero` (the
 *   basket editor) decreasing never goes below the minimum order.
 * - Non-numeric text when plus or minus is pressed becomes 1 (then the minimum-order rule applies).
 * - Typing a value below the minimum order but not 0 raises it to the minimum order; the field
 *   shows the raised value when it loses focus (blur).
 */

import { MAX_QUANTITY } from './checkout-rules.ts'

export { MAX_QUANTITY }
/** Price grid rows: minimum order when the SKU sets none. */
export const GRID_MINIMUM_ORDER = 1

export interface QuantityRule {
  /** The line's minimum order, 1 or more */
  minimumOrder: number
  /** Whether 0 is a valid quantity (a price grid row that is not ordered) */
  allowZero: boolean
  /** Defaults to MAX_QUANTITY */
  max?: number
}

/** A rule for a price grid row with the given minimum order (default 1). */
export function gridRule(minimumOrder?: number | null): QuantityRule {
  return { minimumOrder: sanitiseMinimum(minimumOrder ?? GRID_MINIMUM_ORDER), allowZero: true }
}

function sanitiseMinimum(value: number): number {
  return Number.isFinite(value) && value >= 1 ? Math.min(Math.floor(value), MAX_QUANTITY) : 1
}

function maxOf(rule: QuantityRule): number {
  return Math.min(rule.max ?? MAX_QUANTITY, MAX_QUANTITY)
}

/** Whole number from text or number; null for empty, negative, fractional or non-numeric input. */
export function parseQuantity(input: string | number | null | undefined): number | null {
  if (typeof input === 'number') return Number.isInteger(input) && input >= 0 ? input : null
  if (typeof input !== 'string') return null
  const text = input.trim()
  if (!/^\d+$/.test(text)) return null
  const n = Number(text)
  return Number.isSafeInteger(n) ? n : MAX_QUANTITY
}

/** Brings a whole number within the rule: 0 (if allowed), else minimum order..max. */
export function clampQuantity(quantity: number, rule: QuantityRule): number {
  const min = sanitiseMinimum(rule.minimumOrder)
  const max = maxOf(rule)
  if (!(quantity > 0)) return rule.allowZero ? 0 : min
  const whole = Math.floor(quantity)
  if (whole < min) return min
  return Math.min(whole, max)
}

/** The plus button. */
export function increment(current: string | number | null | undefined, rule: QuantityRule): number {
  const n = parseQuantity(current)
  if (n === null) return clampQuantity(1, rule)
  return clampQuantity(Math.max(n + 1, sanitiseMinimum(rule.minimumOrder)), rule)
}

/** The minus button. */
export function decrement(current: string | number | null | undefined, rule: QuantityRule): number {
  const n = parseQuantity(current)
  if (n === null) return clampQuantity(1, rule)
  const next = Math.min(n, maxOf(rule)) - 1
  if (next < sanitiseMinimum(rule.minimumOrder))
    return rule.allowZero ? 0 : sanitiseMinimum(rule.minimumOrder)
  return next
}

/**
 * The quantity that counts while the visitor types (totals, price bracket, what gets added):
 * empty or non-numeric text is 0 (or the minimum when 0 is not allowed), 0 stays 0, anything
 * between 0 and the minimum order is raised to it, anything above the maximum is lowered to it.
 */
export function typedQuantity(text: string, rule: QuantityRule): number {
  const n = parseQuantity(text)
  return clampQuantity(n ?? 0, rule)
}

/** The quantity the field settles on when it loses focus: the typed quantity, shown as such. */
export function blurQuantity(text: string, rule: QuantityRule): number {
  return typedQuantity(text, rule)
}

/**
 * What the field shows while focused: the visitor's own text, except that a number above the
 * maximum is replaced by the maximum at once.
 */
export function displayWhileTyping(text: string, rule: QuantityRule): string {
  const n = parseQuantity(text)
  return n !== null && n > maxOf(rule) ? String(maxOf(rule)) : text
}

/**
 * Choosing an option in a grid row with several SKUs: the siblings go to 0 and the chosen SKU
 * takes the row's quantity (at least its minimum order; its minimum order when the row had none).
 */
export function chooseOption(
  quantities: Readonly<Record<number, number>>,
  siblings: readonly { productId: number; minimumOrder?: number }[],
  chosenId: number,
): Record<number, number> {
  const rowQuantity = siblings.reduce((max, s) => Math.max(max, quantities[s.productId] ?? 0), 0)
  const next: Record<number, number> = { ...quantities }
  for (const sibling of siblings) {
    if (sibling.productId === chosenId) {
      const rule = gridRule(sibling.minimumOrder)
      next[sibling.productId] = clampQuantity(rowQuantity > 0 ? rowQuantity : rule.minimumOrder, rule)
    } else {
      next[sibling.productId] = 0
    }
  }
  return next
}
