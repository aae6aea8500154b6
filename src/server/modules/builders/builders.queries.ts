/** Queries the builders share: the published category a builder tool is attached to. */
import { and, eq } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { categories } from '../catalog/catalog.tables.ts'
import { builderTools } from './builders.tables.ts'

export interface BuilderCategoryRow {
  id: number
  name: string
  url: string
  config: unknown
}

/** The site's published category with a builder of this kind, or null. */
export async function findBuilderCategory(
  db: Db,
  siteId: number,
  categoryId: number,
  kind: 'sign' | 'workwear',
): Promise<BuilderCategoryRow | null> {
  const [category] = await db
    .select({ id: categories.id, name: categories.name, url: categories.url, config: builderTools.config })
    .from(categories)
    .innerJoin(builderTools, eq(builderTools.categoryId, categories.id))
    .where(
      and(
        eq(categories.id, categoryId),
        eq(categories.siteId, siteId),
        eq(categories.published, true),
        eq(builderTools.kind, kind),
      ),
    )
  return category ?? null
}
