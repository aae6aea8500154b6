/**
 * Price-break arithmetic for price grids (spec §3 "Price grid", §5, §9). A SKU's price list is a
 * run of brackets, each with a unit price for quantities lowerQty..higherQty. A bracket named with
 * a trailing '+' ('100+') is open-ended and runs to MAX_BRACKET_QUANTITY. All money is integer
 * minor units, ex VAT.
 */
import type { PriceBreak } from './catalog.ts'

/** Upper bound of an open-ended bracket ('100+'); also the largest quantity one line may hold. */
export const MAX_BRACKET_QUANTITY = 9999

/** A bracket with both bounds known: an open-ended one ends at MAX_BRACKET_QUANTITY. */
export interface Bracket {
  lowerQty: number
  higherQty: number
  /** Unit price, minor units, ex VAT */
  price: number
  /** Column label: '1-9', '10-24', '100+' */
  name: string
}

/**
 * Bounds from a column label: '10-24' → 10..24, '100+' → 100..9999, '5' → 5..5.
 * Null when the label is not a quantity range.
 */
export function parseBracketName(name: string): { lowerQty: number; higherQty: number } | null {
  const text = name.replace(/\s+/g, '')
  const open = /^(\d+)\+$/.exec(text)
  if (open) return { lowerQty: Number(open[1]), higherQty: MAX_BRACKET_QUANTITY }
  const range = /^(\d+)[-–](\d+)$/.exec(text)
  if (range) {
    const lowerQty = Number(range[1])
    const higherQty = Number(range[2])
    return higherQty >= lowerQty ? { lowerQty, higherQty } : null
  }
  const single = /^(\d+)$/.exec(text)
  if (single) return { lowerQty: Number(single[1]), higherQty: Number(single[1]) }
  return null
}

/** The label a bracket is shown under: its own name, else '10-24' or '100+' from its bounds. */
export function bracketName(lowerQty: number, higherQty: number | null): string {
  return higherQty === null || higherQty >= MAX_BRACKET_QUANTITY ? `${lowerQty}+` : `${lowerQty}-${higherQty}`
}

/**
 * A price list as complete brackets, lowest quantity first. Missing bounds come from the name
 * (and a missing name from the bounds); an open-ended upper bound becomes 9999. Entries without a
 * usable price or range are dropped.
 */
export function normaliseBrackets(list: readonly PriceBreak[] | null | undefined): Bracket[] {
  if (!Array.isArray(list)) return []
  const out: Bracket[] = []
  for (const entry of list) {
    if (!entry || !Number.isFinite(entry.price) || entry.price < 0) continue
    const fromName = typeof entry.name === 'string' ? parseBracketName(entry.name) : null
    const lowerQty = Number.isInteger(entry.lowerQty) ? entry.lowerQty : fromName?.lowerQty
    let higherQty: number | undefined
    if (entry.higherQty === null) higherQty = MAX_BRACKET_QUANTITY
    else if (Number.isInteger(entry.higherQty)) higherQty = entry.higherQty
    else higherQty = fromName?.higherQty
    if (lowerQty === undefined || higherQty === undefined || higherQty < lowerQty) continue
    const name =
      typeof entry.name === 'string' && entry.name.trim()
        ? entry.name.trim()
        : bracketName(lowerQty, higherQty)
    out.push({
      lowerQty,
      higherQty: Math.min(higherQty, MAX_BRACKET_QUANTITY),
      price: Math.round(entry.price),
      name,
    })
  }
  return out.sort((a, b) => a.lowerQty - b.lowerQty || a.higherQty - b.higherQty)
}

/**
 * Index of the bracket whose range holds `quantity`, or -1 for a quantity of 0 or less (nothing
 * ordered, nothing highlighted). Below the first bracket counts as the first; above the last (or in
 * a gap between brackets) counts as the nearest bracket below.
 */
export function bracketIndexFor(brackets: readonly Bracket[], quantity: number): number {
  if (brackets.length === 0 || !(quantity > 0)) return -1
  let index = 0
  for (let i = 0; i < brackets.length; i++) {
    const b = brackets[i]!
    if (quantity >= b.lowerQty) index = i
    if (quantity >= b.lowerQty && quantity <= b.higherQty) return i
  }
  return index
}

/** Unit price for a quantity (the first bracket's for 0). 0 when the list is empty. */
export function unitPriceFor(brackets: readonly Bracket[], quantity: number): number {
  if (brackets.length === 0) return 0
  const index = bracketIndexFor(brackets, quantity)
  return brackets[index < 0 ? 0 : index]!.price
}

/** Line total: unit price of the quantity's bracket × quantity. */
export function lineTotal(brackets: readonly Bracket[], quantity: number): number {
  if (!(quantity > 0)) return 0
  return unitPriceFor(brackets, quantity) * Math.floor(quantity)
}

/** Sum of line totals: a price grid's total. */
export function gridTotal(lines: readonly { brackets: readonly Bracket[]; quantity: number }[]): number {
  return lines.reduce((sum, line) => sum + lineTotal(line.brackets, line.quantity), 0)
}

/** The lowest unit price over several price lists ('As Low As'); 0 when there is none. */
export function lowestUnitPrice(lists: readonly (readonly Bracket[])[]): number {
  let lowest = Infinity
  for (const list of lists) for (const b of list) if (b.price > 0 && b.price < lowest) lowest = b.price
  return Number.isFinite(lowest) ? lowest : 0
}

/** The highest unit price over several price lists; 0 when there is none. */
export function highestUnitPrice(lists: readonly (readonly Bracket[])[]): number {
  let highest = 0
  for (const list of lists) for (const b of list) if (b.price > highest) highest = b.price
  return highest
}

/**
 * A product id as the grid's option values carry it: 12, '12' or 'P12' (the P prefix is accepted
 * and ignored). Null for anything else.
 */
export function parseProductId(value: unknown): number | null {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value > 0 ? value : null
  if (typeof value !== 'string') return null
  const match = /^P?(\d{1,15})$/i.exec(value.trim())
  if (!match) return null
  const id = Number(match[1])
  return Number.isSafeInteger(id) && id > 0 ? id : null
}
