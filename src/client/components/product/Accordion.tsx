/**
 * A disclosure section (spec §4 "Accordion"): the header button toggles it; a touch tap shorter
 * than 300 ms toggles it at once (and the click that follows is ignored); it can be forced open on
 * desktop (wider than 767 px).
 */
import { useId, useRef, useState, type ReactNode } from 'react'
import { WIDE_QUERY, useMediaQuery } from '../../lib/media.ts'

export const TAP_MAX_MS = 300
/** After a touch, the browser's own click is ignored for this long. */
const GHOST_CLICK_MS = 600

export function Accordion({
  title,
  children,
  defaultOpen = false,
  forceOpenOnDesktop = false,
  headingLevel = 3,
  id,
}: {
  title: ReactNode
  children: ReactNode
  defaultOpen?: boolean
  forceOpenOnDesktop?: boolean
  headingLevel?: 2 | 3 | 4
  id?: string
}) {
  const autoId = useId()
  const baseId = id ?? autoId
  const [open, setOpen] = useState(defaultOpen)
  const desktop = useMediaQuery(WIDE_QUERY)
  const forced = forceOpenOnDesktop && desktop
  const expanded = forced || open
  const touchStartedAt = useRef<number | null>(null)
  const ignoreClicksUntil = useRef(0)
  const Heading = headingLevel === 2 ? 'h2' : headingLevel === 4 ? 'h4' : 'h3'

  const toggle = () => {
    if (!forced) setOpen((o) => !o)
  }

  return (
    <div className="border-b border-gray-200" data-testid="accordion" data-open={expanded}>
      <Heading className="m-0">
        <button
          type="button"
          id={`${baseId}-button`}
          aria-expanded={expanded}
          aria-controls={`${baseId}-panel`}
          aria-disabled={forced || undefined}
          className="flex w-full items-center justify-between gap-3 py-3 text-left font-semibold"
          onTouchStart={(e) => {
            touchStartedAt.current = e.timeStamp
          }}
          onTouchMove={() => {
            touchStartedAt.current = null
          }}
          onTouchEnd={(e) => {
            const started = touchStartedAt.current
            touchStartedAt.current = null
            ignoreClicksUntil.current = e.timeStamp + GHOST_CLICK_MS
            if (started !== null && e.timeStamp - started < TAP_MAX_MS) {
              e.preventDefault()
              toggle()
            }
          }}
          onClick={(e) => {
            if (e.timeStamp < ignoreClicksUntil.current) return
            toggle()
          }}
        >
          <span>{title}</span>
          <span aria-hidden="true" className={`transition-transform ${expanded ? 'rotate-180' : ''}`}>
            ▾
          </span>
        </button>
      </Heading>
      <div
        id={`${baseId}-panel`}
        role="region"
        aria-labelledby={`${baseId}-button`}
        hidden={!expanded}
        className="pb-4"
      >
        {children}
      </div>
    </div>
  )
}
