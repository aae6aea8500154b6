/**
 * Catalogue import for the back office: SKUs (prices, stock, names, publication), matched by their
 * SKU code, the external key. A batch is validated row by row first; any bad row rejects the whole
 * batch with every row's errors (nothing written). A good batch is written in one transaction,
 * then the catalogue caches of every instance are told (ADR 0081).
 */
import { parse } from 'csv-parse/sync'
import { and, eq, inArray, sql } from 'drizzle-orm'
import { z } from 'zod'
import type { Db, Tx } from '../../db/client.ts'
import { productGroups, products } from '../catalog/catalog.tables.ts'
import type { CatalogService } from '../catalog/catalog.service.ts'
import { MAX_QUANTITY } from '../../../shared/quantity.ts'
import { field, int4, money } from './admin.fields.ts'

const priceBreak = z
  .object({
    lowerQty: int4({ min: 1 }),
    higherQty: int4({ min: 1 }).nullable(),
    price: money(),
    name: field().trim().min(1).max(40),
  })
  .strict()

export const skuRow = z
  .object({
    sku: field().trim().min(1).max(100),
    /** The product group's path (its external key); required for a new SKU. */
    group: field().trim().startsWith('/').max(500).optional(),
    name: field().trim().min(1).max(300).optional(),
    productCode: field().trim().min(1).max(100).optional(),
    priceList: z
      .array(priceBreak)
      .min(1)
      .max(20)
      .refine((list) => list.every((b, i) => i === 0 || b.lowerQty > list[i - 1]!.lowerQty), {
        message: 'brackets must be in rising lowerQty order',
      })
      .refine((list) => list.every((b) => b.higherQty === null || b.higherQty >= b.lowerQty), {
        message: 'higherQty must not be below lowerQty',
      })
      .optional(),
    wasPrice: money().nullable().optional(),
    qty: int4({ min: 0 }).optional(),
    minimumOrder: int4({ min: 1, max: MAX_QUANTITY }).optional(),
    published: z.boolean().optional(),
  })
  .strict()

export type SkuRow = z.infer<typeof skuRow>

export interface RowError {
  row: number
  field: string
  message: string
}

export class ImportError extends Error {
  constructor(readonly errors: RowError[]) {
    super('The batch was not imported: some rows are invalid.')
  }
}

/** The CSV column of each JSON field whose name differs. */
const CSV_COLUMN: Record<string, string> = {
  productCode: 'product_code',
  priceList: 'price_list',
  wasPrice: 'was_price',
  minimumOrder: 'minimum_order',
}

/** CSV columns: sku, group, name, product_code, price_list ("1-9:1000;10-24:900;25+:800"), was_price, qty, minimum_order, published. */
export function skuRowsFromCsv(text: string): { rows: unknown[]; errors: RowError[] } {
  let records: Record<string, string>[]
  try {
    records = parse(text, { columns: true, skip_empty_lines: true, trim: true, bom: true })
  } catch (err) {
    return { rows: [], errors: [{ row: 0, field: 'csv', message: (err as Error).message }] }
  }
  const errors: RowError[] = []
  const rows = records.map((r, i) => {
    const out: Record<string, unknown> = {}
    // Digits only (no 1e3, 0x10 or 1.0); the row schema then checks the range, as for JSON.
    const int = (field: string, value: string | undefined) => {
      if (value === undefined || value === '') return undefined
      if (!/^-?\d{1,20}$/.test(value)) errors.push({ row: i, field, message: 'must be a whole number' })
      return Number(value)
    }
    for (const [key, value] of Object.entries(r)) {
      if (value === '') continue
      switch (key) {
        case 'sku':
        case 'group':
        case 'name':
          out[key] = value
          break
        case 'product_code':
          out.productCode = value
          break
        case 'was_price':
          out.wasPrice = int(key, value)
          break
        case 'qty':
          out.qty = int(key, value)
          break
        case 'minimum_order':
          out.minimumOrder = int(key, value)
          break
        case 'published':
          if (value !== 'true' && value !== 'false') {
            errors.push({ row: i, field: key, message: 'must be true or false' })
          } else out.published = value === 'true'
          break
        case 'price_list':
          out.priceList = value.split(';').map((part) => {
            const m = /^\s*(\d{1,20})(?:-(\d{1,20})|(\+))?\s*:\s*(\d{1,20})\s*$/.exec(part)
            if (!m) {
              errors.push({ row: i, field: key, message: `'${part}' is not like 10-24:900 or 25+:800` })
              return null
            }
            const lower = Number(m[1])
            const higher = m[2] ? Number(m[2]) : m[3] ? null : lower
            return {
              lowerQty: lower,
              higherQty: higher,
              price: Number(m[4]),
              name: m[2] ? `${m[1]}-${m[2]}` : m[3] ? `${m[1]}+` : `${m[1]}`,
            }
          })
          break
        default:
          errors.push({ row: i, field: key, message: 'unknown column' })
      }
    }
    // A row whose cells all read is checked by the JSON rules now, so its errors name the columns.
    if (!errors.some((e) => e.row === i)) {
      const parsed = skuRow.safeParse(out)
      if (!parsed.success)
        for (const issue of parsed.error.issues) {
          const [key, ...rest] = issue.path.map(String)
          const column = key === undefined ? 'row' : (CSV_COLUMN[key] ?? key)
          errors.push({ row: i, field: [column, ...rest].join('.'), message: issue.message })
        }
    }
    return out
  })
  return { rows, errors }
}

