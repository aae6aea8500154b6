/**
 * The search engine seam. The service speaks to one SearchEngine; the embedded engine (default)
 * keeps in-process indices, the Algolia adapter forwards to Algolia. Both take and give
 * Algolia-shaped queries and results, per site and logical index.
 */
import type { ClickEvent, SearchResult } from '../../../shared/search.ts'
import {
  SearchIndex,
  type EngineQuery,
  type IndexHit,
  type IndexRecord,
  type IndexSettings,
  type RankingKey,
} from './engine.ts'

export type IndexKind = 'products' | 'suggestions'

/** A request the search service refuses (a 400 with this message). */
export class SearchRequestError extends Error {
  readonly statusCode = 400
}

/** The search engine could not be reached or failed (a 503). */
export class SearchUnavailableError extends Error {
  readonly statusCode = 503
  constructor(cause?: unknown) {
    super('Search is unavailable at the moment. Please try again shortly.', { cause })
  }
}

/** Sorts of the /search listing, as replicas of the products index. */
export const PRODUCT_REPLICAS = {
  name_asc: [{ attribute: 'sort_name', order: 'asc' }],
  name_desc: [{ attribute: 'sort_name', order: 'desc' }],
  price_asc: [{ attribute: 'sort_price', order: 'asc' }],
  price_desc: [{ attribute: 'sort_price', order: 'desc' }],
  newest: [{ attribute: 'created', order: 'desc' }],
} as const satisfies Record<string, RankingKey[]>
export type ProductReplica = keyof typeof PRODUCT_REPLICAS

export const INDEX_SETTINGS: Record<IndexKind, IndexSettings> = {
  products: {
    searchableAttributes: ['name', 'skus', 'category_name', 'brand', 'short_description'],
    attributesForFaceting: ['type', 'status', 'category_name', 'brand'],
    numericAttributes: ['price_ex_tax', 'price_inc_tax', 'popularity', 'created'],
    customRanking: [
      { attribute: 'popularity', order: 'desc' },
      { attribute: 'depth', order: 'asc' },
    ],
    attributesToHighlight: ['name', 'category_name'],
    replicas: PRODUCT_REPLICAS,
  },
  suggestions: {
    searchableAttributes: ['query'],
    attributesForFaceting: [],
    numericAttributes: ['popularity', 'nb_words'],
    customRanking: [{ attribute: 'popularity', order: 'desc' }],
    attributesToHighlight: ['query'],
  },
}

export interface EngineRequest extends EngineQuery {
  index: IndexKind
  replica?: ProductReplica
}

export interface SearchEngine {
  readonly kind: 'embedded' | 'algolia'
  search(siteId: number, requests: EngineRequest[]): Promise<SearchResult<IndexHit>[]>
  /** Replaces every record of a site's index. */
  replaceAll(siteId: number, index: IndexKind, records: IndexRecord[]): Promise<void>
  save(siteId: number, index: IndexKind, records: IndexRecord[]): Promise<void>
  remove(siteId: number, index: IndexKind, objectIDs: string[]): Promise<void>
  /** Click events for the engine's own analytics (Algolia Insights); the embedded engine has none. */
  sendClicks(siteId: number, events: ClickEvent[]): Promise<void>
  close(): Promise<void>
}

/** The default engine: one SearchIndex per site and index kind, in this process. */
export class EmbeddedSearchEngine implements SearchEngine {
  readonly kind = 'embedded' as const
  private readonly indices = new Map<string, SearchIndex>()

  indexOf(siteId: number, kind: IndexKind): SearchIndex {
    const key = `${siteId}:${kind}`
    let index = this.indices.get(key)
    if (!index) {
      index = new SearchIndex(`site_${siteId}_${kind}`, INDEX_SETTINGS[kind])
      this.indices.set(key, index)
    }
    return index
  }

  async search(siteId: number, requests: EngineRequest[]): Promise<SearchResult<IndexHit>[]> {
    return requests.map((r) => {
      const index = this.indexOf(siteId, r.index)
      const sort = r.replica ? [...PRODUCT_REPLICAS[r.replica]] : undefined
      return index.search({ ...r, ...(sort ? { sort } : {}) })
    })
  }

  async replaceAll(siteId: number, kind: IndexKind, records: IndexRecord[]): Promise<void> {
    const fresh = new SearchIndex(`site_${siteId}_${kind}`, INDEX_SETTINGS[kind])
    fresh.saveObjects(records)
    this.indices.set(`${siteId}:${kind}`, fresh) // swapped whole: searches never see half an index
  }

  async save(siteId: number, kind: IndexKind, records: IndexRecord[]): Promise<void> {
    this.indexOf(siteId, kind).saveObjects(records)
  }

  async remove(siteId: number, kind: IndexKind, objectIDs: string[]): Promise<void> {
    this.indexOf(siteId, kind).deleteObjects(objectIDs)
  }

  async sendClicks(): Promise<void> {}

  async close(): Promise<void> {
    this.indices.clear()
  }
}
