/**
 * Prop wrappers for Inertia pages (inertia.md §1.12). A wrapper tells the resolver when a prop is
 * evaluated and which metadata it announces. Wrappers are immutable: every modifier returns a copy,
 * so a wrapper defined once at module level can be reused safely across requests.
 *
 * Wrappers are recognised at the top level of the props object only; a wrapper nested deeper is
 * simply unwrapped and resolved like a plain value.
 */

/** A value computed on demand; sync or async. */
export type Lazy<T> = () => T | Promise<T>
export type MaybeLazy<T> = T | Lazy<T> | Promise<T>

export type LoadMode = 'eager' | 'optional' | 'defer' | 'always'

export interface OnceOptions {
  /** Key under which the client remembers the prop; defaults to the prop name. */
  key?: string
  /** Absolute expiry: a Date or epoch milliseconds. Wins over `expiresIn`. */
  expiresAt?: Date | number
  /** Relative expiry: milliseconds, or a string such as `'90s'`, `'15m'`, `'2h'`, `'7d'`. */
  expiresIn?: number | string
  /** Resolve the value even when the client says it already holds it. */
  fresh?: boolean
}

/** Scroll cursor reported to `<InfiniteScroll>`. */
export interface ScrollMetadata {
  currentPage: number | string | null
  nextPage: number | string | null
  previousPage: number | string | null
}

export interface ScrollOptions<T = unknown> {
  /** Key of the item array inside the paginated value; default `'data'`. */
  wrapper?: string
  /** Query parameter carrying the page number; default `'page'`. */
  pageName?: string
  /** Extracts the cursor from the resolved value; by default it is read from common paginator shapes. */
  metadata?: (value: T) => ScrollMetadata
}

export interface DeferOptions {
  group?: string
  /** If the prop throws while being loaded, omit it and list it in `rescuedProps` instead of failing. */
  rescue?: boolean
}

type RootMerge = 'append' | 'prepend' | 'default'

export interface PropConfig {
  readonly load: LoadMode
  readonly group: string
  readonly rescue: boolean
  readonly merge: null | 'shallow' | 'deep'
  readonly root: RootMerge
  readonly appendPaths: readonly string[]
  readonly prependPaths: readonly string[]
  readonly matchOn: readonly string[]
  readonly once: Readonly<OnceOptions> | null
  readonly scroll: Readonly<
    Required<Omit<ScrollOptions, 'metadata'>> & Pick<ScrollOptions, 'metadata'>
  > | null
}

const baseConfig: PropConfig = Object.freeze({
  load: 'eager',
  group: 'default',
  rescue: false,
  merge: null,
  root: 'default',
  appendPaths: [],
  prependPaths: [],
  matchOn: [],
  once: null,
  scroll: null,
})

export class InertiaProp<T = unknown> {
  readonly value: MaybeLazy<T>
  readonly config: PropConfig

  constructor(value: MaybeLazy<T>, config: Partial<PropConfig> = {}) {
    this.value = value
    this.config = Object.freeze({ ...baseConfig, ...config })
  }

  private with(changes: Partial<PropConfig>): InertiaProp<T> {
    return new InertiaProp(this.value, { ...this.config, ...changes })
  }

  /** Merge into the client's current value on partial reloads (append at the root by default). */
  merge(): InertiaProp<T> {
    return this.with({ merge: this.config.merge ?? 'shallow' })
  }

  /** Deep-merge into the client's current value on partial reloads. */
  deepMerge(): InertiaProp<T> {
    return this.with({ merge: 'deep' })
  }

  /**
   * Append new items. Without a path the prop itself is appended to; with a path (e.g. `'data'`)
   * only that nested array is. `matchOn` names the field used to replace existing items.
   */
  append(path?: string, matchOn?: string): InertiaProp<T> {
    const merge = this.config.merge ?? 'shallow'
    if (path === undefined) return this.with({ merge, root: 'append' })
    return this.with({
      merge,
      appendPaths: [...this.config.appendPaths, path],
      matchOn: matchOn === undefined ? this.config.matchOn : [...this.config.matchOn, `${path}.${matchOn}`],
    })
  }

  /** Prepend new items (to the prop itself, or to a nested array when a path is given). */
  prepend(path?: string, matchOn?: string): InertiaProp<T> {
    const merge = this.config.merge ?? 'shallow'
    if (path === undefined) return this.with({ merge, root: 'prepend' })
    return this.with({
      merge,
      prependPaths: [...this.config.prependPaths, path],
      matchOn: matchOn === undefined ? this.config.matchOn : [...this.config.matchOn, `${path}.${matchOn}`],
    })
  }

  /** Field(s), relative to the prop (or to the item array for scroll props), that identify items. */
  matchOn(...keys: string[]): InertiaProp<T> {
    return this.with({ merge: this.config.merge ?? 'shallow', matchOn: [...this.config.matchOn, ...keys] })
  }

  /** Remember on the client; skip re-sending while the client holds it. */
  once(options: OnceOptions = {}): InertiaProp<T> {
    return this.with({ once: Object.freeze({ ...options }) })
  }

  /** Load after the first render, in the given group. */
  defer(group: string | DeferOptions = 'default'): InertiaProp<T> {
    const options = typeof group === 'string' ? { group } : group
    return this.with({
      load: 'defer',
      group: options.group ?? this.config.group,
      rescue: options.rescue ?? this.config.rescue,
    })
  }

