/**
 * Catalogue rows for HTTP tests of the Product page: a category (with optional parent and
 * builder), a product group and its SKUs. Paths start with /t- so they never meet the demo seed.
 */
import { eq } from 'drizzle-orm'
import type { Db } from '../../src/server/db/client.ts'
import {
  categories,
  productAlternatives,
  productGroups,
  products,
  type CategoryRow,
  type ProductGroupRow,
  type ProductRow,
} from '../../src/server/modules/catalog/catalog.tables.ts'
import { sites } from '../../src/server/modules/sites/sites.tables.ts'

let counter = 0
const next = () => ++counter

export async function siteIdFor(db: Db, host = 'localhost'): Promise<number> {
  const [site] = await db.select({ id: sites.id }).from(sites).where(eq(sites.host, host))
  if (!site) throw new Error(`no site for ${host}`)
  return site.id
}

export type CategoryInput = Partial<typeof categories.$inferInsert> & { siteId: number }

export async function insertCategory(db: Db, input: CategoryInput): Promise<CategoryRow> {
  const n = next()
  const slug = input.slug ?? `t-category-${n}`
  const [row] = await db
    .insert(categories)
    .values({ slug, url: `/${slug}`, name: `Test category ${n}`, ...input })
    .returning()
  return row!
}

export type GroupInput = Partial<typeof productGroups.$inferInsert> & { siteId: number; categoryId: number }

export async function insertGroup(db: Db, input: GroupInput): Promise<ProductGroupRow> {
  const n = next()
  const slug = input.slug ?? `t-product-${n}`
  const [row] = await db
    .insert(productGroups)
    .values({ slug, url: `/${slug}`, name: `Test product ${n}`, ...input })
    .returning()
  return row!
}

export type SkuInput = Partial<typeof products.$inferInsert> & { siteId: number; groupId: number }

/** Standard brackets: 1-9 at `base`, 10-24 at 90%, 25+ at 80%. */
export function brackets(base: number) {
  return [
    { lowerQty: 1, higherQty: 9, price: base, name: '1-9' },
    { lowerQty: 10, higherQty: 24, price: Math.round(base * 0.9), name: '10-24' },
    { lowerQty: 25, higherQty: null, price: Math.round(base * 0.8), name: '25+' },
  ]
}

export async function insertSku(db: Db, input: SkuInput): Promise<ProductRow> {
  const n = next()
  const sku = input.sku ?? `T-SKU-${n}`
  const [row] = await db
    .insert(products)
    .values({
      sku,
      productCode: input.productCode ?? sku,
      name: `Test SKU ${n}`,
      priceList: brackets(1000),
      ...input,
    })
    .returning()
  return row!
}

export async function linkAlternative(db: Db, groupId: number, alternativeId: number, position = 0) {
  await db.insert(productAlternatives).values({ groupId, alternativeId, position })
}

export interface ProductFixture {
  siteId: number
  root: CategoryRow
  category: CategoryRow
  group: ProductGroupRow
  skus: ProductRow[]
}

/**
 * A product in a two-level category trail with two plain SKUs in grid 1. `group` overrides the
 * group's columns; `skus` replaces the default SKUs (group id and site filled in).
 */
export async function createProduct(
  db: Db,
  options: {
    host?: string
    group?: Partial<typeof productGroups.$inferInsert>
    category?: Partial<typeof categories.$inferInsert>
    skus?: Partial<typeof products.$inferInsert>[]
  } = {},
): Promise<ProductFixture> {
  const siteId = await siteIdFor(db, options.host)
  const root = await insertCategory(db, { siteId })
  const slug = `t-sub-${next()}`
  const category = await insertCategory(db, {
    siteId,
    parentId: root.id,
    slug,
    url: `${root.url}/${slug}`,
    ...options.category,
  })
  const groupSlug = options.group?.slug ?? `t-item-${next()}`
  const group = await insertGroup(db, {
    siteId,
    categoryId: category.id,
    slug: groupSlug,
    url: `${category.url}/${groupSlug}`,
    ...options.group,
  })
  const specs = options.skus ?? [{ priceList: brackets(1000) }, { priceList: brackets(2500), position: 1 }]
  const skus: ProductRow[] = []
  for (const spec of specs) skus.push(await insertSku(db, { siteId, groupId: group.id, ...spec }))
  return { siteId, root, category, group, skus }
}
