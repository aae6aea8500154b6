/**
 * A large generated catalogue for benchmarks: `npm run db:seed -- --products 100000` adds that
 * many product groups (about 4 SKUs each) to the harbour site under '/bench'. Deterministic: a
 * group's content depends only on its index. Rows are generated and inserted in chunks, so memory
 * stays flat however many products are asked for. Re-running replaces the '/bench' tree.
 */
import { and, eq, like, or } from 'drizzle-orm'
import type { CatalogMedia } from '../../../../shared/catalog.ts'
import type { Db } from '../../client.ts'
import { categories, categoryProducts, productGroups, products, sites } from '../../schema.ts'
import type { PageLayout } from '../../../modules/catalog/catalog.tables.ts'
import { DEFAULT_MEDIA_ROOT } from './index.ts'
import { BATCH, upsertRows } from './load.ts'
import { productSvg, writeMediaFiles, type MediaFile } from './media.ts'
import { computeMinPrice, nicePrice, priceBreaks } from './pricing.ts'
import { Random, slugify, stableUuid } from './prng.ts'
import { BENCH_STEMS, BENCH_VARIANTS, type ImageStyle } from './vocabulary.ts'

export const BENCH_ROOT = '/bench'
const PER_LEAF = 200
const SITE = 'harbour'
const IMAGE_STYLES: ImageStyle[] = [
  'exit',
  'fire',
  'prohibition',
  'warning',
  'mandatory',
  'safe',
  'construction',
  'custom',
]
const SIZES = ['200x100mm', '300x100mm', '300x200mm', '400x300mm', '600x400mm']
const BREAKS = [1, 10, 25, 50, 100]
const LAYOUTS: PageLayout[] = ['Default', 'Default', 'DefaultPGUnderLD', 'MediaLeft']

export interface BenchOptions {
  products: number
  log?: (message: string) => void
  mediaRoot?: string
}

export interface BenchResult {
  groups: number
  skus: number
  ms: number
}

/** The shared images of the bench catalogue (one per sign style). */
function benchImages(): MediaFile[] {
  return IMAGE_STYLES.map((style, n) => {
    const svg = productSvg(style, `Bench ${BENCH_STEMS[n % BENCH_STEMS.length] as string}`)
    return { path: `catalog/bench/bench-${n + 1}.svg`, key: svg, render: () => Buffer.from(svg) }
  })
}

export async function seedBenchCatalog(db: Db, options: BenchOptions): Promise<BenchResult> {
  const started = performance.now()
  const log = options.log ?? (() => {})
  const total = Math.max(0, Math.floor(options.products))
  const images = benchImages()
  await writeMediaFiles(options.mediaRoot ?? DEFAULT_MEDIA_ROOT, 'bench', images)

  let skuCount = 0
  await db.transaction(async (tx) => {
    const [site] = await tx.select({ id: sites.id }).from(sites).where(eq(sites.code, SITE))
    if (!site) throw new Error(`site '${SITE}' is missing: run the demo seed first`)
    const siteId = site.id

    // Replace any earlier bench tree (SKUs, memberships and alternatives cascade).
    await tx
      .delete(productGroups)
      .where(and(eq(productGroups.siteId, siteId), like(productGroups.url, `${BENCH_ROOT}/%`)))
    await tx
      .delete(categories)
      .where(
        and(
          eq(categories.siteId, siteId),
          or(eq(categories.url, BENCH_ROOT), like(categories.url, `${BENCH_ROOT}/%`)),
        ),
      )
    if (total === 0) return

    // Tree: /bench → departments → ranges of about PER_LEAF products each.
    const leafCount = Math.max(1, Math.ceil(total / PER_LEAF))
    const departmentCount = Math.max(1, Math.min(20, Math.ceil(leafCount / 10)))
    const perLeaf = Math.ceil(total / leafCount)
    const category = (
      url: string,
      name: string,
      parentId: number | null,
      position: number,
      display: 'grid' | 'paginated',
    ) => ({
      siteId,
      uuid: stableUuid(`${SITE}:category:${url}`),
      parentId,
      slug: url.slice(url.lastIndexOf('/') + 1),
      url,
      name,
      shortDescription: `${name}: generated products for benchmarks.`,
      display,
      position,
    })
    const [root] = await upsertRows<typeof categories, { id: number }>(
      tx,
      categories,
      [category(BENCH_ROOT, 'Benchmark Catalogue', null, 99, 'grid')],
      { conflict: ['siteId', 'url'], update: ['name'], returning: ['id'] },
    )
    const departments = await upsertRows<typeof categories, { id: number; url: string }>(
      tx,
      categories,
      Array.from({ length: departmentCount }, (_, d) => {
        const n = String(d + 1).padStart(2, '0')
        return category(`${BENCH_ROOT}/department-${n}`, `Department ${n}`, root?.id ?? null, d, 'grid')
      }),
      { conflict: ['siteId', 'url'], update: ['name'], returning: ['id', 'url'] },
    )
    const departmentIds = new Map(departments.map((d) => [d.url, d.id]))
    const leafRows = Array.from({ length: leafCount }, (_, l) => {
      const department = `${BENCH_ROOT}/department-${String((l % departmentCount) + 1).padStart(2, '0')}`
      const n = String(l + 1).padStart(4, '0')
      return category(
        `${department}/range-${n}`,
        `Range ${n}`,
        departmentIds.get(department) ?? null,
        l,
        'paginated',
      )
    })
    const leafIds: number[] = []
    for (let i = 0; i < leafRows.length; i += BATCH) {
      const batch = leafRows.slice(i, i + BATCH)
      const saved = await upsertRows<typeof categories, { id: number; url: string }>(tx, categories, batch, {
        conflict: ['siteId', 'url'],
        update: ['name'],
        returning: ['id', 'url'],
      })
      const ids = new Map(saved.map((s) => [s.url, s.id]))
      for (const row of batch) leafIds.push(ids.get(row.url) as number)
    }

    // Product groups in chunks: generate, insert, then their SKUs and memberships.
    for (let start = 0; start < total; start += BATCH) {
      const end = Math.min(total, start + BATCH)
      const chunk = []
      for (let i = start; i < end; i++) chunk.push(benchGroup(i, Math.floor(i / perLeaf), leafRows, leafIds))
      const saved = await upsertRows<typeof productGroups, { id: number; url: string }>(
        tx,
        productGroups,
        chunk.map((c) => ({ siteId, ...c.group })),
        { conflict: ['siteId', 'url'], update: ['name'], returning: ['id', 'url'] },
      )
      const ids = new Map(saved.map((s) => [s.url, s.id]))
      const skuRows = chunk.flatMap((c) =>
        c.skus.map((s) => ({ siteId, groupId: ids.get(c.group.url) as number, ...s })),
      )
      for (let i = 0; i < skuRows.length; i += BATCH) {
        await upsertRows(tx, products, skuRows.slice(i, i + BATCH), {
          conflict: ['siteId', 'sku'],
          update: ['name'],
        })
      }
      skuCount += skuRows.length
      await upsertRows(
        tx,
        categoryProducts,
        chunk.map((c, n) => ({
          categoryId: c.group.categoryId,
          groupId: ids.get(c.group.url) as number,
          position: (start + n) % perLeaf,
        })),
        { conflict: ['categoryId', 'groupId'], update: ['position'] },
      )
      if (end % 10_000 === 0 || end === total) {
        log(
          `bench: ${end} of ${total} product groups (${Math.round((performance.now() - started) / 1000)} s)`,
        )
      }
    }
  })
  const ms = Math.round(performance.now() - started)
  log(`bench catalogue: ${total} product groups, ${skuCount} SKUs under ${BENCH_ROOT} in ${ms} ms`)
  return { groups: total, skus: skuCount, ms }
}

