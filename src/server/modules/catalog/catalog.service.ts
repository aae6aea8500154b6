import { LRUCache } from 'lru-cache'
import type { Db } from '../../db/client.ts'
import { recordCache } from '../../lib/cache-stats.ts'
import { findCategoryByUrl, findProductGroupByUrl, topLevelCategories } from './catalog.queries.ts'

/** What a storefront path points at in the catalogue. */
export type CatalogTarget = { kind: 'category'; id: number } | { kind: 'product'; id: number }

const NONE = Symbol('none')

/**
 * What a catalogue write changed, for listeners such as the search index. Ids name the rows
 * written (inserted, updated or deleted); an empty change (or none) means "anything may have
 * changed".
 */
export interface CatalogChange {
  siteId?: number
  groupIds?: number[]
  categoryIds?: number[]
}

export type CatalogListener = (change: CatalogChange) => void

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

  private readonly listeners = new Set<CatalogListener>()

  constructor(readonly db: Db) {}

  /** Calls `listener` after every catalogue write; returns the unsubscribe function. */
  onChange(listener: CatalogListener): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  async resolvePath(siteId: number, url: string): Promise<CatalogTarget | null> {
    const key = `${siteId}:${url}`
    const cached = this.paths.get(key)
    recordCache('catalog-paths', cached !== undefined)
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

  /** Every catalogue write calls this, naming what it changed when it can. */
  invalidate(change: CatalogChange = {}): void {
    this.version++
    this.paths.clear()
    this.topLevelBySite.clear()
    for (const listener of this.listeners) listener(change)
  }
}
