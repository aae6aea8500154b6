/**
 * The image map's reads: published product groups and categories that have at least one picture.
 */
import { and, asc, count, eq, sql, type SQL } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { categories, productGroups } from './catalog.tables.ts'

/** SQL: the media list holds at least one picture (same rule as isImage in the presenter). */
function hasImage(media: SQL | typeof productGroups.media | typeof categories.media): SQL {
  return sql`exists (select 1 from jsonb_array_elements(${media}) m where coalesce(m->>'file_location', '') <> '' and (m->>'type' = 'image' or (m->>'type' is null and m->>'file_location' ~* '\\.(png|jpe?g|gif|webp|avif|svg|tiff?)([?#].*)?$')))`
}

function productsWithImages(siteId: number) {
  return and(
    eq(productGroups.siteId, siteId),
    eq(productGroups.published, true),
    hasImage(productGroups.media),
  )
}

/** How many published product groups of the site have a picture. */
export async function countImagemapProducts(db: Db, siteId: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(productGroups).where(productsWithImages(siteId))
  return Number(row?.n ?? 0)
}

/** One page of product groups with a picture, by name. */
export async function findImagemapProducts(db: Db, siteId: number, limit: number, offset: number) {
  return db
    .select({ id: productGroups.id, name: productGroups.name, media: productGroups.media })
    .from(productGroups)
    .where(productsWithImages(siteId))
    .orderBy(asc(sql`lower(${productGroups.name})`), asc(productGroups.id))
    .limit(limit)
    .offset(offset)
}

/** Published categories with a picture, by name. */
export async function findImagemapCategories(db: Db, siteId: number, limit: number) {
  return db
    .select({ id: categories.id, name: categories.name, url: categories.url, media: categories.media })
    .from(categories)
    .where(and(eq(categories.siteId, siteId), eq(categories.published, true), hasImage(categories.media)))
    .orderBy(asc(sql`lower(${categories.name})`), asc(categories.id))
    .limit(limit)
}

/** One published product group of the site, for its image page. */
export async function findImagemapProduct(db: Db, siteId: number, id: number) {
  const [row] = await db
    .select({
      id: productGroups.id,
      name: productGroups.name,
      url: productGroups.url,
      media: productGroups.media,
    })
    .from(productGroups)
    .where(and(eq(productGroups.id, id), eq(productGroups.siteId, siteId), eq(productGroups.published, true)))
    .limit(1)
  return row ?? null
}
