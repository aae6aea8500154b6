import { eq, getTableColumns, getTableName, sql } from 'drizzle-orm'
import type { PgTable } from 'drizzle-orm/pg-core'
import type { BuilderConfig } from '../../../../shared/catalog.ts'
import type { Db } from '../../client.ts'
import {
  categories,
  categoryProducts,
  productAlternatives,
  productGroups,
  products,
} from '../../../modules/catalog/catalog.tables.ts'
import type { SeedBuilder, SiteCatalog } from './generate.ts'
import { stableUuid } from './prng.ts'

/** Rows per insert statement. */
export const BATCH = 500

type Columns<T extends PgTable> = keyof T['_']['columns'] & string

export async function inBatches<T>(
  rows: readonly T[],
  size: number,
  run: (batch: T[]) => Promise<void>,
): Promise<void> {
  for (let i = 0; i < rows.length; i += size) await run(rows.slice(i, i + size))
}

/**
 * One multi-row upsert. The rows travel as a single JSON parameter expanded by
 * json_to_recordset, which is much cheaper than binding every value separately (the catalogue
 * seed is dominated by statement building otherwise). Keys of `rows` are the table's property
 * names; every row must have the same keys. Returns the `returning` columns of each row.
 */
export async function upsertRows<
  T extends PgTable,
  R extends Record<string, unknown> = Record<string, unknown>,
>(
  db: Db,
  table: T,
  rows: Record<string, unknown>[],
  options: { conflict: Columns<T>[]; update: Columns<T>[]; returning?: string[] },
): Promise<R[]> {
  const first = rows[0]
  if (!first) return []
  const columns = getTableColumns(table) as Record<string, { name: string; getSQLType(): string }>
  const column = (key: string) => {
    const c = columns[key]
    if (!c) throw new Error(`${getTableName(table)} has no column ${key}`)
    return c
  }
  const keys = Object.keys(first)
  const quoted = (key: string) => `"${column(key).name}"`
  const definition = keys
    .map(
      (k) =>
        `${quoted(k)} ${column(k)
          .getSQLType()
          .replace(/^serial$/, 'integer')}`,
    )
    .join(', ')
  const payload = JSON.stringify(
    rows.map((row) => Object.fromEntries(keys.map((k) => [column(k).name, row[k] ?? null]))),
  )
  const list = keys.map(quoted).join(', ')
  const query =
    `insert into "${getTableName(table)}" (${list}) select ${list} from json_to_recordset($1::json) as r(${definition}) ` +
    `on conflict (${options.conflict.map(quoted).join(', ')}) do ` +
    (options.update.length > 0
      ? `update set ${options.update.map((k) => `${quoted(k)} = excluded.${quoted(k)}`).join(', ')}`
      : 'nothing') +
    (options.returning?.length ? ` returning ${options.returning.map(quoted).join(', ')}` : '')
  const parts = query.split('$1')
  const statement = sql.join([sql.raw(parts[0] as string), sql`${payload}`, sql.raw(parts[1] as string)])
  const result = (await db.execute(statement)) as unknown as { rows: R[] }
  return result.rows
}

const CATEGORY_UPDATE: Columns<typeof categories>[] = [
  'uuid',
  'parentId',
  'slug',
  'name',
  'shortDescription',
  'longDescription',
  'longDescriptionStructured',
  'attributes',
  'media',
  'files',
  'referrerRequired',
  'builder',
  'display',
  'position',
  'published',
]
const GROUP_UPDATE: Columns<typeof productGroups>[] = [
  'uuid',
  'categoryId',
  'slug',
  'name',
  'shortDescription',
  'longDescription',
  'longDescription2',
  'longDescriptionStructured',
  'attributes',
  'media',
  'files',
  'colourSwatches',
  'zonePricing',
  'layout',
  'brand',
  'mp3Link',
  'imageSku',
  'minPrice',
  'vatReliefEligible',
  'vatReliefKind',
  'published',
  'createdAt',
]
const SKU_UPDATE: Columns<typeof products>[] = [
  'groupId',
  'productCode',
  'name',
  'description',
  'grid',
  'rowKey',
  'optionLabel',
  'qty',
  'minimumOrder',
  'priceList',
  'wasPrice',
  'position',
  'published',
]

export interface LoadResult {
  categories: number
  groups: number
  skus: number
}

