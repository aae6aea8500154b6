/**
 * Address search (§5, §7): starts after more than one character, at most once a second, each new
 * search cancelling the one under way. The arrow keys move from the search box through the
 * matches (Escape goes back to the box); picking one fills the address fields and hands the
 * focus to the first of them, so it never drops to the page.
 */
import { useEffect, useId, useRef, useState } from 'react'
import { CHECKOUT } from '../../shared/checkout.ts'
import { addressSearchStarts } from '../../shared/checkout-rules.ts'
import type { Values } from './fields.tsx'

interface Match {
  id: string
  label: string
  address: Values
}

export function AddressSearch({
  url,
  onPick,
  idPrefix,
}: {
  url: string
  onPick: (a: Values) => void
  idPrefix: string
}) {
  const id = useId()
  const [query, setQuery] = useState('')
  const [state, setState] = useState<'idle' | 'searching' | 'done'>('idle')
  const [matches, setMatches] = useState<Match[]>([])
  const last = useRef(0)
  const controller = useRef<AbortController | null>(null)
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null)
  const list = useRef<HTMLUListElement>(null)
  const input = useRef<HTMLInputElement>(null)

  useEffect(() => {
    if (timer.current) clearTimeout(timer.current)
    if (!addressSearchStarts(query)) {
      // Too short to search: cancel the one under way; the list is hidden below.
      controller.current?.abort()
      return
    }
    const wait = Math.max(0, last.current + CHECKOUT.addressSearchThrottleMs - Date.now())
    timer.current = setTimeout(() => {
      controller.current?.abort()
      const c = new AbortController()
      controller.current = c
      last.current = Date.now()
      setState('searching')
      fetch(`${url}?${new URLSearchParams({ searchInput: query })}`, {
        signal: c.signal,
        headers: { accept: 'application/json' },
        credentials: 'same-origin',
      })
        .then((r) => r.json() as Promise<{ matches: Match[] }>)
        .then((body) => {
          setMatches(body.matches ?? [])
          setState('done')
        })
        .catch((err: unknown) => {
          if ((err as { name?: string }).name !== 'AbortError') setState('done')
        })
    }, wait)
    return () => {
      if (timer.current) clearTimeout(timer.current)
    }
  }, [query, url])

  const active = addressSearchStarts(query)
  const options = () => Array.from(list.current?.querySelectorAll('button') ?? [])
  /** Arrow keys: from the box to the first (or last) match, then through the matches. */
  const onKeyDown = (e: React.KeyboardEvent) => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp' && e.key !== 'Escape') return
    const buttons = options()
    const at = buttons.indexOf(document.activeElement as HTMLButtonElement)
    if (e.key === 'Escape') {
      if (at >= 0) {
        e.preventDefault()
        input.current?.focus()
      }
      return
    }
    if (!buttons.length) return
    e.preventDefault()
    const step = e.key === 'ArrowDown' ? 1 : -1
    const next =
      at < 0 ? (step === 1 ? 0 : buttons.length - 1) : (at + step + buttons.length) % buttons.length
    buttons[next]?.focus()
  }

  const pick = (m: Match) => {
    onPick(m.address)
    setQuery('')
    setMatches([])
    setState('idle')
    // The filled fields render with the pick: the first one takes the focus after it.
    setTimeout(() => document.getElementById(`${idPrefix}-address1`)?.focus(), 0)
  }

  return (
    <div className="mt-3" data-testid={`address-search-${idPrefix}`} onKeyDown={onKeyDown}>
      <label htmlFor={id} className="block text-sm font-medium text-gray-800">
        Search for your address
      </label>
      <input
        ref={input}
        id={id}
        type="search"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        className="mt-1 block w-full rounded-md border border-gray-300 px-3 py-2 shadow-sm"
        autoComplete="off"
        aria-describedby={`${id}-status`}
        aria-controls={active && matches.length > 0 ? `${id}-matches` : undefined}
      />
      <p id={`${id}-status`} role="status" className="mt-1 text-sm text-gray-700">
        {!active
          ? ''
          : state === 'searching'
            ? 'Searching...'
            : state === 'done' && matches.length === 0
              ? 'No results found'
              : state === 'done'
                ? `${matches.length} found: use the arrow keys to choose one.`
                : ''}
      </p>
      {active && matches.length > 0 ? (
        <ul ref={list} id={`${id}-matches`} className="mt-1 divide-y rounded border border-gray-200">
          {matches.map((m) => (
            <li key={m.id}>
              <button
                type="button"
                className="w-full px-3 py-2 text-left hover:bg-gray-100 focus:bg-gray-100"
                onClick={() => pick(m)}
              >
                {m.label}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  )
}