export interface ImportResult {
  created: number
  updated: number
}

/** What a caller (the back office) does inside the batch's transaction. */
export interface ImportHooks {
  /** First, before anything is read: lock and check what the caller showed (throwing rolls back). */
  before?: (tx: Tx) => Promise<void>
  /** Last, after the rows are written: the audit row (ADR 0260), committed with the change. */
  after?: (tx: Tx, result: ImportResult & { skus: string[] }) => Promise<void>
}

/** Writes a batch in one transaction, then tells every instance's catalogue caches. */
export async function importSkus(
  db: Db,
  catalog: CatalogService,
  siteId: number,
  input: unknown[],
  preErrors: RowError[] = [],
  hooks: ImportHooks = {},
): Promise<ImportResult> {
  // Cells that could not be read (CSV) are reported alone: checking their rows further adds noise.
  if (preErrors.length) throw new ImportError(preErrors)
  const errors: RowError[] = []
  const rows: SkuRow[] = []
  if (input.length === 0) errors.push({ row: 0, field: 'items', message: 'the batch is empty' })
  if (input.length > 5000) errors.push({ row: 0, field: 'items', message: 'at most 5000 rows a batch' })
  input.forEach((raw, i) => {
    const parsed = skuRow.safeParse(raw)
    if (parsed.success) rows.push(parsed.data)
    else
      for (const issue of parsed.error.issues)
        errors.push({ row: i, field: issue.path.join('.') || 'row', message: issue.message })
  })
  const seen = new Map<string, number>()
  rows.forEach((r, i) => {
    if (seen.has(r.sku)) errors.push({ row: i, field: 'sku', message: `repeats row ${seen.get(r.sku)}` })
    seen.set(r.sku, i)
  })
  if (errors.length) throw new ImportError(errors)

  const result = await db.transaction(async (tx) => {
    await hooks.before?.(tx)
    const existing = await tx
      .select({ id: products.id, sku: products.sku, groupId: products.groupId })
      .from(products)
      .where(
        and(
          eq(products.siteId, siteId),
          inArray(
            products.sku,
            rows.map((r) => r.sku),
          ),
        ),
      )
      .for('update')
    const bySku = new Map(existing.map((e) => [e.sku, e]))
    const groupPaths = [...new Set(rows.map((r) => r.group).filter((g): g is string => !!g))]
    const groups = groupPaths.length
      ? await tx
          .select({ id: productGroups.id, url: productGroups.url })
          .from(productGroups)
          .where(and(eq(productGroups.siteId, siteId), inArray(productGroups.url, groupPaths)))
      : []
    const groupByUrl = new Map(groups.map((g) => [g.url, g.id]))
    const rowErrors: RowError[] = []
    rows.forEach((r, i) => {
      if (r.group && !groupByUrl.has(r.group))
        rowErrors.push({ row: i, field: 'group', message: 'no product group has this path' })
      if (!bySku.has(r.sku)) {
        for (const field of ['group', 'name', 'priceList'] as const)
          if (r[field] === undefined) rowErrors.push({ row: i, field, message: 'required for a new SKU' })
      }
    })
    if (rowErrors.length) throw new ImportError(rowErrors)

    let created = 0
    let updated = 0
    const touchedGroups = new Set<number>()
    for (const r of rows) {
      const found = bySku.get(r.sku)
      const groupId = r.group ? groupByUrl.get(r.group)! : found!.groupId
      const values = {
        ...(r.name !== undefined ? { name: r.name } : {}),
        ...(r.productCode !== undefined ? { productCode: r.productCode } : {}),
        ...(r.priceList !== undefined ? { priceList: r.priceList } : {}),
        ...(r.wasPrice !== undefined ? { wasPrice: r.wasPrice } : {}),
        ...(r.qty !== undefined ? { qty: r.qty } : {}),
        ...(r.minimumOrder !== undefined ? { minimumOrder: r.minimumOrder } : {}),
        ...(r.published !== undefined ? { published: r.published } : {}),
        groupId,
      }
      if (found) {
        await tx.update(products).set(values).where(eq(products.id, found.id))
        touchedGroups.add(found.groupId)
        updated++
      } else {
        await tx.insert(products).values({
          siteId,
          sku: r.sku,
          productCode: r.productCode ?? r.sku,
          name: r.name!,
          priceList: r.priceList!,
          ...values,
        })
        created++
      }
      touchedGroups.add(groupId)
    }
    // 'As low as' and price sorting read the group's lowest published price.
    const ids = [...touchedGroups]
    await tx
      .update(productGroups)
      .set({
        minPrice: sql`coalesce((select min((b->>'price')::int) from ${products} p, jsonb_array_elements(p.price_list) b where p.group_id = ${productGroups.id} and p.published), 0)`,
        updatedAt: sql`now()`,
      })
      .where(inArray(productGroups.id, ids))
    await hooks.after?.(tx, { created, updated, skus: rows.map((r) => r.sku) })
    return { created, updated, groupIds: ids }
  })
  catalog.invalidate({ siteId, groupIds: result.groupIds })
  return { created: result.created, updated: result.updated }
}