  /** With `defer`: a failure omits the prop and reports it in `rescuedProps`. */
  rescue(enabled = true): InertiaProp<T> {
    return this.with({ rescue: enabled })
  }
}

/** Never sent unless a partial reload asks for it; not evaluated otherwise. */
export function optional<T>(fn: Lazy<T>): InertiaProp<T> {
  return new InertiaProp<T>(fn, { load: 'optional' })
}

/** Sent on every response, even partial reloads that did not ask for it or excluded it. */
export function always<T>(value: MaybeLazy<T>): InertiaProp<T> {
  return new InertiaProp<T>(value, { load: 'always' })
}

/** Skipped on the first load and announced in `deferredProps[group]`; the client fetches it next. */
export function defer<T>(fn: Lazy<T>, group: string | DeferOptions = 'default'): InertiaProp<T> {
  return new InertiaProp<T>(fn).defer(group)
}

/** Appended to the client's current value on partial reloads (`mergeProps`). */
export function merge<T>(value: MaybeLazy<T>): InertiaProp<T> {
  return new InertiaProp<T>(value, { merge: 'shallow' })
}

/** Deep-merged into the client's current value on partial reloads (`deepMergeProps`). */
export function deepMerge<T>(value: MaybeLazy<T>): InertiaProp<T> {
  return new InertiaProp<T>(value, { merge: 'deep' })
}

/** Resolved once and remembered by the client (`onceProps`) until it expires. */
export function once<T>(value: MaybeLazy<T>, options: OnceOptions = {}): InertiaProp<T> {
  return new InertiaProp<T>(value).once(options)
}

/**
 * A paginated list for `<InfiniteScroll>`: announces `scrollProps[prop]` and merges
 * `<prop>.<wrapper>` (appended, or prepended when the client scrolls backwards).
 */
export function scroll<T>(value: MaybeLazy<T>, options: ScrollOptions<T> = {}): InertiaProp<T> {
  return new InertiaProp<T>(value, {
    scroll: Object.freeze({
      wrapper: options.wrapper ?? 'data',
      pageName: options.pageName ?? 'page',
      metadata: options.metadata as ScrollOptions['metadata'],
    }),
  })
}

const UNIT_MS: Record<string, number> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
}

/** Parses `expiresIn`: a number of ms, or `'<n><unit>'` with unit ms|s|m|h|d|w. */
export function durationToMs(value: number | string): number {
  if (typeof value === 'number') return value
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d|w)?\s*$/i.exec(value)
  if (!match) throw new Error(`Invalid once() expiresIn: ${JSON.stringify(value)}`)
  const unit = (match[2] ?? 'ms').toLowerCase()
  return Math.round(Number(match[1]) * (UNIT_MS[unit] ?? 1))
}

/** Epoch milliseconds at which a once prop expires, or null. */
export function onceExpiry(options: Readonly<OnceOptions>, now: number): number | null {
  if (options.expiresAt !== undefined) {
    return options.expiresAt instanceof Date ? options.expiresAt.getTime() : options.expiresAt
  }
  if (options.expiresIn !== undefined) return now + durationToMs(options.expiresIn)
  return null
}

function pick(source: Record<string, unknown>, names: string[]): unknown {
  for (const name of names) if (name in source) return source[name]
  return undefined
}

function asCursor(value: unknown): number | string | null {
  return typeof value === 'number' || typeof value === 'string' ? value : null
}

/**
 * Reads the scroll cursor from a paginated value: `{ currentPage, lastPage }` (or snake_case,
 * `page`/`totalPages`/`pageCount`), optionally nested under `meta`, or explicit
 * `nextPage`/`previousPage` fields (cursor pagination).
 */
export function scrollMetadataFrom(value: unknown): ScrollMetadata {
  if (value === null || typeof value !== 'object') {
    throw new Error('scroll() needs a paginated object value')
  }
  const record = value as Record<string, unknown>
  const meta =
    record.meta !== null && typeof record.meta === 'object'
      ? (record.meta as Record<string, unknown>)
      : record
  const current = asCursor(pick(meta, ['currentPage', 'current_page', 'page']))
  const hasNext = ['nextPage', 'next_page'].some((k) => k in meta)
  const hasPrevious = ['previousPage', 'previous_page', 'prevPage', 'prev_page'].some((k) => k in meta)
  if (hasNext || hasPrevious) {
    return {
      currentPage: current,
      nextPage: asCursor(pick(meta, ['nextPage', 'next_page'])),
      previousPage: asCursor(pick(meta, ['previousPage', 'previous_page', 'prevPage', 'prev_page'])),
    }
  }
  const last = pick(meta, ['lastPage', 'last_page', 'totalPages', 'total_pages', 'pageCount', 'page_count'])
  const first = pick(meta, ['firstPage', 'first_page'])
  if (typeof current !== 'number' || typeof last !== 'number') {
    throw new Error(
      'scroll() could not find currentPage/lastPage (or nextPage/previousPage) in the value; pass options.metadata',
    )
  }
  const firstPage = typeof first === 'number' ? first : 1
  return {
    currentPage: current,
    nextPage: current < last ? current + 1 : null,
    previousPage: current > firstPage ? current - 1 : null,
  }
}
