import { and, eq } from 'drizzle-orm'
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
