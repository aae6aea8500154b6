/**
 * The demo catalogue: generated from the vocabulary with a seeded PRNG, upserted for every demo
 * site that exists, with its images and data sheets written under var/media.
 */
import { resolve } from 'node:path'
import { projectRoot } from '../../../config.ts'
import type { Db } from '../../client.ts'
import { sites } from '../../schema.ts'
import { generateSiteCatalog } from './generate.ts'
import { loadSiteCatalog } from './load.ts'
import { writeMediaFiles, type MediaFile } from './media.ts'
import { SITE_SPECS } from './vocabulary.ts'

export const DEFAULT_MEDIA_ROOT = resolve(projectRoot, 'var/media')

export interface CatalogSeedOptions {
  /** Where /media/... files are written (default var/media) */
  mediaRoot?: string
}

/** Seeds the catalogue of the demo sites present in the database. Call inside the seed transaction. */
export async function seedCatalog(
  db: Db,
  log: (message: string) => void = () => {},
  options: CatalogSeedOptions = {},
): Promise<void> {
  const started = performance.now()
  const rows = await db.select({ id: sites.id, code: sites.code }).from(sites)
  const catalogs = SITE_SPECS.flatMap((spec) => {
    const site = rows.find((r) => r.code === spec.code)
    return site ? [{ siteId: site.id, catalog: generateSiteCatalog(spec) }] : []
  })
  // Files are written while the database loads; a failure there must not fail the seed, since
  // the image service answers a placeholder for missing files.
  const files: MediaFile[] = catalogs.flatMap((c) => c.catalog.files)
  const media = writeMediaFiles(options.mediaRoot ?? DEFAULT_MEDIA_ROOT, 'catalog', files).then(
    (w) => `${w.written} of ${w.total} media files written`,
    (err: Error) => `media files not written (${err.message})`,
  )
  const counts: string[] = []
  for (const { siteId, catalog } of catalogs) {
    const result = await loadSiteCatalog(db, siteId, catalog)
    counts.push(
      `${catalog.siteCode}: ${result.categories} categories, ${result.groups} product groups, ${result.skus} SKUs`,
    )
  }
  const dbDone = performance.now()
  const mediaNote = await media
  const ms = (t: number) => `${Math.round(t)} ms`
  log(
    `seeded catalogue (${counts.join('; ')}) in ${ms(performance.now() - started)}: database ${ms(dbDone - started)}, ${mediaNote}`,
  )
}
