/**
 * Search records built from the catalogue (spec §3 "Search hit"): one record per category
 * (type 'category') and per product group (type 'product': the Product page and the tile of the
 * listings). A product group's SKU codes are searchable too, so a trade buyer can type a code.
 * Unpublished rows are indexed with status 'unpublished' and left out by the storefront filters.
 */
import { and, count, eq, gte, inArray, lte, sql } from 'drizzle-orm'
import { imageUrl } from '../../../shared/images.ts'
import type { SearchHit } from '../../../shared/search.ts'
import { withVat } from '../../../shared/vat.ts'
import type { Db } from '../../db/client.ts'
import { categories, productGroups, products } from '../catalog/catalog.tables.ts'
import { siteSettingsSchema } from '../sites/sites.settings.ts'
import { sites } from '../sites/sites.tables.ts'
import { imagesOf, plainText as presentPlainText } from '../catalog/category.presenter.ts'
import { searchClicks } from './search.tables.ts'
import type { IndexRecord } from './engine.ts'

/** Image size of the search dropdown (spec §9). */
const IMAGE_SIZE = 98

export interface ProductRecord extends SearchHit, IndexRecord {
  /** SKU and product codes (searchable) */
  skus: string[]
  brand: string
  /** Clicks from search results: the custom ranking */
  popularity: number
  /** Seconds since the epoch: the 'Newest First' sort */
  created: number
  /** The catalogue id, for loading tiles */
  id: number
  sort_price: number | null
  sort_name: string
}

/**
 * Plain text of a catalogue field. Most names and descriptions hold no markup; those skip the
 * sanitiser (the result is the same: whitespace collapsed), which matters at 100k records.
 */
function plainText(text: string | null | undefined): string {
  if (!text) return ''
  return /[<&]/.test(text) ? presentPlainText(text) : text.replace(/\s+/g, ' ').trim()
}

export const objectIdOf = (type: 'category' | 'product', id: number) => `${type}-${id}`

export function parseObjectId(objectID: string): { type: 'category' | 'product'; id: number } | null {
  const m = /^(category|product)-(\d{1,10})$/.exec(objectID)
  return m ? { type: m[1] as 'category' | 'product', id: Number(m[2]) } : null
}

function imageOf(media: Parameters<typeof imagesOf>[0]): string {
  const first = imagesOf(media)[0]
  return imageUrl(first?.file_location, { w: IMAGE_SIZE, h: IMAGE_SIZE, fit: 'contain' })
}

export interface RecordScope {
  siteId: number
  /** Only these product groups / categories (a catalogue change); all of the site when absent */
  groupIds?: number[]
  categoryIds?: number[]
}

async function popularityOf(
  db: Db,
  siteId: number,
  objectIds: string[] | null,
): Promise<Map<string, number>> {
  const rows = await db
    .select({ objectId: searchClicks.objectId, n: count() })
    .from(searchClicks)
    .where(
      objectIds
        ? and(eq(searchClicks.siteId, siteId), inArray(searchClicks.objectId, objectIds))
        : eq(searchClicks.siteId, siteId),
    )
    .groupBy(searchClicks.objectId)
  return new Map(rows.map((r) => [r.objectId, Number(r.n)]))
}

const CHUNK = 5000

/** The site's standard tax rate in percent, from its stored settings (0 when it charges none). */
async function taxRateOf(db: Db, siteId: number): Promise<number> {
  const [row] = await db.select({ settings: sites.settings }).from(sites).where(eq(sites.id, siteId))
  const parsed = siteSettingsSchema.safeParse(row?.settings ?? {})
  return parsed.success ? parsed.data.tax.rate : siteSettingsSchema.parse({}).tax.rate
}

