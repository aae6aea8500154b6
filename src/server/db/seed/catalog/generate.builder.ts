/** A category builder of the demo catalogue, made from a builder plan and the category's SKUs. */
import { type BuilderPlan } from './vocabulary.ts'
import type { SeedBuilder, SeedBuilderItem, SeedGroup, SeedSku } from './generate.types.ts'

/**
 * A category builder: 'Size' lists the sizes of every product in the category, each naming its
 * SKU (a product page offers only its own sizes, the first one chosen), then the plan.
 */
export function buildBuilder(
  plan: BuilderPlan,
  groups: readonly SeedGroup[],
  skus: SeedSku[],
  nextId: () => number,
): SeedBuilder {
  const sizeItems: SeedBuilderItem[] = []
  for (const group of groups) {
    const rows = skus.filter((s) => s.groupUrl === group.url && s.grid === 1 && s.published)
    const seenRows = new Set<string>()
    for (const sku of rows) {
      const size = sku.description.split(', ')[0] ?? sku.description
      if (seenRows.has(size)) continue
      sizeItems.push({
        id: nextId(),
        name: size,
        cost: sku.priceList[0]?.price ?? 0,
        sku: sku.sku,
        ...(seenRows.size === 0 ? { selected: true } : {}),
      })
      seenRows.add(size)
    }
  }
  const toGroup = (g: { name: string; items: [string, number][] }, selectFirst: boolean) => ({
    name: g.name,
    items: g.items.map(([name, cost], n) => ({
      id: nextId(),
      name,
      cost,
      sku: null,
      ...(selectFirst && n === 0 ? { selected: true } : {}),
    })),
  })
  return {
    selectors: [{ name: 'Size', items: sizeItems }, ...plan.selectors.map((s) => toGroup(s, true))],
    options: plan.options.map((o) => toGroup(o, false)),
  }
}
