/** Recently viewed categories, kept in sessionStorage for the browser session (newest first). */
export const RECENT_CATEGORIES_KEY = 'recentlyViewedCategories'
export const RECENT_CATEGORIES_MAX = 10

export interface RecentCategory {
  id: number
  uuid: string
  name: string
  url: string
}

export function readRecentCategories(): RecentCategory[] {
  try {
    const raw = window.sessionStorage.getItem(RECENT_CATEGORIES_KEY)
    const list = raw ? (JSON.parse(raw) as unknown) : []
    return Array.isArray(list) ? (list.filter((c) => c && typeof c.url === 'string') as RecentCategory[]) : []
  } catch {
    return []
  }
}

/** Puts a category first in the list (once), keeping at most RECENT_CATEGORIES_MAX. */
export function recordRecentCategory(category: RecentCategory): void {
  if (!category.url || !category.name) return
  try {
    const next = [category, ...readRecentCategories().filter((c) => c.id !== category.id)].slice(
      0,
      RECENT_CATEGORIES_MAX,
    )
    window.sessionStorage.setItem(RECENT_CATEGORIES_KEY, JSON.stringify(next))
  } catch {
    // Storage unavailable (private mode): nothing is remembered.
  }
}