/** Product-group records of a site (or of some groups). */
export async function loadProductRecords(db: Db, scope: RecordScope): Promise<ProductRecord[]> {
  if (scope.groupIds && scope.groupIds.length === 0) return []
  const out: ProductRecord[] = []
  const taxRate = await taxRateOf(db, scope.siteId)
  const ids = scope.groupIds
  const popularity = await popularityOf(
    db,
    scope.siteId,
    ids ? ids.map((id) => objectIdOf('product', id)) : null,
  )
  let lastId = 0
  for (;;) {
    const rows = await db
      .select({
        id: productGroups.id,
        url: productGroups.url,
        name: productGroups.name,
        shortDescription: productGroups.shortDescription,
        media: productGroups.media,
        minPrice: productGroups.minPrice,
        brand: productGroups.brand,
        published: productGroups.published,
        createdAt: productGroups.createdAt,
        categoryName: categories.name,
        categoryPublished: categories.published,
      })
      .from(productGroups)
      .innerJoin(categories, eq(categories.id, productGroups.categoryId))
      .where(
        and(
          eq(productGroups.siteId, scope.siteId),
          sql`${productGroups.id} > ${lastId}`,
          ids ? inArray(productGroups.id, ids) : undefined,
        ),
      )
      .orderBy(productGroups.id)
      .limit(CHUNK)
    if (rows.length === 0) break
    lastId = rows[rows.length - 1]!.id
    // One range read per chunk (the rows are in id order), filtered to the chunk's groups.
    const chunkIds = new Set(rows.map((r) => r.id))
    const skuRows = (
      await db
        .select({ groupId: products.groupId, sku: products.sku, code: products.productCode })
        .from(products)
        .where(
          and(
            eq(products.siteId, scope.siteId),
            gte(products.groupId, rows[0]!.id),
            lte(products.groupId, lastId),
            eq(products.published, true),
          ),
        )
    ).filter((s) => chunkIds.has(s.groupId))
    const skus = new Map<number, Set<string>>()
    for (const s of skuRows) {
      let set = skus.get(s.groupId)
      if (!set) skus.set(s.groupId, (set = new Set()))
      set.add(s.sku)
      if (s.code) set.add(s.code)
    }
    for (const r of rows) {
      const objectID = objectIdOf('product', r.id)
      const price = Math.max(0, r.minPrice | 0)
      out.push({
        objectID,
        id: r.id,
        type: 'product',
        status: r.published ? 'published' : 'unpublished',
        url: r.url,
        name: plainText(r.name),
        short_description: plainText(r.shortDescription),
        price_ex_tax: price,
        price_inc_tax: withVat(price, taxRate),
        // Unpriced products (0) go last in both price orders: a missing value always sorts last.
        sort_price: price > 0 ? price : null,
        sort_name: plainText(r.name).toLowerCase(),
        image: imageOf(r.media),
        category_name: plainText(r.categoryName),
        'Category Name': plainText(r.categoryName),
        skus: [...(skus.get(r.id) ?? [])],
        brand: plainText(r.brand),
        popularity: popularity.get(objectID) ?? 0,
        created: Math.floor(new Date(r.createdAt).getTime() / 1000),
      })
    }
    if (rows.length < CHUNK) break
  }
  return out
}

export interface CategoryRecord extends SearchHit, IndexRecord {
  id: number
  popularity: number
  /** Depth in the tree (0 = top level): shallower categories rank first on a tie */
  depth: number
}

/** Category records of a site (or of some categories). */
export async function loadCategoryRecords(db: Db, scope: RecordScope): Promise<CategoryRecord[]> {
  if (scope.categoryIds && scope.categoryIds.length === 0) return []
  const rows = await db
    .select({
      id: categories.id,
      parentId: categories.parentId,
      url: categories.url,
      name: categories.name,
      shortDescription: categories.shortDescription,
      media: categories.media,
      published: categories.published,
    })
    .from(categories)
    .where(
      and(
        eq(categories.siteId, scope.siteId),
        scope.categoryIds ? inArray(categories.id, scope.categoryIds) : undefined,
      ),
    )
  const parentIds = [...new Set(rows.map((r) => r.parentId).filter((id): id is number => id !== null))]
  const parents = parentIds.length
    ? await db
        .select({ id: categories.id, name: categories.name })
        .from(categories)
        .where(inArray(categories.id, parentIds))
    : []
  const parentName = new Map(parents.map((p) => [p.id, p.name]))
  const popularity = await popularityOf(
    db,
    scope.siteId,
    scope.categoryIds ? scope.categoryIds.map((id) => objectIdOf('category', id)) : null,
  )
  return rows.map((r) => {
    const objectID = objectIdOf('category', r.id)
    return {
      objectID,
      id: r.id,
      type: 'category' as const,
      status: r.published ? ('published' as const) : ('unpublished' as const),
      url: r.url,
      name: plainText(r.name),
      short_description: plainText(r.shortDescription),
      price_ex_tax: 0,
      price_inc_tax: 0,
      image: imageOf(r.media),
      category_name: r.parentId !== null ? plainText(parentName.get(r.parentId) ?? '') : '',
      'Category Name': r.parentId !== null ? plainText(parentName.get(r.parentId) ?? '') : '',
      popularity: popularity.get(objectID) ?? 0,
      depth: Math.max(0, r.url.split('/').length - 2),
    }
  })
}
