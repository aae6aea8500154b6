/**
 * The back office's catalogue (issue 34): find a SKU or product group on either site, change a
 * SKU's price breaks, 'was' price and publication, publish or unpublish a product group, and
 * import a CSV. Every change goes through the integration API's own services (importSkus,
 * upsertGroups: the same zod rules, the same transaction, the same cache signal) with the audit
 * row written inside that transaction. Knows no HTTP.
 */
import { createHash } from 'node:crypto'
import { and, asc, eq, gt, ilike, or, type SQL } from 'drizzle-orm'
import type { PriceBreak } from '../../../shared/catalog.ts'
import type { Db, Executor } from '../../db/client.ts'
import { importSkus, ImportError, skuRowsFromCsv, type RowError } from '../admin/admin.catalog.ts'
import { upsertGroups } from '../admin/admin.operations.ts'
import type { CatalogService } from '../catalog/catalog.service.ts'
import { productGroups, products } from '../catalog/catalog.tables.ts'
import { sites } from '../sites/sites.tables.ts'
import { writeAudit, type Actor } from './staff.audit.ts'

export const CATALOGUE_PAGE_SIZE = 25

/** The sites, for the pages' site choices (with the currency their amounts are typed in). */
export async function siteList(db: Executor) {
  return db
    .select({ id: sites.id, name: sites.name, currency: sites.currency })
    .from(sites)
    .orderBy(asc(sites.id))
}

