/** The embedded search index's records, settings and query (the Algolia-shaped contract). */
import type { HighlightResult } from '../../../shared/search.ts'

export type IndexRecord = { objectID: string } & Record<string, unknown>
export type IndexHit = IndexRecord & { _highlightResult?: Record<string, HighlightResult> }

export interface RankingKey {
  attribute: string
  order: 'asc' | 'desc'
}

export interface IndexSettings {
  /** Searchable attributes, most important first (string or string[] values) */
  searchableAttributes: string[]
  /** Attributes usable in `attr:value` filters */
  attributesForFaceting: string[]
  /** Attributes usable in numeric filters */
  numericAttributes?: string[]
  customRanking?: RankingKey[]
  attributesToHighlight?: string[]
  /** Named sorts (replicas): index name suffix -> keys applied before relevance */
  replicas?: Record<string, RankingKey[]>
}

export interface EngineQuery {
  query?: string
  filters?: string
  hitsPerPage?: number
  page?: number
  clickAnalytics?: boolean
  attributesToHighlight?: string[]
  highlightPreTag?: string
  highlightPostTag?: string
  /** Sort keys applied before relevance (a replica) */
  sort?: RankingKey[]
}

/** How one dictionary term matches a query word. */
export interface TermMatch {
  typos: number
  prefix: boolean
  /** Letters the term has beyond the typed word (prefix matches) */
  completion: number
}