/** Upserts one site's generated catalogue. */
export async function loadSiteCatalog(db: Db, siteId: number, catalog: SiteCatalog): Promise<LoadResult> {
  const code = catalog.siteCode
  const categoryIds = new Map<string, number>()
  const maxDepth = Math.max(0, ...catalog.categories.map((c) => c.depth))
  for (let depth = 1; depth <= maxDepth; depth++) {
    const rows = catalog.categories
      .filter((c) => c.depth === depth)
      .map((c) => ({
        siteId,
        uuid: stableUuid(`${code}:category:${c.url}`),
        parentId: c.parentUrl ? (categoryIds.get(c.parentUrl) ?? null) : null,
        slug: c.slug,
        url: c.url,
        name: c.name,
        shortDescription: c.shortDescription,
        longDescription: c.longDescription,
        longDescriptionStructured: c.longDescriptionStructured,
        attributes: c.attributes,
        media: c.media,
        files: c.files,
        referrerRequired: c.referrerRequired,
        builder: null,
        display: c.display,
        position: c.position,
        published: c.published,
      }))
    await inBatches(rows, BATCH, async (batch) => {
      const saved = await upsertRows<typeof categories, { id: number; url: string }>(db, categories, batch, {
        conflict: ['siteId', 'url'],
        update: CATEGORY_UPDATE,
        returning: ['id', 'url'],
      })
      for (const row of saved) categoryIds.set(row.url, row.id)
    })
  }

  const groupIds = new Map<string, number>()
  await inBatches(catalog.groups, BATCH, async (batch) => {
    const rows = batch.map((g) => ({
      siteId,
      uuid: stableUuid(`${code}:group:${g.url}`),
      categoryId: categoryIds.get(g.categoryUrl) as number,
      slug: g.slug,
      url: g.url,
      name: g.name,
      shortDescription: g.shortDescription,
      longDescription: g.longDescription,
      longDescription2: g.longDescription2,
      longDescriptionStructured: g.longDescriptionStructured,
      attributes: g.attributes,
      media: g.media,
      files: g.files,
      colourSwatches: g.colourSwatches,
      zonePricing: g.zonePricing,
      layout: g.layout,
      brand: g.brand,
      mp3Link: null,
      imageSku: g.imageSku,
      minPrice: g.minPrice,
      vatReliefEligible: g.vatReliefEligible,
      vatReliefKind: g.vatReliefKind,
      published: g.published,
      createdAt: g.createdAt.toISOString(),
    }))
    const saved = await upsertRows<typeof productGroups, { id: number; url: string }>(
      db,
      productGroups,
      rows,
      {
        conflict: ['siteId', 'url'],
        update: GROUP_UPDATE,
        returning: ['id', 'url'],
      },
    )
    for (const row of saved) groupIds.set(row.url, row.id)
  })

  const skuIds = new Map<string, number>()
  await inBatches(catalog.skus, BATCH, async (batch) => {
    const rows = batch.map((s) => ({
      siteId,
      groupId: groupIds.get(s.groupUrl) as number,
      ...withoutGroupUrl(s),
    }))
    const saved = await upsertRows<typeof products, { id: number; sku: string }>(db, products, rows, {
      conflict: ['siteId', 'sku'],
      update: SKU_UPDATE,
      returning: ['id', 'sku'],
    })
    for (const row of saved) skuIds.set(row.sku, row.id)
  })

  for (const category of catalog.categories) {
    if (!category.builder) continue
    await db
      .update(categories)
      .set({ builder: resolveBuilder(category.builder, skuIds) })
      .where(eq(categories.id, categoryIds.get(category.url) as number))
  }

  await inBatches(catalog.memberships, BATCH, async (batch) => {
    const rows = batch.map((m) => ({
      categoryId: categoryIds.get(m.categoryUrl) as number,
      groupId: groupIds.get(m.groupUrl) as number,
      position: m.position,
      nameOverride: m.nameOverride,
      descriptionOverride: m.descriptionOverride,
      imageOverride: m.imageOverride,
    }))
    await upsertRows(db, categoryProducts, rows, {
      conflict: ['categoryId', 'groupId'],
      update: ['position', 'nameOverride', 'descriptionOverride', 'imageOverride'],
    })
  })

  await inBatches(catalog.alternatives, BATCH, async (batch) => {
    const rows = batch.map((a) => ({
      groupId: groupIds.get(a.groupUrl) as number,
      alternativeId: groupIds.get(a.alternativeUrl) as number,
      position: a.position,
    }))
    await upsertRows(db, productAlternatives, rows, {
      conflict: ['groupId', 'alternativeId'],
      update: ['position'],
    })
  })

  return { categories: categoryIds.size, groups: groupIds.size, skus: skuIds.size }
}

function withoutGroupUrl<T extends { groupUrl: string }>(row: T): Omit<T, 'groupUrl'> {
  const { groupUrl: _, ...rest } = row
  return rest
}

/** Builder items carry SKU codes in the seed; the stored configuration carries product ids. */
export function resolveBuilder(builder: SeedBuilder, skuIds: Map<string, number>): BuilderConfig {
  const resolve = (g: SeedBuilder['selectors'][number]) => ({
    name: g.name,
    items: g.items.map(({ sku, ...item }) => ({
      ...item,
      product_id: sku ? (skuIds.get(sku) ?? null) : null,
    })),
  })
  return { selectors: builder.selectors.map(resolve), options: builder.options.map(resolve) }
}
