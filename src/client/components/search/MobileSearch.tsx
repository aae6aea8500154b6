/**
 * The mobile search panel (screens under 768 px): a search button in the header that opens a
 * full-width panel under it with the search box. Escape or the button closes it; so does going
 * somewhere from the box.
 */
import { useEffect, useId, useRef, useState } from 'react'
import { SearchBox } from './SearchBox.tsx'

export function MobileSearch() {
  const [open, setOpen] = useState(false)
  const panelId = useId()
  const toggleRef = useRef<HTMLButtonElement>(null)

  useEffect(() => {
    if (!open) return
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && !e.defaultPrevented) {
        setOpen(false)
        toggleRef.current?.focus()
      }
    }
    const mq = window.matchMedia('(min-width: 768px)')
    const onWide = () => mq.matches && setOpen(false)
    document.addEventListener('keydown', onKey)
    mq.addEventListener('change', onWide)
    return () => {
      document.removeEventListener('keydown', onKey)
      mq.removeEventListener('change', onWide)
    }
  }, [open])

  return (
    <div className="md:hidden">
      <button
        ref={toggleRef}
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((v) => !v)}
        className="msrch-btn"
      >
        <svg
          aria-hidden="true"
          viewBox="0 0 24 24"
          className="size-6"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
        >
          <circle cx="11" cy="11" r="7" />
          <path d="m20 20-3.5-3.5" strokeLinecap="round" />
        </svg>
        <span className="sr-only">{open ? 'Close search' : 'Open search'}</span>
      </button>
      <div
        id={panelId}
        hidden={!open}
        data-testid="mobile-search-panel"
        className="focus-on-header msrch-panel"
      >
        {open ? <SearchBox autoFocus onDone={() => setOpen(false)} /> : null}
      </div>
    </div>
  )
}
