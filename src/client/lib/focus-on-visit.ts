/**
 * After a client-side visit to another page, keyboard and screen-reader users land on the new
 * page's main heading (or the main content when it has none), as they would after a full page
 * load read from the top. Visits that stay on the same path (sorting, paging through a listing,
 * basket updates) leave focus where it is, and a hash link keeps its own target.
 */
import { router } from '@inertiajs/react'
import { useEffect } from 'react'

/** The element focus moves to on a new page: the first h1 in main, else main itself. */
export function visitFocusTarget(doc: Document): HTMLElement | null {
  const main = doc.getElementById('main-content')
  if (!main) return null
  return main.querySelector<HTMLElement>('h1') ?? main
}

export function useFocusOnVisit(): void {
  useEffect(() => {
    let path = window.location.pathname
    return router.on('navigate', () => {
      const next = window.location.pathname
      if (next === path) return
      path = next
      if (window.location.hash) return
      // After React has committed the new page.
      requestAnimationFrame(() => {
        const target = visitFocusTarget(document)
        if (!target) return
        if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1')
        target.focus({ preventScroll: true })
      })
    })
  }, [])
}
