/**
 * Breadcrumb logic shared by the Breadcrumbs component and its tests: which entries show on a
 * narrow screen, and the schema.org BreadcrumbList for search engines.
 */
import type { Breadcrumb } from './page-props.ts'

/** Screens this wide or narrower collapse long trails. */
export const BREADCRUMB_COLLAPSE_QUERY = '(max-width: 640px)'

/** Trails with more entries than this collapse on narrow screens. */
export const BREADCRUMB_COLLAPSE_AFTER = 2

export type TrailEntry =
  | { kind: 'crumb'; crumb: Breadcrumb; index: number; isCurrent: boolean }
  | { kind: 'ellipsis'; hidden: number }

/**
 * The entries to render. The last crumb is the current page (never a link). When `collapse` is
 * on (a narrow screen) and the trail is longer than two, an ellipsis replaces all but the last two.
 */
export function breadcrumbTrail(items: readonly Breadcrumb[], collapse: boolean): TrailEntry[] {
  const last = items.length - 1
  const entries: TrailEntry[] = items.map((crumb, index) => ({
    kind: 'crumb',
    crumb,
    index,
    isCurrent: index === last,
  }))
  if (!collapse || items.length <= BREADCRUMB_COLLAPSE_AFTER) return entries
  const hidden = items.length - BREADCRUMB_COLLAPSE_AFTER
  return [{ kind: 'ellipsis', hidden }, ...entries.slice(hidden)]
}

/** Whether an entry is rendered as a link: it has a URL and is not the current page. */
export function isBreadcrumbLink(entry: TrailEntry): boolean {
  return entry.kind === 'crumb' && !entry.isCurrent && !!entry.crumb.url
}

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
}

/** Plain text of a sanitised breadcrumb name (strong/b/em/i/br), for structured data. */
export function breadcrumbText(html: string): string {
  return html
    .replace(/<br\s*\/?>/gi, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, code: string) => {
      if (code[0] === '#') {
        const n =
          code[1] === 'x' || code[1] === 'X' ? parseInt(code.slice(2), 16) : parseInt(code.slice(1), 10)
        return Number.isFinite(n) && n > 0 && n <= 0x10ffff ? String.fromCodePoint(n) : whole
      }
      return ENTITIES[code.toLowerCase()] ?? whole
    })
    .replace(/\s+/g, ' ')
    .trim()
}

export interface BreadcrumbListJsonLd {
  '@context': 'https://schema.org'
  '@type': 'BreadcrumbList'
  itemListElement: {
    '@type': 'ListItem'
    position: number
    name: string
    item?: string
  }[]
}

function absoluteUrl(url: string, baseUrl: string): string {
  try {
    return new URL(url, baseUrl).href
  } catch {
    return url
  }
}

/** schema.org BreadcrumbList for the trail; URLs are made absolute against the site's base URL. */
export function breadcrumbJsonLd(items: readonly Breadcrumb[], baseUrl: string): BreadcrumbListJsonLd {
  return {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: items.map((crumb, index) => ({
      '@type': 'ListItem' as const,
      position: index + 1,
      name: breadcrumbText(crumb.name),
      ...(crumb.url ? { item: absoluteUrl(crumb.url, baseUrl) } : {}),
    })),
  }
}

/**
 * JSON for a <script type="application/ld+json"> element. `<`, `>` and `&` are escaped so the
 * text can never close the script element or open a comment; the JSON value is unchanged.
 */
export function serializeJsonLd(data: unknown): string {
  return JSON.stringify(data)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')
}
