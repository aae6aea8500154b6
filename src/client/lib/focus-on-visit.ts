/**
 * After a client-side visit to another page, keyboard and screen-reader users land on the new
 * page's main heading (or the main content when it has none), as they would after a full page
 * load read from the top. Visits that stay on the same path (sorting, paging through a listing,
 * basket updates) leave focus where it is, and a hash link keeps its own target.
 */
import { router } from '@inertiajs/react'
import { useEffect } from 'react'

/** The element focus moves to on a new page: the first h1 in main, else main itself. */
export function visitFocusTarget(doc: Document, mainId = 'main-content'): HTMLElement | null {
  const main = doc.getElementById(mainId)
  if (!main) return null
  return main.querySelector<HTMLElement>('h1') ?? main
}

/** `mainId`: the id of the layout's main landmark (the shop's, or the back office's `main`). */
export function useFocusOnVisit(mainId = 'main-content'): void {
  useEffect(() => {
    let path = window.location.pathname
    return router.on('navigate', () => {
      const next = window.location.pathname
      if (next === path) return
      path = next
      if (window.location.hash) return
      // After React has committed the new page.
      requestAnimationFrame(() => {
        const target = visitFocusTarget(document, mainId)
        if (!target) return
        if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1')
        target.focus({ preventScroll: true })
      })
    })
  }, [mainId])
}
