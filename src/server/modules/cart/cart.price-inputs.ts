/**
 * What the pricing engine (cart.pricing.ts) is given for a basket's lines, and the rules read off
 * the lines themselves: a builder line's chosen items and their costs, the brackets a sign set or
 * a workwear order is priced by, the goods total a promotion's minimum spend is measured against,
 * and whether VAT relief applies. Pure functions: no statement is sent.
 */
import type { BuilderConfig } from '../../../shared/catalog.ts'
import { normaliseBrackets } from '../../../shared/pricing.ts'
import { vatReliefProblem } from '../../../shared/vat-relief.ts'
import type { Site } from '../sites/sites.service.ts'
import { priceCart, type PricingLineInput } from './cart.pricing.ts'
import type { CartRow } from './cart.tables.ts'
import type { LineRow } from './cart.types.ts'

interface ResolvedOption {
  id: number
  title: string
  name: string
  cost: number
}

/**
 * A builder line's chosen items, from the category's builder as it is now: the first selector's
 * item is the base price, every other chosen item an option with its cost.
 */
export function resolveOptions(
  builder: BuilderConfig | null,
  ids: readonly number[],
): { base: ResolvedOption | null; options: ResolvedOption[] } {
  if (!builder || ids.length === 0) return { base: null, options: [] }
  let base: ResolvedOption | null = null
  const options: ResolvedOption[] = []
  const groups = [
    ...builder.selectors.map((g, i) => ({ g, first: i === 0 })),
    ...(builder.options ?? []).map((g) => ({ g, first: false })),
  ]
  for (const id of ids) {
    for (const { g, first } of groups) {
      const item = g.items.find((it) => it.id === id)
      if (!item) continue
      const resolved = {
        id: item.id,
        title: g.name,
        name: item.name,
        cost: Math.max(0, Math.round(item.cost)),
      }
      if (first && !base) base = resolved
      else options.push(resolved)
      break
    }
  }
  return { base, options }
}

function pricingLine(l: LineRow, bracketQuantity?: number): PricingLineInput {
  const { base, options } = resolveOptions(l.categoryBuilder, l.item.options)
  const customisation = l.item.workWearSession?.builder_json.customisation ?? []
  return {
    id: l.item.id,
    quantity: l.item.quantity,
    brackets: normaliseBrackets(l.priceList),
    basePrice: base ? base.cost : null,
    optionCosts: [...options.map((o) => o.cost), ...customisation.map((c) => c.cost)],
    vatReliefEligible: l.vatReliefEligible,
    isFreeGift: l.item.isFreeGift,
    bracketQuantity,
  }
}

/**
 * Pricing inputs of the lines. The lines of a numbered sign set (one sequence_id) and of one
 * workwear order (one session) are priced by the bracket of their total quantity.
 */
export function pricingLines(lines: LineRow[]): PricingLineInput[] {
  const groupOf = (l: LineRow) =>
    l.item.sequenceId
      ? `s:${l.item.sequenceId}`
      : l.item.workWearSession
        ? `w:${l.item.workWearSession.id}`
        : null
  const totals = new Map<string, number>()
  for (const l of lines) {
    const key = groupOf(l)
    if (key && !l.item.isFreeGift) totals.set(key, (totals.get(key) ?? 0) + l.item.quantity)
  }
  return lines.map((l) => {
    const key = groupOf(l)
    return pricingLine(l, key ? totals.get(key) : undefined)
  })
}

/** The goods of a basket before any discount, VAT or delivery (free gifts left out). */
export function goodsTotal(lines: LineRow[]): number {
  return priceCart(pricingLines(lines.filter((l) => !l.item.isFreeGift)), {
    vatRate: 0,
    applyVatRelief: false,
    rates: [],
    despatchType: '',
    minimumOrderValue: 0,
    discount: { percentage: 0, fixed: 0, freeDelivery: false },
  }).itemsTotal
}

export function reliefLines(lines: LineRow[]) {
  return lines.map((l) => ({
    eligible: l.vatReliefEligible,
    kind: l.vatReliefKind,
    quantity: l.item.quantity,
    isFreeGift: l.item.isFreeGift,
  }))
}

/**
 * Whether eligible lines are zero-rated: the buyer claimed relief with a declaration, and the
 * basket as it is now still qualifies (a later change past a limit ends the relief).
 */
export function reliefApplies(site: Site, cart: CartRow, lines: LineRow[]): boolean {
  return (
    cart.applyVatRelief &&
    cart.vatReliefDeclaration !== null &&
    vatReliefProblem(site.settings.tax.rate, reliefLines(lines)) === null
  )
}
