import { sql } from 'drizzle-orm'
import type { Db } from '../client.ts'
import { contentPages, sites } from '../schema.ts'
import { seedCustomers } from '../../modules/auth/auth.seed.ts'
import { seedCatalog } from './catalog/index.ts'
import { demoPages } from './content.ts'
import { demoSites } from './sites.ts'

export interface SeedOptions {
  log?: (message: string) => void
}

/**
 * Deterministic demo data. Idempotent: rows are matched on natural keys (site host, page slug)
 * and brought back to their seeded values, so running it twice changes nothing.
 */
export async function seed(db: Db, options: SeedOptions = {}): Promise<void> {
  const log = options.log ?? (() => {})
  await db.transaction(async (tx) => {
    for (const site of demoSites) {
      const [row] = await tx
        .insert(sites)
        .values(site)
        .onConflictDoUpdate({
          target: sites.host,
          set: {
            code: site.code,
            name: site.name,
            currency: site.currency,
            logo: site.logo,
            settings: site.settings,
            updatedAt: sql`now()`,
          },
        })
        .returning({ id: sites.id, code: sites.code })
      if (!row) continue
      for (const page of demoPages[row.code] ?? []) {
        const values = {
          siteId: row.id,
          slug: page.slug,
          title: page.title,
          metaDescription: page.metaDescription,
          keywords: page.keywords ?? null,
          noindex: page.noindex ?? false,
          breadcrumbs: page.breadcrumbs ?? null,
          body: page.body,
        }
        await tx
          .insert(contentPages)
          .values(values)
          .onConflictDoUpdate({
            target: [contentPages.siteId, contentPages.slug],
            set: { ...values, updatedAt: sql`now()` },
          })
      }
    }
    await seedCatalog(tx, log)
    await seedCustomers(tx as unknown as Db)
  })
  log(`seeded ${demoSites.length} sites`)
}

/** True when the database has no sites yet (a fresh install). */
export async function isEmpty(db: Db): Promise<boolean> {
  const rows = await db.select({ id: sites.id }).from(sites).limit(1)
  return rows.length === 0
}
