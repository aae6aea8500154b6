/**
 * Queries the builders share: the published category a builder tool is attached to, and the
 * priced SKUs it sells (the sign's sizes and materials, the workwear's garments in sizes).
 */
import { and, asc, eq } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { normaliseBrackets, type Bracket } from '../../../shared/pricing.ts'
import { categories, productGroups, products } from '../catalog/catalog.tables.ts'
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

/** A published SKU of a builder category with price breaks: what a builder line can be. */
export interface BuilderSku {
  groupId: number
  groupName: string
  productId: number
  sku: string
  rowKey: string | null
  optionLabel: string | null
  brackets: Bracket[]
}

/**
 * The published SKUs of the category's published groups that have a price, in the order the shop
 * lists them (group, then position, then id). SKUs without price breaks cannot be sold and are left out.
 */
export async function builderSkus(db: Db, siteId: number, categoryId: number): Promise<BuilderSku[]> {
  const rows = await db
    .select({
      groupId: productGroups.id,
      groupName: productGroups.name,
      productId: products.id,
      sku: products.sku,
      rowKey: products.rowKey,
      optionLabel: products.optionLabel,
      priceList: products.priceList,
    })
    .from(products)
    .innerJoin(productGroups, eq(productGroups.id, products.groupId))
    .where(
      and(
        eq(productGroups.categoryId, categoryId),
        eq(productGroups.published, true),
        eq(products.published, true),
        eq(products.siteId, siteId),
      ),
    )
    .orderBy(asc(productGroups.id), asc(products.position), asc(products.id))
  return rows.flatMap(({ priceList, ...row }) => {
    const brackets = normaliseBrackets(priceList)
    return brackets.length ? [{ ...row, brackets }] : []
  })
}
