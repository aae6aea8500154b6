/**
 * The header search box (spec §2 "Search box and /search", §4, §5, §9): an ARIA combobox with a
 * dropdown of suggestions, then categories, then a products carousel.
 *
 * - Only typed text starts a search; empty or whitespace input sends nothing. Requests are
 *   debounced and an answer older than the one shown is dropped.
 * - Opens when there are results and a non-empty term; closes on click away, on clearing, after
 *   submit, on Escape, and 1 s after the input becomes empty. A term that finds nothing opens a
 *   line saying so instead (`noMatchesText`, a status message; the listbox stays collapsed).
 * - Up and down move the highlight over suggestions, then categories, then products; -1 = none.
 * - Enter goes to the highlighted item (a suggestion searches for it), else to the redirect url
 *   of a matching rule, else to /search?q={term}.
 */
import { router, usePage } from '@inertiajs/react'
import {
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
} from 'react'
import {
  CAROUSEL_ITEMS,
  CATEGORY_FILTER,
  DROPDOWN_HITS,
  DROPDOWN_IMAGE_SIZE,
  DROPDOWN_PRODUCT_FILTER,
  EMPTY_CLOSE_DELAY_MS,
  PRODUCTS_INDEX,
  SEARCH_DEBOUNCE_MS,
  SUGGESTIONS_INDEX,
  titleCase,
  type SearchHit,
  type SearchQuery,
  type SearchResult,
  type SearchSettingsProps,
  type SuggestionHit,
} from '../../../shared/search.ts'
import { Price } from '../Price.tsx'
import { Highlight } from './Highlight.tsx'
import { recordClick, searchClient, userToken } from './client.ts'

interface Sections {
  query: string
  suggestions: SuggestionHit[]
  categories: SearchHit[]
  products: SearchHit[]
  categoriesQueryID: string | null
  productsQueryID: string | null
  redirect: string | null
}

type Item =
  | { kind: 'suggestion'; hit: SuggestionHit; position: number }
  | { kind: 'category'; hit: SearchHit; position: number }
  | { kind: 'product'; hit: SearchHit; position: number }

const EMPTY: Sections = {
  query: '',
  suggestions: [],
  categories: [],
  products: [],
  categoriesQueryID: null,
  productsQueryID: null,
  redirect: null,
}

const DEFAULT_SETTINGS: SearchSettingsProps = { suggestions: true, clickAnalytics: true, bestSellers: true }

/** Goes to a path with an Inertia visit, or to another site with a full load. */
export function go(url: string) {
  if (url.startsWith('/') && !url.startsWith('//')) router.visit(url)
  else window.location.assign(url)
}

/** The dropdown's line when a typed search finds no suggestion, category or product. */
export function noMatchesText(query: string): string {
  return `No products or categories match “${query}”.`
}

export function searchUrl(term: string): string {
  return `/search?q=${encodeURIComponent(term)}`
}