/** Product group number `i` of the bench catalogue and its 3-5 SKUs. */
function benchGroup(i: number, leaf: number, leafRows: { url: string }[], leafIds: number[]) {
  const rng = new Random(`bench:${i}`)
  const number = String(i + 1).padStart(6, '0')
  const name = `${rng.pick(BENCH_STEMS)} – ${rng.pick(BENCH_VARIANTS)} ${number}`
  const slug = slugify(name)
  const leafUrl = (leafRows[leaf] as { url: string }).url
  const url = `${leafUrl}/${slug}`
  const base = nicePrice(rng.int(199, 19999))
  const sizes = rng.sample(SIZES, rng.int(3, 5)).sort((a, b) => SIZES.indexOf(a) - SIZES.indexOf(b))
  const bracketCount = rng.int(2, 5)
  const skus = sizes.map((size, n) => {
    const productCode = `BN${number}-${n + 1}`
    return {
      sku: `HB${number}-${n + 1}`,
      productCode,
      name: `${name} – ${size}`,
      description: size,
      grid: 1,
      rowKey: null,
      optionLabel: null,
      qty: rng.int(0, 500),
      minimumOrder: 1,
      priceList: priceBreaks(nicePrice(base * (1 + 0.3 * n)), BREAKS, bracketCount),
      wasPrice: rng.chance(0.1) ? nicePrice(base * 1.3) : null,
      position: n,
      published: n === 0 || !rng.chance(0.02),
    }
  })
  const image = rng.int(0, IMAGE_STYLES.length)
  const media: CatalogMedia[] =
    image === IMAGE_STYLES.length
      ? []
      : [
          {
            file_location: `/media/catalog/bench/bench-${image + 1}.svg`,
            file_name: `bench-${image + 1}.svg`,
            type: 'image',
            file_type: 'svg',
            alt: name,
          },
        ]
  const layout = rng.pick(LAYOUTS)
  return {
    group: {
      uuid: stableUuid(`${SITE}:group:${url}`),
      categoryId: leafIds[leaf] as number,
      slug,
      url,
      name,
      shortDescription: `${name}. Generated for load testing.`,
      longDescription: `<p>${name}. Generated for load testing, with ${sizes.length} sizes.</p>`,
      attributes: { story_blok: { page_layout: layout }, pricing: { unit_of_measurement: 'each' } },
      media,
      layout,
      minPrice: computeMinPrice(skus),
      published: !rng.chance(0.01),
      createdAt: new Date(Date.UTC(2022, 0, 1) + i * 60_000).toISOString(),
    },
    skus,
  }
}
