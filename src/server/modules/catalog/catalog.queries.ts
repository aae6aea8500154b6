import { and, asc, eq, isNull } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { categories, productGroups } from './catalog.tables.ts'

export async function findCategoryByUrl(db: Db, siteId: number, url: string) {
  const [row] = await db
    .select()
    .from(categories)
    .where(and(eq(categories.siteId, siteId), eq(categories.url, url), eq(categories.published, true)))
    .limit(1)
  return row ?? null
}

export async function findProductGroupByUrl(db: Db, siteId: number, url: string) {
  const [row] = await db
    .select()
    .from(productGroups)
    .where(
      and(eq(productGroups.siteId, siteId), eq(productGroups.url, url), eq(productGroups.published, true)),
    )
    .limit(1)
  return row ?? null
}

/** Published categories at the top of a site's tree, in menu order. */
export async function topLevelCategories(db: Db, siteId: number) {
  return db
    .select({ name: categories.name, url: categories.url })
    .from(categories)
    .where(and(eq(categories.siteId, siteId), isNull(categories.parentId), eq(categories.published, true)))
    .orderBy(asc(categories.position), asc(categories.name))
}
