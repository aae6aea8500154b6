import type { PresentedBlok } from './content.ts'
/**
 * The search contract shared by the browser and the server. Requests and responses mirror
 * Algolia's multi-query API (`POST /1/indexes/{any}/queries`), so the same front-end code works
 * with the embedded engine and with Algolia (spec §7 "Search service"). Constants come from
 * spec §9. No server code here.
 */

/** Logical index names; the server maps them to a site's own index. */
export const PRODUCTS_INDEX = 'products'
export const SUGGESTIONS_INDEX = 'products_query_suggestions'

/** Spec §7: the filters the storefront sends. */
export const CATEGORY_FILTER = 'type:category AND status:published'
export const DROPDOWN_PRODUCT_FILTER = 'type:product_group OR type:product AND status:published'
export const SEARCH_PAGE_FILTER = 'type:product AND status:published'

/**
 * The attribute of the `<script type="application/json">` the first load of the Search page
 * carries its click-analytics queryID in, as `{"url": page url, "queryID": …}`. The page object of
 * a first load has `queryID: null`, so its server render is the same for every visitor and the
 * memoised render is reused (ADR 0112); Inertia visits carry the queryID in the props as before.
 */
export const FIRST_LOAD_QUERY_ID_ATTRIBUTE = 'data-search-query-id'

/** Spec §9: hits per dropdown section, with suggestions on and off. */
export const DROPDOWN_HITS = {
  withSuggestions: { suggestions: 5, categories: 4, products: 3 },
  withoutSuggestions: { suggestions: 0, categories: 7, products: 7 },
} as const
/** Spec §9: the search box closes this long after its input becomes empty. */
export const EMPTY_CLOSE_DELAY_MS = 1000
/** Spec §9: products carousel items and image size in the dropdown. */
export const CAROUSEL_ITEMS = 3
export const DROPDOWN_IMAGE_SIZE = 98
/** Typing pause before a dropdown query is sent. */
export const SEARCH_DEBOUNCE_MS = 150
/** Longest query the service accepts, in characters (longer input is cut, never rejected). */
export const MAX_QUERY_LENGTH = 512

export const HIGHLIGHT_PRE_TAG = '<em>'
export const HIGHLIGHT_POST_TAG = '</em>'

export type SearchHitType = 'product' | 'product_group' | 'category'

export interface SearchQuery {
  indexName: string
  query?: string
  filters?: string
  hitsPerPage?: number
  /** 0-based */
  page?: number
  clickAnalytics?: boolean
  attributesToHighlight?: string[]
  highlightPreTag?: string
  highlightPostTag?: string
  analytics?: boolean
  userToken?: string
  [param: string]: unknown
}

export interface SearchRequestBody {
  requests: SearchQuery[]
}

export interface HighlightResult {
  value: string
  matchLevel: 'none' | 'partial' | 'full'
  matchedWords: string[]
  fullyHighlighted?: boolean
}

/** A record of the products index (spec §3 "Search hit"). */
export interface SearchHit {
  objectID: string
  type: SearchHitType
  status: 'published' | 'unpublished'
  url: string
  name: string
  short_description: string
  /** Minor units (pence or cents) */
  price_ex_tax: number
  price_inc_tax: number
  /** Image URL, or the placeholder when the record has none */
  image: string
  category_name: string
  /**
   * Spec §3 'Search hit' lists 'Category Name' beside category_name: the same name (the product's
   * category, or a category's parent), under the label the original index used.
   */
  'Category Name': string
  _highlightResult?: Record<string, HighlightResult>
}

/** A record of the query-suggestions index. */
export interface SuggestionHit {
  objectID: string
  query: string
  popularity: number
  nb_words: number
  _highlightResult?: Record<string, HighlightResult>
}

export interface SearchResult<T = SearchHit | SuggestionHit> {
  hits: T[]
  nbHits: number
  page: number
  nbPages: number
  hitsPerPage: number
  processingTimeMS: number
  query: string
  params: string
  index: string
  exhaustiveNbHits: boolean
  /** 32 lowercase hex characters; only when the query asked for clickAnalytics */
  queryID?: string
  renderingContent?: { redirect?: { url?: string } }
}

export interface SearchResponseBody {
  results: SearchResult[]
}

/** Click event in Algolia Insights' shape (positions are 1-based). */
export interface ClickEvent {
  eventType: 'click'
  eventName: string
  index: string
  queryID: string
  objectIDs: string[]
  positions: number[]
  userToken?: string
  timestamp?: number
}

/** The `search` shared prop: how the page should use the search service. */
export interface SearchSettingsProps {
  /** Whether the dropdown shows query suggestions (changes hits per section) */
  suggestions: boolean
  /** Send clickAnalytics and record clicks; off when the visitor's address is internal */
  clickAnalytics: boolean
  /** Whether /search shows 'Best selling products' when nothing matches */
  bestSellers: boolean
}

export type HighlightPart = { text: string; highlighted: boolean }

/** Splits a highlighted value into plain and highlighted runs (no HTML is interpreted). */
export function highlightParts(
  value: string,
  pre: string = HIGHLIGHT_PRE_TAG,
  post: string = HIGHLIGHT_POST_TAG,
): HighlightPart[] {
  const parts: HighlightPart[] = []
  let rest = value
  while (rest) {
    const open = rest.indexOf(pre)
    if (open === -1) {
      parts.push({ text: rest, highlighted: false })
      break
    }
    if (open > 0) parts.push({ text: rest.slice(0, open), highlighted: false })
    const close = rest.indexOf(post, open + pre.length)
    const end = close === -1 ? rest.length : close
    parts.push({ text: rest.slice(open + pre.length, end), highlighted: true })
    rest = close === -1 ? '' : rest.slice(close + post.length)
  }
  return parts.filter((p) => p.text !== '')
}

/** Title case for display: the first letter of every word upper-cased, the rest left alone. */
export function titleCase(text: string): string {
  return text.replace(
    /(^|[\s\-/(])(\p{L})/gu,
    (_m, lead: string, letter: string) => lead + letter.toUpperCase(),
  )
}

/** The query as the service sees it: trimmed, whitespace collapsed, control characters removed. */
export function cleanQuery(raw: unknown): string {
  if (typeof raw !== 'string') return ''
  return raw
    .replace(/[\p{Cc}\p{Cf}]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, MAX_QUERY_LENGTH)
}

/**
 * Content areas of the /search page: the blocks of the stories `search/before-results`,
 * `search/after-results` and `search/no-results` (sanitised on the server), or null.
 */
export interface SearchContentAreas {
  beforeResults: PresentedBlok[] | null
  afterResults: PresentedBlok[] | null
  noResults: PresentedBlok[] | null
}
