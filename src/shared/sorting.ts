/**
 * Sort options of the paginated category listing and the search listing (spec §2 "Paginated
 * category and search listing"). The keys travel in the `sort` query parameter; the labels are
 * what the visitor reads. The two price keys read reversed to their labels; the label wins: each
 * option orders products the way its label says (docs/decisions/0008-sort-labels.md).
 */

export type SortKey = '' | 'name-asc' | 'name-desc' | 'price-high_low' | 'price-low_high' | 'new'

export interface SortOption {
  value: SortKey
  label: string
}

/** In the order the select shows them; the first is the default. */
export const SORT_OPTIONS: readonly SortOption[] = [
  { value: '', label: 'Most Relevant' },
  { value: 'name-asc', label: 'Name (A-Z)' },
  { value: 'name-desc', label: 'Name (Z-A)' },
  { value: 'price-high_low', label: 'Price (Low to High)' },
  { value: 'price-low_high', label: 'Price (High to Low)' },
  { value: 'new', label: 'Newest First' },
]

export const DEFAULT_SORT: SortKey = ''

/** How a key orders the products: by what, and which way. */
export type SortOrder =
  | { by: 'relevance' }
  | { by: 'name'; direction: 'asc' | 'desc' }
  | { by: 'price'; direction: 'asc' | 'desc' }
  | { by: 'newest' }

const ORDERS: Readonly<Record<SortKey, SortOrder>> = {
  '': { by: 'relevance' },
  'name-asc': { by: 'name', direction: 'asc' },
  'name-desc': { by: 'name', direction: 'desc' },
  // Labelled 'Price (Low to High)': cheapest first, whatever the key says.
  'price-high_low': { by: 'price', direction: 'asc' },
  // Labelled 'Price (High to Low)': dearest first.
  'price-low_high': { by: 'price', direction: 'desc' },
  new: { by: 'newest' },
}

export function isSortKey(value: unknown): value is SortKey {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(ORDERS, value)
}

/** The `sort` query value as a key; anything unknown (junk, arrays, objects) is the default. */
export function parseSort(raw: unknown): SortKey {
  const value = Array.isArray(raw) ? raw[0] : raw
  return isSortKey(value) ? value : DEFAULT_SORT
}

export function sortOrder(key: SortKey): SortOrder {
  return ORDERS[key]
}

export function sortLabel(key: SortKey): string {
  return SORT_OPTIONS.find((o) => o.value === key)?.label ?? 'Most Relevant'
}
