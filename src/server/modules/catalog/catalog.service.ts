import { LRUCache } from 'lru-cache'
import type { Db } from '../../db/client.ts'
import { findCategoryByUrl, findProductGroupByUrl, topLevelCategories } from './catalog.queries.ts'

/** What a storefront path points at in the catalogue. */
export type CatalogTarget = { kind: 'category'; id: number } | { kind: 'product'; id: number }

const NONE = Symbol('none')

/**
 * Catalogue reads shared by the storefront. Path lookups are cached per site (misses too, in a
 * bounded LRU); every catalogue write must call `invalidate()`, which also bumps `version` so
 * caches of presented pages keyed on it go stale together.
 */
export class CatalogService {
  version = 1
  private readonly paths = new LRUCache<string, CatalogTarget | typeof NONE>({
    max: 50_000,
    ttl: 10 * 60_000,
  })

  private readonly topLevelBySite = new Map<number, { name: string; url: string }[]>()

  constructor(readonly db: Db) {}

  async resolvePath(siteId: number, url: string): Promise<CatalogTarget | null> {
    const key = `${siteId}:${url}`
    const cached = this.paths.get(key)
    if (cached !== undefined) return cached === NONE ? null : cached
    const category = await findCategoryByUrl(this.db, siteId, url)
    const target: CatalogTarget | null = category
      ? { kind: 'category', id: category.id }
      : await findProductGroupByUrl(this.db, siteId, url).then((g) =>
          g ? { kind: 'product', id: g.id } : null,
        )
    this.paths.set(key, target ?? NONE)
    return target
  }

  /** Top-level categories of a site (home page), cached until the next catalogue write. */
  async topLevel(siteId: number): Promise<{ name: string; url: string }[]> {
    const cached = this.topLevelBySite.get(siteId)
    if (cached) return cached
    const rows = await topLevelCategories(this.db, siteId)
    this.topLevelBySite.set(siteId, rows)
    return rows
  }

  invalidate(): void {
    this.version++
    this.paths.clear()
    this.topLevelBySite.clear()
  }
}
