/**
 * Pagination of listings (spec §2 "Paginated category and search listing", §9): query parsing
 * that never fails, the page arithmetic the server uses, the window of page numbers the
 * Pagination component shows at each screen width, and the links it builds.
 */

/** Page size when the request does not give one (spec §9). */
export const DEFAULT_PAGE_SIZE = 10
export const MIN_PAGE_SIZE = 1
export const MAX_PAGE_SIZE = 100

/** Beyond this a requested page number is treated as "the last page" anyway. */
const PAGE_CEILING = 1_000_000_000

/**
 * Page numbers shown per screen width: under 480 px 3, under 768 px 5, under 1024 px 7,
 * otherwise 9 (first and last included). The widths are Tailwind's min-[480px], md and lg.
 */
export const PAGINATION_STEPS: readonly { below: number; count: number }[] = [
  { below: 480, count: 3 },
  { below: 768, count: 5 },
  { below: 1024, count: 7 },
]
export const WIDEST_PAGE_COUNT = 9

/** What a listing page tells the browser about its position (spec §3 `pagination`). */
export interface PaginationMeta {
  /** Current page, 1-based, always within 1..total_pages */
  page: number
  /** At least 1, also for an empty listing */
  total_pages: number
  total_results: number
  limit: number
  /** 1-based number of the first result on this page; 0 when there are none */
  from: number
  /** 1-based number of the last result on this page; 0 when there are none */
  to: number
}

function firstValue(raw: unknown): unknown {
  return Array.isArray(raw) ? raw[0] : raw
}

function wholeNumber(raw: unknown): number | null {
  const value = firstValue(raw)
  if (typeof value === 'number') return Number.isInteger(value) && value >= 0 ? value : null
  if (typeof value !== 'string') return null
  const text = value.trim()
  if (!/^\d+$/.test(text)) return null
  return Number(text)
}

/** The `page` query value: a whole number of at least 1; junk gives 1. Not yet capped by the total. */
export function parsePage(raw: unknown): number {
  const n = wholeNumber(raw)
  if (n === null || n < 1) return 1
  return Math.min(n, PAGE_CEILING)
}

/** The `limit` query value, clamped to 1..100; junk or absence gives the default of 10. */
export function parseLimit(raw: unknown): number {
  const n = wholeNumber(raw)
  if (n === null) return DEFAULT_PAGE_SIZE
  return Math.min(MAX_PAGE_SIZE, Math.max(MIN_PAGE_SIZE, n))
}

export function totalPages(totalResults: number, limit: number): number {
  return Math.max(1, Math.ceil(Math.max(0, totalResults) / Math.max(1, limit)))
}

/**
 * The page actually shown for a requested page: a page beyond the last shows the last page
 * (page 1 when the listing is empty).
 */
export function clampPage(requested: number, totalResults: number, limit: number): number {
  return Math.min(Math.max(1, Math.floor(requested) || 1), totalPages(totalResults, limit))
}

export function pageOffset(page: number, limit: number): number {
  return (Math.max(1, page) - 1) * limit
}

/** The pagination block for a shown page (already clamped). */
export function paginationMeta(page: number, totalResults: number, limit: number): PaginationMeta {
  const total = Math.max(0, totalResults)
  const current = clampPage(page, total, limit)
  const offset = pageOffset(current, limit)
  const to = Math.min(total, offset + limit)
  return {
    page: current,
    total_pages: totalPages(total, limit),
    total_results: total,
    limit,
    from: to > offset ? offset + 1 : 0,
    to: to > offset ? to : 0,
  }
}

/** How many page numbers fit at a viewport width (3, 5, 7 or 9). */
export function visiblePageCount(width: number): number {
  for (const step of PAGINATION_STEPS) if (width < step.below) return step.count
  return WIDEST_PAGE_COUNT
}

export type PageItem = { kind: 'page'; page: number; current: boolean } | { kind: 'gap'; after: number }

/**
 * The page numbers to show: at most `count` of them (3, 5, 7 or 9), first and last always among
 * them, the rest a run around the current page (shifted at either end so the count stays full),
 * and a gap (ellipsis) wherever pages are left out. From 7 up the run always holds the current
 * page plus and minus 2; at 9 it holds plus and minus 3.
 */
export function pageWindow(current: number, total: number, count: number): PageItem[] {
  const last = Math.max(1, Math.floor(total))
  const page = Math.min(Math.max(1, Math.floor(current)), last)
  const slots = Math.max(3, Math.floor(count))
  const item = (n: number): PageItem => ({ kind: 'page', page: n, current: n === page })
  if (last <= slots) return Array.from({ length: last }, (_, i) => item(i + 1))

  const inner = slots - 2
  let start = page - Math.floor((inner - 1) / 2)
  start = Math.max(2, Math.min(start, last - inner))
  const end = start + inner - 1

  const items: PageItem[] = [item(1)]
  if (start > 2) items.push({ kind: 'gap', after: 1 })
  for (let n = start; n <= end; n++) items.push(item(n))
  if (end < last - 1) items.push({ kind: 'gap', after: end })
  items.push(item(last))
  return items
}

/**
 * The listing address with some query parameters changed: `null` (or '') removes one. Other
 * parameters (a search term, a page size) are kept. Works on a path with a query string.
 */
export function withQuery(url: string, changes: Record<string, string | number | null>): string {
  const hashAt = url.indexOf('#')
  const bare = hashAt === -1 ? url : url.slice(0, hashAt)
  const queryAt = bare.indexOf('?')
  const path = queryAt === -1 ? bare : bare.slice(0, queryAt)
  const params = new URLSearchParams(queryAt === -1 ? '' : bare.slice(queryAt + 1))
  for (const [key, value] of Object.entries(changes)) {
    if (value === null || value === '') params.delete(key)
    else params.set(key, String(value))
  }
  const query = params.toString()
  return `${path || '/'}${query ? `?${query}` : ''}`
}

/** Link to a page of the listing; page 1 drops the parameter. */
export function pageHref(url: string, page: number): string {
  return withQuery(url, { page: page > 1 ? page : null })
}

/** Link for another sort order: the page is dropped (spec: "reloads with sort and drops page"). */
export function sortHref(url: string, sort: string): string {
  return withQuery(url, { sort: sort || null, page: null })
}
