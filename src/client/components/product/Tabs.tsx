/** Tabs (WAI-ARIA tabs pattern): arrow keys, Home and End move between tabs; all panels are in the page. */
import { useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react'

export interface TabItem {
  id: string
  label: string
  content: ReactNode
}

export function Tabs({ tabs, label }: { tabs: TabItem[]; label: string }) {
  const [active, setActive] = useState(0)
  const baseId = useId()
  const buttons = useRef<(HTMLButtonElement | null)[]>([])
  const current = Math.min(active, tabs.length - 1)

  const focusTab = (i: number) => {
    const next = (i + tabs.length) % tabs.length
    setActive(next)
    buttons.current[next]?.focus()
  }
  const onKeyDown = (e: KeyboardEvent) => {
    const keys: Record<string, number> = {
      ArrowRight: current + 1,
      ArrowLeft: current - 1,
      Home: 0,
      End: tabs.length - 1,
    }
    const target = keys[e.key]
    if (target === undefined) return
    e.preventDefault()
    focusTab(target)
  }

  return (
    <div data-testid="description-tabs">
      <div role="tablist" aria-label={label} className="tabs">
        {tabs.map((tab, i) => (
          <button
            key={tab.id}
            ref={(el) => {
              buttons.current[i] = el
            }}
            type="button"
            role="tab"
            id={`${baseId}-tab-${tab.id}`}
            aria-selected={i === current}
            aria-controls={`${baseId}-panel-${tab.id}`}
            tabIndex={i === current ? 0 : -1}
            onClick={() => setActive(i)}
            onKeyDown={onKeyDown}
            className="tab"
          >
            {tab.label}
          </button>
        ))}
      </div>
      {tabs.map((tab, i) => (
        <div
          key={tab.id}
          role="tabpanel"
          id={`${baseId}-panel-${tab.id}`}
          aria-labelledby={`${baseId}-tab-${tab.id}`}
          tabIndex={0}
          hidden={i !== current}
          className="tab-panel"
        >
          {tab.content}
        </div>
      ))}
    </div>
  )
}
