/**
 * The product builder of a category (spec §3 "Builder", §5, §9): selectors (the first one picks
 * the base product and its cost) and options, one choice per group. The subtotal is the sum of the
 * chosen selector and option costs × quantity. Adding is allowed only when a quantity is set and
 * the first selector's chosen cost is above 0. Money is integer minor units, ex VAT.
 */
import type { BuilderConfig, BuilderGroup, BuilderItem } from './catalog.ts'
import type { BasketAddItem } from './product.ts'

/** The chosen item id per group, by position; null = nothing chosen in that group. */
export interface BuilderSelection {
  selectors: (number | null)[]
  options: (number | null)[]
}

function chosenIn(groups: readonly BuilderGroup[]): (number | null)[] {
  return groups.map((g) => g.items.find((i) => i.selected)?.id ?? null)
}

/** The selection the builder opens with: items flagged `selected`, else nothing. */
export function initialSelection(config: BuilderConfig): BuilderSelection {
  return { selectors: chosenIn(config.selectors), options: chosenIn(config.options) }
}

function itemIn(group: BuilderGroup | undefined, id: number | null | undefined): BuilderItem | null {
  if (!group || id === null || id === undefined) return null
  return group.items.find((i) => i.id === id) ?? null
}

/** The chosen items, selectors first, in group order. */
export function selectedItems(config: BuilderConfig, selection: BuilderSelection): BuilderItem[] {
  const out: BuilderItem[] = []
  config.selectors.forEach((g, i) => {
    const item = itemIn(g, selection.selectors[i])
    if (item) out.push(item)
  })
  config.options.forEach((g, i) => {
    const item = itemIn(g, selection.options[i])
    if (item) out.push(item)
  })
  return out
}

/** Sum of the chosen selector and option costs (one unit). */
export function builderUnitCost(config: BuilderConfig, selection: BuilderSelection): number {
  return selectedItems(config, selection).reduce(
    (sum, item) => sum + (Number.isFinite(item.cost) ? item.cost : 0),
    0,
  )
}

/** Sum of the chosen costs × quantity; 0 without a positive quantity. */
export function builderSubtotal(
  config: BuilderConfig,
  selection: BuilderSelection,
  quantity: number,
): number {
  if (!(quantity > 0)) return 0
  return builderUnitCost(config, selection) * Math.floor(quantity)
}

/** Cost of the item chosen in the first selector (0 when none). */
export function firstSelectorCost(config: BuilderConfig, selection: BuilderSelection): number {
  return itemIn(config.selectors[0], selection.selectors[0])?.cost ?? 0
}

/** Adding is allowed only with a quantity set and a first selector costing more than 0. */
export function canAddBuilder(config: BuilderConfig, selection: BuilderSelection, quantity: number): boolean {
  return quantity > 0 && firstSelectorCost(config, selection) > 0
}

/**
 * The add-to-basket line: the first selector's product as listing_id (else `fallbackListingId`),
 * with every chosen item's id in customisation.options. Null when adding is not allowed.
 */
export function builderBasketItems(
  config: BuilderConfig,
  selection: BuilderSelection,
  quantity: number,
  categoryId: number,
  fallbackListingId: number | null = null,
): BasketAddItem[] | null {
  if (!canAddBuilder(config, selection, quantity)) return null
  const listingId = itemIn(config.selectors[0], selection.selectors[0])?.product_id ?? fallbackListingId
  if (listingId === null) return null
  return [
    {
      listing_id: listingId,
      quantity: Math.floor(quantity),
      category_id: categoryId,
      customisation: { options: selectedItems(config, selection).map((i) => i.id) },
    },
  ]
}

/** Whether a value is a usable builder configuration (selectors with at least one item). */
export function isBuilderConfig(value: unknown): value is BuilderConfig {
  if (!value || typeof value !== 'object') return false
  const v = value as { selectors?: unknown; options?: unknown }
  const groups = (g: unknown) =>
    Array.isArray(g) &&
    g.every(
      (group) =>
        group &&
        typeof group === 'object' &&
        typeof (group as BuilderGroup).name === 'string' &&
        Array.isArray((group as BuilderGroup).items) &&
        (group as BuilderGroup).items.every(
          (i) => i && typeof i.id === 'number' && typeof i.name === 'string' && typeof i.cost === 'number',
        ),
    )
  return (
    groups(v.selectors) &&
    (v.options === undefined || groups(v.options)) &&
    (v.selectors as unknown[]).length > 0
  )
}
