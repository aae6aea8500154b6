/** Demo search data: redirect rules of the demo brands (idempotent). */
import { sql } from 'drizzle-orm'
import type { Db } from '../client.ts'
import { sites } from '../../modules/sites/sites.tables.ts'
import { searchRedirects } from '../../modules/search/search.tables.ts'

/** Site code → normalised query → url. */
export const DEMO_REDIRECTS: Record<string, Record<string, string>> = {
  harbour: { delivery: '/delivery-information', 'about us': '/about-us' },
}

export async function seedSearch(db: Db): Promise<void> {
  const rows = await db.select({ id: sites.id, code: sites.code }).from(sites)
  for (const site of rows) {
    for (const [query, url] of Object.entries(DEMO_REDIRECTS[site.code] ?? {})) {
      await db
        .insert(searchRedirects)
        .values({ siteId: site.id, query, url })
        .onConflictDoUpdate({
          target: [searchRedirects.siteId, searchRedirects.query],
          set: { url, createdAt: sql`now()` },
        })
    }
  }
}
