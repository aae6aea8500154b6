/**
 * Reads for the Product page: the group, its primary category trail, its published SKUs and its
 * published alternatives. Four independent queries, run together; nothing per visitor.
 */
import { and, asc, eq, sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import {
  categories,
  productAlternatives,
  productGroups,
  products,
  type CategoryRow,
  type ProductGroupRow,
  type ProductRow,
} from './catalog.tables.ts'
import type { ListingRow } from './listing.ts'

/** A category of the trail: only what breadcrumbs, the builder and basket lines need. */
export type TrailCategory = Pick<
  CategoryRow,
  'id' | 'uuid' | 'parentId' | 'name' | 'url' | 'published' | 'builder'
>

/** Alternatives in the listing tile's row shape (no category overrides on a product page). */
export type AlternativeRow = ListingRow

export interface ProductRecord {
  group: ProductGroupRow
  /** Root first, the primary category last */
  trail: TrailCategory[]
  skus: ProductRow[]
  alternatives: AlternativeRow[]
}

/** The published group with its trail, SKUs and alternatives; null when missing or unpublished. */
export async function loadProductRecord(
  db: Db,
  siteId: number,
  groupId: number,
  alternativesLimit: number,
): Promise<ProductRecord | null> {
  const [groups, trail, skus, alternatives] = await Promise.all([
    db
      .select()
      .from(productGroups)
      .where(
        and(
          eq(productGroups.id, groupId),
          eq(productGroups.siteId, siteId),
          eq(productGroups.published, true),
        ),
      )
      .limit(1),
    categoryTrail(db, siteId, groupId),
    db
      .select()
      .from(products)
      .where(and(eq(products.groupId, groupId), eq(products.siteId, siteId), eq(products.published, true)))
      .orderBy(asc(products.grid), asc(products.position), asc(products.id)),
    alternativesLimit > 0
      ? db
          .select({
            id: productGroups.id,
            url: productGroups.url,
            name: productGroups.name,
            shortDescription: productGroups.shortDescription,
            media: productGroups.media,
            minPrice: productGroups.minPrice,
            attributes: productGroups.attributes,
            colourSwatches: productGroups.colourSwatches,
          })
          .from(productAlternatives)
          .innerJoin(productGroups, eq(productGroups.id, productAlternatives.alternativeId))
          .where(
            and(
              eq(productAlternatives.groupId, groupId),
              eq(productGroups.siteId, siteId),
              eq(productGroups.published, true),
            ),
          )
          .orderBy(asc(productAlternatives.position), asc(productGroups.id))
          .limit(alternativesLimit)
          .then((rows) =>
            rows.map((r): AlternativeRow => ({
              ...r,
              nameOverride: null,
              descriptionOverride: null,
              imageOverride: null,
            })),
          )
      : Promise.resolve([] as AlternativeRow[]),
  ])
  const group = groups[0]
  if (!group) return null
  return { group, trail, skus, alternatives }
}

interface TrailSqlRow extends Record<string, unknown> {
  id: number
  uuid: string
  parent_id: number | null
  name: string
  url: string
  published: boolean
  builder: unknown
  depth: number
}

/**
 * The primary category of a group and its ancestors, root first, in one recursive query.
 * Depth is bounded so a cycle in parent ids cannot loop.
 */
async function categoryTrail(db: Db, siteId: number, groupId: number): Promise<TrailCategory[]> {
  const result = await db.execute<TrailSqlRow>(sql`
    with recursive trail as (
      select c.id, c.uuid, c.parent_id, c.name, c.url, c.published, c.builder, 0 as depth
      from ${categories} c
      join ${productGroups} g on g.category_id = c.id
      where g.id = ${groupId} and c.site_id = ${siteId}
      union all
      select p.id, p.uuid, p.parent_id, p.name, p.url, p.published, p.builder, t.depth + 1
      from ${categories} p
      join trail t on p.id = t.parent_id
      where p.site_id = ${siteId} and t.depth < 10
    )
    select * from trail order by depth desc`)
  const rows = (Array.isArray(result) ? result : (result as { rows: TrailSqlRow[] }).rows) as TrailSqlRow[]
  return rows.map((r) => ({
    id: Number(r.id),
    uuid: String(r.uuid),
    parentId: r.parent_id === null ? null : Number(r.parent_id),
    name: r.name,
    url: r.url,
    published: r.published,
    builder: (typeof r.builder === 'string' ? JSON.parse(r.builder) : r.builder) as TrailCategory['builder'],
  }))
}
