/**
 * The product page's price grids (spec §3 Price grid): SKUs grouped into up to three grids of
 * rows and quantity-break columns.
 */
import type { CatalogAttributes, PriceBreak } from '../../../shared/catalog.ts'
import { normaliseBrackets, type Bracket } from '../../../shared/pricing.ts'
import type { FullGridOption, GridColumn, GridRow, PriceGrid } from '../../../shared/product.ts'
import { bracketsFromColumns, leanOption } from '../../../shared/product.ts'
import { GRID_MINIMUM_ORDER } from '../../../shared/quantity.ts'
import type { ProductRow } from './catalog.tables.ts'
import { isObject, plainText, slugPart } from './product.values.ts'

export const MAX_PRICE_GRIDS = 3

/**
 * Grids 1 to 3 from the SKUs: SKUs sharing a row key form one row with a dropdown of options
 * (first seen keeps the row's place), others are rows of their own. A grid's columns are the
 * union of its SKUs' price brackets, by name, lowest quantity first.
 */
export function buildPriceGrids(
  skus: readonly ProductRow[],
  attributes: CatalogAttributes = {},
): PriceGrid[] {
  const byGrid = new Map<number, ProductRow[]>()
  const ordered = [...skus]
    .filter((s) => s.published !== false)
    .sort((a, b) => gridNumber(a.grid) - gridNumber(b.grid) || a.position - b.position || a.id - b.id)
  for (const sku of ordered) {
    const n = gridNumber(sku.grid)
    byGrid.set(n, [...(byGrid.get(n) ?? []), sku])
  }
  const descriptions = isObject(attributes.pricing?.grid_descriptions)
    ? attributes.pricing.grid_descriptions
    : {}
  const unit = plainText(attributes.pricing?.unit_of_measurement) || null
  const grids: PriceGrid[] = []
  for (const [number, members] of [...byGrid.entries()].sort((a, b) => a[0] - b[0])) {
    const bracketsById = new Map(members.map((s) => [s.id, normaliseBrackets(s.priceList)]))
    const columns = gridColumns([...bracketsById.values()])
    const rows: GridRow[] = []
    const rowByKey = new Map<string, GridRow>()
    for (const sku of members) {
      const option = gridOption(sku, bracketsById.get(sku.id) ?? [], columns)
      const key = sku.rowKey?.trim()
      const existing = key ? rowByKey.get(key) : undefined
      if (existing) {
        existing.options.push(option)
        continue
      }
      const row: GridRow = {
        key: key ? `g${number}-${slugPart(key)}` : `g${number}-p${sku.id}`,
        productCode: sku.productCode,
        description: plainText(sku.description) || plainText(sku.name),
        options: [option],
      }
      rows.push(row)
      if (key) rowByKey.set(key, row)
    }
    // A row of several options reads what they share ('Standard', not the first one's
    // 'Standard, Black'); once an option is chosen the row reads that option's own description.
    for (const row of rows) {
      if (row.options.length < 2) continue
      const first = row.options[0]!
      const suffix = `, ${first.label}`
      if (first.description!.endsWith(suffix)) row.description = first.description!.slice(0, -suffix.length)
    }
    // What the page derives from the row is left out of each option (ADR 0110).
    for (const row of rows) row.options = row.options.map((o) => leanOption(row, o as FullGridOption))
    const description = descriptions[String(number)]
    grids.push({
      number,
      description: typeof description === 'string' && description.trim() ? plainText(description) : null,
      unitOfMeasurement: unit,
      columns,
      rows,
    })
  }
  return grids
}

function gridNumber(value: number): number {
  return Number.isInteger(value) && value >= 1 && value <= MAX_PRICE_GRIDS ? value : 1
}

function gridColumns(lists: readonly Bracket[][]): GridColumn[] {
  const byName = new Map<string, GridColumn>()
  for (const list of lists)
    for (const b of list)
      if (!byName.has(b.name))
        byName.set(b.name, { name: b.name, lowerQty: b.lowerQty, higherQty: b.higherQty })
  return [...byName.values()].sort((a, b) => a.lowerQty - b.lowerQty || a.higherQty - b.higherQty)
}

function gridOption(sku: ProductRow, brackets: Bracket[], columns: GridColumn[]): FullGridOption {
  const byName = new Map(brackets.map((b) => [b.name, b.price]))
  const priceList: PriceBreak[] = brackets.map((b) => ({
    lowerQty: b.lowerQty,
    higherQty: b.higherQty,
    price: b.price,
    name: b.name,
  }))
  const prices = columns.map((c) => byName.get(c.name) ?? null)
  const fromColumns = bracketsFromColumns(columns, prices)
  const same =
    fromColumns.length === priceList.length &&
    fromColumns.every(
      (b, i) =>
        b.name === priceList[i]!.name &&
        b.lowerQty === priceList[i]!.lowerQty &&
        b.higherQty === priceList[i]!.higherQty &&
        b.price === priceList[i]!.price,
    )
  return {
    productId: sku.id,
    sku: sku.sku,
    productCode: sku.productCode,
    label: plainText(sku.optionLabel) || plainText(sku.name) || sku.productCode,
    description: plainText(sku.description) || plainText(sku.name),
    minimumOrder: sku.minimumOrder >= 1 ? sku.minimumOrder : GRID_MINIMUM_ORDER,
    // Sent only when the grid's columns and this SKU's prices do not already say it (ADR 0104).
    ...(same ? {} : { priceList }),
    prices,
    wasPrice: sku.wasPrice !== null && sku.wasPrice > 0 ? sku.wasPrice : null,
  }
}
