/** Reads of the sites table outside the registry's cache. */
import type { Db } from '../../db/client.ts'
import { sites } from './sites.tables.ts'

/** The id of every configured site. */
export async function allSiteIds(db: Db): Promise<number[]> {
  return (await db.select({ id: sites.id }).from(sites)).map((r) => r.id)
}
