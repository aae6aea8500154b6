/**
 * Product tiles of search results (the Search page's hits, the best sellers), loaded by primary
 * key and kept per catalogue version: a page of hits costs no query once its tiles were seen.
 *
 * How it learns of a change: every catalogue write calls `catalog.invalidate()`, which bumps
 * `catalog.version`; on another instance the write arrives through the change bus's `catalog`
 * topic (ops/cache-signals.ts calls `catalog.invalidate()` there too), and a lost bus connection
 * invalidates the whole catalogue on reconnection. Either way the version moves, and this cache
 * drops everything it holds for an older version (ADR 0112).
 */
import { LRUCache } from 'lru-cache'
import type { ProductTileData } from '../../../shared/listing.ts'
import type { Db } from '../../db/client.ts'
import { recordCache } from '../../lib/cache-stats.ts'
import { presentProductTile } from '../catalog/category.presenter.ts'
import { findProductTiles } from '../catalog/listing.ts'

/** Tiles kept (one per product group and site; 10k tiles are a few MB). */
const MAX_TILES = 10_000

/** What the cache needs of the catalogue: its version, moved by every write on any instance. */
export interface CatalogVersion {
  readonly version: number
}

/** A group that is missing or unpublished is remembered as such (no tile), like a found one. */
const NONE = Symbol('none')

export class SearchTiles {
  private readonly tiles = new LRUCache<string, ProductTileData | typeof NONE>({ max: MAX_TILES })
  private version: number

  constructor(
    private readonly db: Db,
    private readonly catalog: CatalogVersion,
  ) {
    this.version = catalog.version
  }

  /** Tiles of the published groups among `ids`, in the order asked for (others left out). */
  async get(siteId: number, ids: readonly number[]): Promise<ProductTileData[]> {
    this.followCatalogue()
    const have = new Map<number, ProductTileData | typeof NONE>()
    const missing: number[] = []
    for (const id of ids) {
      const tile = this.tiles.get(`${siteId}:${id}`)
      if (tile === undefined) missing.push(id)
      else have.set(id, tile)
    }
    recordCache('search-tiles', missing.length === 0)
    if (missing.length) {
      const version = this.catalog.version
      const rows = await findProductTiles(this.db, { siteId, ids: missing })
      const found = new Map(rows.map((r) => [r.id, presentProductTile(r)]))
      // A write during the read may have changed these rows: keep them only if none happened.
      const keep = version === this.catalog.version
      for (const id of missing) {
        const tile = found.get(id) ?? NONE
        have.set(id, tile)
        if (keep) this.tiles.set(`${siteId}:${id}`, tile)
      }
    }
    return ids.flatMap((id) => {
      const tile = have.get(id)
      return tile && tile !== NONE ? [tile] : []
    })
  }

  /** Drops every tile of an older catalogue version. */
  private followCatalogue(): void {
    if (this.version === this.catalog.version) return
    this.tiles.clear()
    this.version = this.catalog.version
  }
}