export function SearchBox({
  label = 'Search products',
  autoFocus = false,
  onDone,
  className = '',
}: {
  label?: string
  autoFocus?: boolean
  /** Called after the box sent the visitor somewhere (closes the mobile panel) */
  onDone?: () => void
  className?: string
}) {
  const page = usePage()
  const props = page.props as { search?: SearchSettingsProps; query?: unknown }
  const settings = props.search ?? DEFAULT_SETTINGS
  const initial = page.component === 'Search' && typeof props.query === 'string' ? props.query : ''
  const [term, setTerm] = useState(initial)
  const [sections, setSections] = useState<Sections>(EMPTY)
  const [open, setOpen] = useState(false)
  const [active, setActive] = useState(-1)
  const [carouselStart, setCarouselStart] = useState(0)
  const rootRef = useRef<HTMLDivElement>(null)
  const inputRef = useRef<HTMLInputElement>(null)
  const termRef = useRef(term)
  const sent = useRef(0)
  const shown = useRef(0)
  const debounce = useRef<ReturnType<typeof setTimeout> | null>(null)
  const closeTimer = useRef<ReturnType<typeof setTimeout> | null>(null)
  const inflight = useRef<AbortController | null>(null)
  const id = useId()
  const listboxId = `${id}-listbox`
  const optionId = (i: number) => `${id}-option-${i}`
  // The autofocus attribute works only while a document loads; the mobile panel mounts the box
  // later, so it is focused here (a layout effect: before the next key press can arrive).
  useLayoutEffect(() => {
    if (autoFocus) inputRef.current?.focus()
  }, [autoFocus])

  const items: Item[] = useMemo(
    () => [
      ...sections.suggestions.map((hit, i) => ({ kind: 'suggestion' as const, hit, position: i + 1 })),
      ...sections.categories.map((hit, i) => ({ kind: 'category' as const, hit, position: i + 1 })),
      ...sections.products.map((hit, i) => ({ kind: 'product' as const, hit, position: i + 1 })),
    ],
    [sections],
  )
  const productOffset = sections.suggestions.length + sections.categories.length

  // A new page (after a visit) shows its own query and closes the dropdown.
  const [seenUrl, setSeenUrl] = useState(page.url)
  if (seenUrl !== page.url) {
    setSeenUrl(page.url)
    setTerm(initial)
    setOpen(false)
    setActive(-1)
  }
  useEffect(() => {
    termRef.current = term
  }, [term])

  const clearTimers = () => {
    if (debounce.current) clearTimeout(debounce.current)
    if (closeTimer.current) clearTimeout(closeTimer.current)
    debounce.current = null
    closeTimer.current = null
  }

  const close = useCallback(() => {
    setOpen(false)
    setActive(-1)
  }, [])

  useEffect(
    () => () => {
      clearTimers()
      inflight.current?.abort()
    },
    [],
  )

  // Click away closes.
  useEffect(() => {
    if (!open) return
    const onDown = (e: MouseEvent | TouchEvent) => {
      if (rootRef.current && !rootRef.current.contains(e.target as Node)) close()
    }
    document.addEventListener('mousedown', onDown)
    document.addEventListener('touchstart', onDown)
    return () => {
      document.removeEventListener('mousedown', onDown)
      document.removeEventListener('touchstart', onDown)
    }
  }, [open, close])

  const run = useCallback(
    async (query: string) => {
      const seq = ++sent.current
      inflight.current?.abort()
      const controller = new AbortController()
      inflight.current = controller
      const hits = settings.suggestions ? DROPDOWN_HITS.withSuggestions : DROPDOWN_HITS.withoutSuggestions
      const analytics = settings.clickAnalytics
      const common = analytics ? { clickAnalytics: true, userToken: userToken() } : {}
      const requests: SearchQuery[] = [
        ...(settings.suggestions
          ? [{ indexName: SUGGESTIONS_INDEX, query, hitsPerPage: hits.suggestions }]
          : []),
        {
          indexName: PRODUCTS_INDEX,
          query,
          filters: CATEGORY_FILTER,
          hitsPerPage: hits.categories,
          ...common,
        },
        {
          indexName: PRODUCTS_INDEX,
          query,
          filters: DROPDOWN_PRODUCT_FILTER,
          hitsPerPage: hits.products,
          ...common,
        },
      ]
      try {
        const { results } = await searchClient.search({ requests }, controller.signal)
        // Drop an answer older than the one shown, or one for a box emptied meanwhile.
        if (seq <= shown.current || !termRef.current.trim()) return
        shown.current = seq
        const offset = settings.suggestions ? 1 : 0
        const suggestions = settings.suggestions ? ((results[0]?.hits ?? []) as SuggestionHit[]) : []
        const categories = results[offset] as SearchResult<SearchHit> | undefined
        const products = results[offset + 1] as SearchResult<SearchHit> | undefined
        const next: Sections = {
          query,
          suggestions,
          categories: categories?.hits ?? [],
          products: products?.hits ?? [],
          categoriesQueryID: categories?.queryID ?? null,
          productsQueryID: products?.queryID ?? null,
          redirect: products?.renderingContent?.redirect?.url ?? null,
        }
        setSections(next)
        setActive(-1)
        setCarouselStart(0)
        // Nothing found still opens the dropdown, to say so (its listbox stays empty and collapsed).
        setOpen(true)
      } catch {
        // Aborted or failed: the box keeps working; submitting still goes to /search.
      }
    },
    [settings.suggestions, settings.clickAnalytics],
  )

  const onType = (value: string) => {
    setTerm(value)
    termRef.current = value
    setActive(-1)
    clearTimers()
    if (!value.trim()) {
      inflight.current?.abort()
      closeTimer.current = setTimeout(close, EMPTY_CLOSE_DELAY_MS)
      return
    }
    debounce.current = setTimeout(() => void run(value.trim()), SEARCH_DEBOUNCE_MS)
  }

  const finish = (url: string) => {
    clearTimers()
    inflight.current?.abort()
    close()
    inputRef.current?.blur()
    onDone?.()
    go(url)
  }

  const select = (item: Item) => {
    if (item.kind === 'suggestion') {
      setTerm(item.hit.query)
      termRef.current = item.hit.query
      finish(searchUrl(item.hit.query))
      return
    }
    const queryID = item.kind === 'category' ? sections.categoriesQueryID : sections.productsQueryID
    if (queryID) {
      recordClick({
        queryID,
        objectID: item.hit.objectID,
        index: item.position,
        indexName: PRODUCTS_INDEX,
        analytics: settings.clickAnalytics,
      })
    }
    finish(item.hit.url || '/')
  }

  const submit = () => {
    const q = term.trim()
    if (!q) return
    const current = active >= 0 ? items[active] : undefined
    if (open && current) {
      select(current)
      return
    }
    finish(sections.redirect && sections.query === q ? sections.redirect : searchUrl(q))
  }

  const moveTo = (index: number) => {
    setActive(index)
    const productIndex = index - productOffset
    if (index >= productOffset && productIndex >= 0) {
      setCarouselStart((start) => {
        if (productIndex < start) return productIndex
        if (productIndex >= start + CAROUSEL_ITEMS) return productIndex - CAROUSEL_ITEMS + 1
        return start
      })
    }
  }

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    const n = items.length
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      if (n === 0 || !term.trim()) return
      e.preventDefault()
      if (!open) {
        setOpen(true)
        return
      }
      if (e.key === 'ArrowDown') moveTo(active + 1 >= n ? -1 : active + 1)
      else moveTo(active <= -1 ? n - 1 : active - 1)
    } else if (e.key === 'Escape') {
      if (open) {
        e.preventDefault()
        close()
      }
    }
  }

  const products = sections.products
  const visible = Math.min(CAROUSEL_ITEMS, products.length)
  const maxStart = Math.max(0, products.length - visible)
  const start = Math.min(carouselStart, maxStart)
  const expanded = open && items.length > 0
  const noMatches = open && items.length === 0 && sections.query !== '' && term.trim() !== ''

  const groupLabel = (key: string) => `${id}-${key}-label`
  const renderOption = (item: Item, index: number, body: React.ReactNode, extra = '') => (
    <li
      key={`${item.kind}-${item.hit.objectID}`}
      id={optionId(index)}
      role="option"
      aria-selected={active === index}
      data-kind={item.kind}
      onMouseDown={(e) => e.preventDefault()}
      onClick={() => select(item)}
      onMouseMove={() => active !== index && setActive(index)}
      className={`srch-opt ${active === index ? 'bg-primary/10 outline-2 outline-primary' : 'hover:bg-gray-100'}${extra ? ` ${extra}` : ''}`}
    >
      {body}
    </li>
  )

  return (
    <div ref={rootRef} className={className ? `srch ${className}` : 'srch'} data-testid="search-box">
      <form
        role="search"
        action="/search"
        method="get"
        onSubmit={(e) => {
          e.preventDefault()
          submit()
        }}
        className="srch-form"
      >
        <input
          ref={inputRef}
          // A combobox is a text input: the HTML checker refuses role="combobox" on type="search"
          // (enterKeyHint and the form's role="search" keep the search keyboard and landmark).
          type="text"
          name="q"
          role="combobox"
          aria-label={label}
          aria-autocomplete="list"
          aria-expanded={expanded}
          aria-controls={listboxId}
          aria-activedescendant={expanded && active >= 0 ? optionId(active) : undefined}
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
          enterKeyHint="search"
          placeholder="Search products"
          maxLength={512}
          autoFocus={autoFocus}
          value={term}
          onChange={(e) => onType(e.target.value)}
          onKeyDown={onKeyDown}
          className="srch-input"
        />
        {term ? (
          <button
            type="button"
            aria-label="Clear search"
            onClick={() => {
              clearTimers()
              inflight.current?.abort()
              setTerm('')
              termRef.current = ''
              close()
              inputRef.current?.focus()
            }}
            className="srch-clear"
          >
            ×
          </button>
        ) : null}
        <button type="submit" className="srch-submit">
          Search
        </button>
      </form>

      {/* A live region (not role=status, which the page's own messages use) that screen readers read out. */}
      <p
        aria-live="polite"
        aria-atomic="true"
        data-testid="search-no-matches"
        className={noMatches ? 'srch-none' : 'sr-only'}
      >
        {noMatches ? noMatchesText(sections.query) : ''}
      </p>
      <div hidden={!expanded} data-testid="search-dropdown" className="focus-on-page srch-drop">
        <ul id={listboxId} role="listbox" aria-label="Search results" className="space-y-2">
          {sections.suggestions.length > 0 && (
            <li role="presentation">
              <p id={groupLabel('suggestions')} className="srch-group">
                Suggestions
              </p>
              <ul role="group" aria-labelledby={groupLabel('suggestions')}>
                {items
                  .slice(0, sections.suggestions.length)
                  .map((item, i) =>
                    renderOption(
                      item,
                      i,
                      <Highlight
                        result={(item.hit as SuggestionHit)._highlightResult?.query}
                        fallback={titleCase((item.hit as SuggestionHit).query)}
                      />,
                    ),
                  )}
              </ul>
            </li>
          )}
          {sections.categories.length > 0 && (
            <li role="presentation">
              <p id={groupLabel('categories')} className="srch-group">
                Categories
              </p>
              <ul role="group" aria-labelledby={groupLabel('categories')}>
                {items.slice(sections.suggestions.length, productOffset).map((item, i) => {
                  const hit = item.hit as SearchHit
                  return renderOption(
                    item,
                    sections.suggestions.length + i,
                    <>
                      <Highlight result={hit._highlightResult?.name} fallback={hit.name} />
                      {hit.category_name ? (
                        <span className="ml-2 text-sm text-gray-600">in {hit.category_name}</span>
                      ) : null}
                    </>,
                  )
                })}
              </ul>
            </li>
          )}
          {products.length > 0 && (
            <li role="presentation">
              <p id={groupLabel('products')} className="srch-group">
                Products
              </p>
              <ul
                role="group"
                aria-labelledby={groupLabel('products')}
                data-testid="search-carousel"
                data-visible={visible}
                className={`grid gap-2 ${visible === 1 ? 'grid-cols-1' : visible === 2 ? 'grid-cols-2' : 'grid-cols-3'}`}
              >
                {items.slice(productOffset).map((item, i) => {
                  const hit = item.hit as SearchHit
                  const shownNow = i >= start && i < start + visible
                  return renderOption(
                    item,
                    productOffset + i,
                    <div className="flex flex-col items-center text-center">
                      <img
                        src={hit.image || '/placeholder.svg'}
                        alt=""
                        width={DROPDOWN_IMAGE_SIZE}
                        height={DROPDOWN_IMAGE_SIZE}
                        loading="lazy"
                        className="size-[98px] object-contain"
                      />
                      <span className="mt-1 line-clamp-2 text-sm">
                        <Highlight result={hit._highlightResult?.name} fallback={hit.name} />
                      </span>
                      {hit.price_ex_tax > 0 ? (
                        <Price amount={hit.price_ex_tax} className="text-sm font-semibold" />
                      ) : null}
                    </div>,
                    shownNow ? '' : 'hidden',
                  )
                })}
              </ul>
            </li>
          )}
        </ul>
        {products.length > visible ? (
          <div className="mt-1 flex justify-end gap-2" aria-hidden="true">
            <button
              type="button"
              tabIndex={-1}
              disabled={start === 0}
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => setCarouselStart(Math.max(0, start - 1))}
              className="rounded border border-gray-300 px-2 disabled:opacity-40"
            >
              ‹
            </button>
            <button
              type="button"
              tabIndex={-1}
              disabled={start >= maxStart}
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => setCarouselStart(Math.min(maxStart, start + 1))}
              className="rounded border border-gray-300 px-2 disabled:opacity-40"
            >
              ›
            </button>
          </div>
        ) : null}
      </div>
    </div>
  )
}
