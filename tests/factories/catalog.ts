/**
 * Small factories for catalogue rows in HTTP tests. Every row gets a unique slug and URL (prefixed
 * `zz-`, so they never meet the demo catalogue), with sensible defaults that a test overrides.
 * After inserting, call `app.catalog.invalidate()` so cached path lookups and pages see the rows.
 */
import { eq } from 'drizzle-orm'
import type { Db } from '../../src/server/db/client.ts'
import {
  categories,
  categoryProducts,
  productGroups,
  sites,
  type CategoryRow,
  type ProductGroupRow,
} from '../../src/server/db/schema.ts'

let sequence = 0
const next = () => ++sequence

export async function siteIdFor(db: Db, host = 'localhost'): Promise<number> {
  const [row] = await db.select({ id: sites.id }).from(sites).where(eq(sites.host, host)).limit(1)
  if (!row) throw new Error(`no site for host ${host}`)
  return row.id
}

export type CategoryInput = Partial<typeof categories.$inferInsert> & { siteId: number }

export async function createCategory(
  db: Db,
  input: CategoryInput,
  parent?: CategoryRow,
): Promise<CategoryRow> {
  const n = next()
  const slug = input.slug ?? `zz-category-${n}`
  const [row] = await db
    .insert(categories)
    .values({
      name: `Test Category ${n}`,
      slug,
      url: `${parent ? parent.url : ''}/${slug}`,
      parentId: parent?.id ?? null,
      ...input,
    })
    .returning()
  return row!
}

export type ProductGroupInput = Partial<typeof productGroups.$inferInsert> & {
  siteId: number
  categoryId: number
}

export async function createProductGroup(db: Db, input: ProductGroupInput): Promise<ProductGroupRow> {
  const n = next()
  const slug = input.slug ?? `zz-product-${n}`
  const [row] = await db
    .insert(productGroups)
    .values({
      name: `Test Product ${n}`,
      slug,
      url: `/${slug}`,
      minPrice: 1000 + n,
      media: [{ file_location: `/media/test/product-${n}.png`, type: 'image' }],
      ...input,
    })
    .returning()
  return row!
}

export interface Membership {
  position?: number
  nameOverride?: string | null
  descriptionOverride?: string | null
  imageOverride?: string | null
}

export async function addToCategory(
  db: Db,
  categoryId: number,
  groupId: number,
  membership: Membership = {},
): Promise<void> {
  await db.insert(categoryProducts).values({ categoryId, groupId, position: 0, ...membership })
}

/** A product group placed in a category (its primary category unless one is given). */
export async function createListedProduct(
  db: Db,
  input: ProductGroupInput,
  membership: Membership = {},
): Promise<ProductGroupRow> {
  const group = await createProductGroup(db, input)
  await addToCategory(db, input.categoryId, group.id, membership)
  return group
}
