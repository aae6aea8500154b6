import { sql } from 'drizzle-orm'
import type { Db } from '../client.ts'
import { importContent } from '../../modules/content/content.import.ts'
import { sites } from '../schema.ts'
import { seedCustomers } from './customers.ts'
import { seedAccount } from './account.ts'
import { seedCatalog } from './catalog/index.ts'
import { seedCart } from './cart.ts'
import { seedBuilders } from './builders.ts'
import { demoSites } from './sites.ts'
import { seedSearch } from './search.ts'
import { seedDemoOwner } from '../../modules/staff/staff.seed.ts'
import { seedBackOfficeDemo } from '../../modules/staff/backoffice.seed.ts'

export interface SeedOptions {
  log?: (message: string) => void
}

/**
 * Deterministic demo data. Idempotent: rows are matched on natural keys (site host, story slug)
 * and brought back to their seeded values, so running it twice changes nothing.
 */
export async function seed(db: Db, options: SeedOptions = {}): Promise<void> {
  const log = options.log ?? (() => {})
  await db.transaction(async (tx) => {
    for (const site of demoSites) {
      await tx
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
    }
    await seedCatalog(tx, log)
    await seedSearch(tx)
    await seedCart(tx)
    await seedBuilders(tx)
    await seedCustomers(tx as unknown as Db)
    await seedAccount(tx as unknown as Db)
    await seedDemoOwner(tx as unknown as Db, log)
    await seedBackOfficeDemo(tx as unknown as Db)
  })
  // Stories, site settings and the header message: the JSON files under content/.
  for (const r of await importContent(db)) log(`${r.site}: ${r.stories} content stories`)
  log(`seeded ${demoSites.length} sites`)
}
