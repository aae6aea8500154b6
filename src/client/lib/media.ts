/**
 * Browser-only state read in a hydration-safe way: the server snapshot is used for SSR and for
 * the hydrating render, then React re-renders with the real browser value.
 */
import { useSyncExternalStore } from 'react'

/** Tailwind's md breakpoint: the mobile layout is anything narrower (767 px and below). */
export const MOBILE_QUERY = '(max-width: 767px)'
export const WIDE_QUERY = '(min-width: 768px)'

/** Whether a media query matches; `serverValue` until hydrated. */
export function useMediaQuery(query: string, serverValue = false): boolean {
  return useSyncExternalStore(
    (notify) => {
      const list = window.matchMedia(query)
      list.addEventListener('change', notify)
      return () => list.removeEventListener('change', notify)
    },
    () => window.matchMedia(query).matches,
    () => serverValue,
  )
}

const noopSubscribe = () => () => {}

/** False during SSR and the hydrating render, true afterwards. */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noopSubscribe,
    () => true,
    () => false,
  )
}