/** A short fingerprint of what an edit form showed; a write naming another one is stale. */
export function fingerprint(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('base64url').slice(0, 22)
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`)

export interface CatalogueQuery {
  q?: string | undefined
  site?: number | undefined
  /** The last SKU id of the page before. */
  after?: number | undefined
}

/** SKUs whose code, name or product group's name holds the text, in id order, a page at a time. */
export async function searchCatalogue(db: Executor, query: CatalogueQuery) {
  const where: SQL[] = []
  const q = query.q?.trim()
  if (q) {
    const like = `%${escapeLike(q)}%`
    where.push(or(ilike(products.sku, like), ilike(products.name, like), ilike(productGroups.name, like))!)
  }
  if (query.site !== undefined) where.push(eq(products.siteId, query.site))
  if (query.after !== undefined) where.push(gt(products.id, query.after))
  const rows = await db
    .select({
      id: products.id,
      sku: products.sku,
      name: products.name,
      published: products.published,
      priceList: products.priceList,
      site: sites.name,
      currency: sites.currency,
      group: productGroups.name,
      groupPublished: productGroups.published,
    })
    .from(products)
    .innerJoin(productGroups, eq(productGroups.id, products.groupId))
    .innerJoin(sites, eq(sites.id, products.siteId))
    .where(where.length ? and(...where) : undefined)
    .orderBy(asc(products.id))
    .limit(CATALOGUE_PAGE_SIZE + 1)
  const page = rows.slice(0, CATALOGUE_PAGE_SIZE)
  return {
    rows: page.map(({ priceList, ...r }) => ({ ...r, fromPrice: lowest(priceList) })),
    next: rows.length > CATALOGUE_PAGE_SIZE ? (page.at(-1)?.id ?? null) : null,
  }
}

const lowest = (list: PriceBreak[]) => (list.length ? Math.min(...list.map((b) => b.price)) : null)

/** What the SKU form edits, and so what its fingerprint covers. */
const skuEditable = (p: { priceList: PriceBreak[]; wasPrice: number | null; published: boolean }) => ({
  priceList: p.priceList,
  wasPrice: p.wasPrice,
  published: p.published,
})

/** Everything the SKU page shows, or null for an unknown id. */
export async function skuDetail(db: Executor, id: number) {
  const [row] = await db
    .select({
      product: products,
      site: { id: sites.id, name: sites.name, currency: sites.currency },
      group: {
        id: productGroups.id,
        url: productGroups.url,
        name: productGroups.name,
        published: productGroups.published,
      },
    })
    .from(products)
    .innerJoin(productGroups, eq(productGroups.id, products.groupId))
    .innerJoin(sites, eq(sites.id, products.siteId))
    .where(eq(products.id, id))
  if (!row) return null
  const p = row.product
  return {
    id: p.id,
    sku: p.sku,
    name: p.name,
    productCode: p.productCode,
    qty: p.qty,
    site: row.site,
    group: { ...row.group, version: fingerprint({ published: row.group.published }) },
    ...skuEditable(p),
    version: fingerprint(skuEditable(p)),
  }
}

export type EditResult =
  | { ok: true }
  | { ok: false; reason: 'missing' }
  | { ok: false; reason: 'stale' }
  | { ok: false; reason: 'invalid'; errors: Record<string, string> }

class Stale extends Error {}

/** The price grid as typed on the page: quantities and amounts in pounds (or dollars) as text. */
export interface PriceBreakForm {
  lowerQty: string
  higherQty: string
  price: string
}

/** '12.50' or '12' → 1250; anything else → null. */
export function parseAmount(text: string): number | null {
  const m = /^\s*(\d{1,8})(?:\.(\d{1,2}))?\s*$/.exec(text)
  if (!m) return null
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'))
}

/**
 * Turns the typed grid into the API's price list (the names are the columns' labels, as the
 * CSV import makes them); what cannot be read as a number is named here, the rest by skuRow.
 */
export function priceListFromForm(rows: PriceBreakForm[]): {
  list: PriceBreak[]
  errors: Record<string, string>
} {
  const errors: Record<string, string> = {}
  const whole = (v: string, key: string, optional: boolean): number | null => {
    const t = v.trim()
    if (t === '' && optional) return null
    if (!/^\d{1,9}$/.test(t)) {
      errors[key] = optional
        ? 'Enter a whole number, or leave it empty for no upper limit.'
        : 'Enter a whole number.'
      return null
    }
    return Number(t)
  }
  const list = rows.map((r, i) => {
    const lowerQty = whole(r.lowerQty, `priceList.${i}.lowerQty`, false) ?? 0
    const higherQty = whole(r.higherQty, `priceList.${i}.higherQty`, true)
    const price = parseAmount(r.price)
    if (price === null) errors[`priceList.${i}.price`] = 'Enter an amount like 12.50.'
    const name =
      higherQty === null
        ? `${lowerQty}+`
        : higherQty === lowerQty
          ? `${lowerQty}`
          : `${lowerQty}-${higherQty}`
    return { lowerQty, higherQty, price: price ?? 0, name }
  })
  return { list, errors }
}

function rowErrors(errors: RowError[]): Record<string, string> {
  const out: Record<string, string> = {}
  for (const e of errors) out[e.field === 'row' ? 'form' : e.field] ??= sentence(e.message)
  return out
}

const sentence = (m: string) => (m ? `${m[0]!.toUpperCase()}${m.slice(1)}${m.endsWith('.') ? '' : '.'}` : m)

export interface SkuChange {
  /** The fingerprint the page showed. */
  version: string
  priceList?: PriceBreak[]
  wasPrice?: number | null
  published?: boolean
}

/**
 * Changes one SKU through the API's import (skuRow's rules, one transaction, the catalogue
 * signal to every instance); refused with nothing written when the SKU changed since the page
 * showed it. The audit row holds what the form covers, before and after.
 */
export async function changeSku(
  db: Db,
  catalog: CatalogService,
  actor: Actor,
  id: number,
  change: SkuChange,
): Promise<EditResult> {
  const [found] = await db
    .select({ sku: products.sku, siteId: products.siteId })
    .from(products)
    .where(eq(products.id, id))
  if (!found) return { ok: false, reason: 'missing' }
  let before: ReturnType<typeof skuEditable> | null = null
  const row = {
    sku: found.sku,
    ...(change.priceList !== undefined ? { priceList: change.priceList } : {}),
    ...(change.wasPrice !== undefined ? { wasPrice: change.wasPrice } : {}),
    ...(change.published !== undefined ? { published: change.published } : {}),
  }
  try {
    await importSkus(db, catalog, found.siteId, [row], [], {
      before: async (tx) => {
        const [locked] = await tx.select().from(products).where(eq(products.id, id)).for('update')
        if (!locked || fingerprint(skuEditable(locked)) !== change.version) throw new Stale()
        before = skuEditable(locked)
      },
      after: async (tx) => {
        const [now] = await tx.select().from(products).where(eq(products.id, id))
        await writeAudit(tx, actor, {
          action: 'catalogue.sku',
          targetType: 'sku',
          targetId: `${found.siteId}:${found.sku}`,
          before,
          after: now ? skuEditable(now) : null,
        })
      },
    })
  } catch (err) {
    if (err instanceof Stale) return { ok: false, reason: 'stale' }
    if (err instanceof ImportError) return { ok: false, reason: 'invalid', errors: rowErrors(err.errors) }
    throw err
  }
  return { ok: true }
}

/** Publishes or unpublishes a product group through the API's group upsert, audited. */
export async function setGroupPublished(
  db: Db,
  catalog: CatalogService,
  actor: Actor,
  groupId: number,
  published: boolean,
  version: string,
): Promise<EditResult> {
  const result = await db.transaction(async (tx): Promise<EditResult & { siteId?: number }> => {
    const [g] = await tx.select().from(productGroups).where(eq(productGroups.id, groupId)).for('update')
    if (!g) return { ok: false, reason: 'missing' }
    if (fingerprint({ published: g.published }) !== version) return { ok: false, reason: 'stale' }
    await upsertGroups(tx, g.siteId, [{ url: g.url, name: g.name, published }])
    await writeAudit(tx, actor, {
      action: 'catalogue.group',
      targetType: 'product_group',
      targetId: `${g.siteId}:${g.url}`,
      before: { published: g.published },
      after: { published },
    })
    return { ok: true, siteId: g.siteId }
  })
  if (result.ok && result.siteId !== undefined)
    catalog.invalidate({ siteId: result.siteId, groupIds: [groupId] })
  return result.ok ? { ok: true } : result
}

export type ImportOutcome = { ok: true; created: number; updated: number } | { ok: false; errors: RowError[] }

/** The API's CSV import for one site, audited (the SKUs it touched, how many were new). */
export async function importCatalogueCsv(
  db: Db,
  catalog: CatalogService,
  actor: Actor,
  siteId: number,
  csv: string,
): Promise<ImportOutcome> {
  const { rows, errors } = skuRowsFromCsv(csv)
  try {
    const r = await importSkus(db, catalog, siteId, rows, errors, {
      after: (tx, result) =>
        writeAudit(tx, actor, {
          action: 'catalogue.import',
          targetType: 'site',
          targetId: siteId,
          after: { created: result.created, updated: result.updated, skus: result.skus.slice(0, 200) },
        }),
    })
    return { ok: true, ...r }
  } catch (err) {
    if (err instanceof ImportError) return { ok: false, errors: err.errors }
    throw err
  }
}
