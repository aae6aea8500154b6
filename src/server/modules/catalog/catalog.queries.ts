import { and, asc, eq, isNull, sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { categories, productGroups, type CategoryRow } from './catalog.tables.ts'

/** Category trees are at most six levels deep (storefront paths); this bounds the ancestor walk. */
const MAX_DEPTH = 8

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

/** A category of the site by id, published or not. */
export async function findCategoryById(db: Db, siteId: number, id: number): Promise<CategoryRow | null> {
  const [row] = await db
    .select()
    .from(categories)
    .where(and(eq(categories.id, id), eq(categories.siteId, siteId)))
    .limit(1)
  return row ?? null
}

/** Ancestors of a category, root first. Stops at a missing parent or a cycle. */
export async function findCategoryAncestors(db: Db, category: CategoryRow): Promise<CategoryRow[]> {
  const chain: CategoryRow[] = []
  const seen = new Set([category.id])
  let parentId = category.parentId
  while (parentId !== null && !seen.has(parentId) && chain.length < MAX_DEPTH) {
    seen.add(parentId)
    const parent = await findCategoryById(db, category.siteId, parentId)
    if (!parent) break
    chain.unshift(parent)
    parentId = parent.parentId
  }
  return chain
}

/** Published children of a category in menu order. */
export async function findChildCategories(db: Db, siteId: number, id: number): Promise<CategoryRow[]> {
  return db
    .select()
    .from(categories)
    .where(and(eq(categories.siteId, siteId), eq(categories.parentId, id), eq(categories.published, true)))
    .orderBy(asc(categories.position), asc(sql`lower(${categories.name})`), asc(categories.id))
}
