/**
 * The product listing shared by the category pages and (later) search: query parsing that never
 * fails, and the SQL that pages through the published product groups of a category in a chosen
 * order. The order, LIMIT and OFFSET all run in the database; the count is a separate query so a
 * page beyond the last can be shown as the last page.
 */
import { and, asc, count, desc, eq, gt, inArray, sql, type SQL } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { parseLimit, parsePage } from '../../../shared/pagination.ts'
import { parseSort, sortOrder, type SortKey } from '../../../shared/sorting.ts'
import { categoryProducts, productGroups } from './catalog.tables.ts'

export interface ListingQuery {
  sort: SortKey
  /** Requested page, at least 1; not yet capped by the number of pages */
  page: number
  limit: number
}

/** `sort`, `page` and `limit` from a parsed query string; junk falls back to the defaults. */
export function parseListingQuery(query: unknown): ListingQuery {
  const q = query && typeof query === 'object' ? (query as Record<string, unknown>) : {}
  return { sort: parseSort(q.sort), page: parsePage(q.page), limit: parseLimit(q.limit) }
}

/** What a tile needs from a product group in a category, overrides included. */
export interface ListingRow {
  id: number
  url: string
  name: string
  shortDescription: string
  attributes: (typeof productGroups.$inferSelect)['attributes']
  media: (typeof productGroups.$inferSelect)['media']
  colourSwatches: (typeof productGroups.$inferSelect)['colourSwatches']
  minPrice: number
  nameOverride: string | null
  descriptionOverride: string | null
  imageOverride: string | null
}

const listingColumns = {
  id: productGroups.id,
  url: productGroups.url,
  name: productGroups.name,
  shortDescription: productGroups.shortDescription,
  attributes: productGroups.attributes,
  media: productGroups.media,
  colourSwatches: productGroups.colourSwatches,
  minPrice: productGroups.minPrice,
  nameOverride: categoryProducts.nameOverride,
  descriptionOverride: categoryProducts.descriptionOverride,
  imageOverride: categoryProducts.imageOverride,
}

/**
 * ORDER BY for a sort key. Every order ends on the id so pages never overlap or skip. Names
 * compare case-insensitively (the database may use the C collation). Products without a price
 * (min_price 0) go last in both price orders.
 */
export function listingOrder(sort: SortKey): SQL[] {
  const name = sql`lower(${productGroups.name})`
  const order = sortOrder(sort)
  switch (order.by) {
    case 'relevance':
      return [asc(categoryProducts.position), asc(name), asc(productGroups.id)]
    case 'name':
      return order.direction === 'asc'
        ? [asc(name), asc(productGroups.name), asc(productGroups.id)]
        : [desc(name), desc(productGroups.name), desc(productGroups.id)]
    case 'price': {
      const priced = sql`(${productGroups.minPrice} = 0)`
      const price = order.direction === 'asc' ? asc(productGroups.minPrice) : desc(productGroups.minPrice)
      return [asc(priced), price, asc(name), asc(productGroups.id)]
    }
    case 'newest':
      return [desc(productGroups.createdAt), desc(productGroups.id)]
  }
}

function inCategory(siteId: number, categoryId: number) {
  return and(
    eq(categoryProducts.categoryId, categoryId),
    eq(productGroups.siteId, siteId),
    eq(productGroups.published, true),
  )
}

/** Number of published product groups in a category. */
export async function countCategoryProducts(db: Db, siteId: number, categoryId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(categoryProducts)
    .innerJoin(productGroups, eq(productGroups.id, categoryProducts.groupId))
    .where(inCategory(siteId, categoryId))
  return Number(row?.n ?? 0)
}

/** Which product tiles to read: a category's page (with its overrides), chosen ids, or the first priced ones. */
export type TileQuery =
  | { siteId: number; categoryId: number; sort: SortKey; limit: number; offset: number }
  | { siteId: number; ids: readonly number[] }
  | { siteId: number; firstPriced: number }

/** The published fields outside a category: no per-category override. */
const plainTileColumns = {
  ...listingColumns,
  nameOverride: sql<string | null>`null`,
  descriptionOverride: sql<string | null>`null`,
  imageOverride: sql<string | null>`null`,
}

/**
 * The one query behind every product tile (category listings, search hits, basket suggestions):
 * published product groups of a site, with a category's overrides when read through a category.
 * Rows by id come back in the order of the ids asked for; missing or unpublished ones are left out.
 */
export async function findProductTiles(db: Db, q: TileQuery): Promise<ListingRow[]> {
  const published = and(eq(productGroups.siteId, q.siteId), eq(productGroups.published, true))
  if ('categoryId' in q) {
    return db
      .select(listingColumns)
      .from(categoryProducts)
      .innerJoin(productGroups, eq(productGroups.id, categoryProducts.groupId))
      .where(inCategory(q.siteId, q.categoryId))
      .orderBy(...listingOrder(q.sort))
      .limit(q.limit)
      .offset(q.offset)
  }
  if ('ids' in q) {
    if (q.ids.length === 0) return []
    const rows = await db
      .select(plainTileColumns)
      .from(productGroups)
      .where(and(published, inArray(productGroups.id, [...q.ids])))
    const byId = new Map(rows.map((r) => [r.id, r]))
    return q.ids.flatMap((id) => byId.get(id) ?? [])
  }
  return db
    .select(plainTileColumns)
    .from(productGroups)
    .where(and(published, gt(productGroups.minPrice, 0)))
    .orderBy(asc(productGroups.id))
    .limit(q.firstPriced)
}

/** One page of a category's published product groups in the given order. */
export async function findCategoryProducts(
  db: Db,
  options: { siteId: number; categoryId: number; sort: SortKey; limit: number; offset: number },
): Promise<ListingRow[]> {
  return findProductTiles(db, options)
}
