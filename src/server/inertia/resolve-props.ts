/**
 * The pure props resolver (inertia.md §1.11–1.13): decides which props a response carries,
 * evaluates the selected lazy values concurrently and collects the page metadata.
 * No Fastify, no session, no clock: everything comes in through the arguments.
 */
import { InertiaProp, onceExpiry, scrollMetadataFrom, type ScrollMetadata } from './props.ts'
import type { InertiaRequestInfo } from './request-info.ts'

export type PropsRequestInfo = Pick<
  InertiaRequestInfo,
  'isInertia' | 'partialComponent' | 'only' | 'except' | 'reset' | 'exceptOnceProps' | 'mergeIntent'
>

export interface ScrollPropMetadata extends ScrollMetadata {
  pageName: string
  reset: boolean
}

export interface OncePropMetadata {
  prop: string
  expiresAt: number | null
}

/** Page metadata produced by the resolver; empty fields are left out. */
export interface PropsMetadata {
  sharedProps?: string[]
  mergeProps?: string[]
  prependProps?: string[]
  deepMergeProps?: string[]
  matchPropsOn?: string[]
  deferredProps?: Record<string, string[]>
  rescuedProps?: string[]
  scrollProps?: Record<string, ScrollPropMetadata>
  onceProps?: Record<string, OncePropMetadata>
}

export interface ResolveOptions {
  /** List shared top-level keys in `sharedProps` (default true). */
  exposeSharedPropKeys?: boolean
  /** Called when a rescuable deferred prop throws; the prop is then omitted. */
  onRescue?: (path: string, error: unknown) => void
  /**
   * When given, a shared prop (not overridden by the page) that throws is omitted and reported here
   * instead of failing the response. Used for error pages.
   */
  onSharedError?: (path: string, error: unknown) => void
}

export interface ResolvedProps {
  props: Record<string, unknown> & { errors: unknown }
  metadata: PropsMetadata
}

/** Narrowing of a value by dot paths from `only` / `except`; null = take everything. */
interface Selection {
  only: string[] | null
  except: string[]
}

const WHOLE: Selection = { only: null, except: [] }

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false
  const proto = Object.getPrototypeOf(value) as unknown
  return proto === Object.prototype || proto === null
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    value !== null &&
    (typeof value === 'object' || typeof value === 'function') &&
    typeof (value as { then?: unknown }).then === 'function'
  )
}

/** Turns `{ 'auth.user': x }` into `{ auth: { user: x } }`, merging with plain objects already there. */
export function expandDotKeys(source: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(source)) {
    if (!key.includes('.')) {
      out[key] = value
      continue
    }
    const parts = key.split('.')
    let target = out
    for (const part of parts.slice(0, -1)) {
      const existing = target[part]
      const next: Record<string, unknown> = isPlainObject(existing) ? { ...existing } : {}
      target[part] = next
      target = next
    }
    target[parts[parts.length - 1] as string] = value
  }
  return out
}

/** The part of a list of dot paths that lies below `key`, with the prefix stripped. */
function below(paths: readonly string[], key: string): string[] {
  const prefix = `${key}.`
  return paths.filter((p) => p.startsWith(prefix)).map((p) => p.slice(prefix.length))
}

/** Whether `key` is selected by `only` (bidirectional prefix, §1.13) and not removed by `except`. */
function selects(
  selection: { only: readonly string[] | null; except: readonly string[] },
  key: string,
): boolean {
  const { only, except } = selection
  if (only !== null && !only.some((o) => o === key || o.startsWith(`${key}.`) || key.startsWith(`${o}.`))) {
    return false
  }
  return !except.some((e) => e === key || key.startsWith(`${e}.`))
}

/** The narrowing to apply inside the value of a selected `key`. */
function narrow(
  selection: { only: readonly string[] | null; except: readonly string[] },
  key: string,
): Selection {
  const only = selection.only === null || selection.only.includes(key) ? null : below(selection.only, key)
  const except = below(selection.except, key)
  return only === null && except.length === 0 ? WHOLE : { only, except }
}

/**
 * Resolves a value fully: calls functions, awaits promises, unwraps nested prop wrappers and
 * recurses into plain objects and arrays. Plain objects are narrowed by the selection before their
 * members are evaluated, so unselected nested lazies never run.
 *
 * Synchronous wherever the value is: a promise is made only where a promise (or a function
 * returning one) was met, so a page of plain data (most props: the basket, the menus) is copied in
 * one pass instead of awaiting every member of every object (issue 18: this walk was the largest
 * single cost of the Cart page's JSON). Functions are called in the same order either way.
 */
function deepResolve(value: unknown, selection: Selection): unknown {
  let current = value
  // Unwrap lazies and wrappers until a concrete value or a promise remains.
  for (;;) {
    if (current instanceof InertiaProp) current = current.value
    else if (typeof current === 'function') current = (current as () => unknown)()
    else break
  }
  if (isThenable(current)) return Promise.resolve(current).then((settled) => deepResolve(settled, selection))
  if (Array.isArray(current)) {
    const items = current.map((item) => deepResolve(item, WHOLE))
    return items.some(isThenable) ? Promise.all(items) : items
  }
  // Class instances and objects with toJSON are left to JSON.stringify.
  if (!isPlainObject(current) || typeof current.toJSON === 'function') return current
  const object = current
  const keys = Object.keys(object).filter((key) => selection === WHOLE || selects(selection, key))
  const values = keys.map((key) =>
    deepResolve(object[key], selection === WHOLE ? WHOLE : narrow(selection, key)),
  )
  const assemble = (settled: readonly unknown[]): Record<string, unknown> => {
    const out: Record<string, unknown> = {}
    keys.forEach((key, i) => {
      if (settled[i] !== undefined) out[key] = settled[i]
    })
    return out
  }
  return values.some(isThenable) ? Promise.all(values).then(assemble) : assemble(values)
}

function push<K extends string>(bucket: Partial<Record<K, string[]>>, name: K, value: string): void {
  const list = bucket[name] ?? (bucket[name] = [])
  if (!list.includes(value)) list.push(value)
}

/**
 * Resolves shared and page props for one response.
 *
 * @param shared  shared props (already collected for this request); page props override them
 * @param props   the page's own props
 * @param info    the parsed request headers
 * @param component  the component being rendered
 * @param now     epoch ms, for once-prop expiry
 */
export async function resolveProps(
  shared: Record<string, unknown>,
  props: Record<string, unknown>,
  info: PropsRequestInfo,
  component: string,
  now: number,
  options: ResolveOptions = {},
): Promise<ResolvedProps> {
  const sharedExpanded = expandDotKeys(shared)
  const pageExpanded = expandDotKeys(props)
  const all: Record<string, unknown> = { ...sharedExpanded, ...pageExpanded }
  if (!('errors' in all)) all.errors = {}

  const partial = info.isInertia && info.partialComponent !== null && info.partialComponent === component
  const selection = { only: info.only, except: info.except ?? [] }
  const reset = new Set(info.reset)
  const exceptOnce = new Set(info.exceptOnceProps)

  const labels: Partial<Record<'mergeProps' | 'prependProps' | 'deepMergeProps' | 'matchPropsOn', string[]>> =
    {}
  const deferred: Record<string, string[]> = {}
  const onceProps: Record<string, OncePropMetadata> = {}
  const scrollProps: Record<string, ScrollPropMetadata> = {}
  const rescued: string[] = []

  /** Merge labels; a prop named in X-Inertia-Reset keeps its value but loses its labels. */
  const label = (key: string, prop: InertiaProp): void => {
    const cfg = prop.config
    if (reset.has(key)) return
    if (cfg.scroll) {
      const path = `${key}.${cfg.scroll.wrapper}`
      push(labels, info.mergeIntent === 'prepend' ? 'prependProps' : 'mergeProps', path)
      for (const m of cfg.matchOn) push(labels, 'matchPropsOn', `${path}.${m}`)
      return
    }
    if (cfg.merge === null) return
    if (cfg.merge === 'deep') {
      push(labels, 'deepMergeProps', key)
    } else {
      const nested = cfg.appendPaths.length > 0 || cfg.prependPaths.length > 0
      if (cfg.root === 'prepend') push(labels, 'prependProps', key)
      else if (cfg.root === 'append' || !nested) push(labels, 'mergeProps', key)
      for (const p of cfg.appendPaths) push(labels, 'mergeProps', `${key}.${p}`)
      for (const p of cfg.prependPaths) push(labels, 'prependProps', `${key}.${p}`)
    }
    for (const m of cfg.matchOn) push(labels, 'matchPropsOn', `${key}.${m}`)
  }

  const announceOnce = (key: string, prop: InertiaProp): void => {
    const once = prop.config.once
    if (!once) return
    onceProps[once.key ?? key] = { prop: key, expiresAt: onceExpiry(once, now) }
  }

  interface Task {
    key: string
    prop: InertiaProp | null
    selection: Selection
    shared: boolean
  }
  const tasks: Task[] = []

  for (const [key, value] of Object.entries(all)) {
    const prop = value instanceof InertiaProp ? value : null
    const load = key === 'errors' ? 'always' : (prop?.config.load ?? 'eager')
    const fromShared = key in sharedExpanded && !(key in pageExpanded)
    const task: Task = { key, prop, selection: WHOLE, shared: fromShared }

    if (!partial) {
      if (load === 'optional') continue
      const once = prop?.config.once
      const held = once != null && !once.fresh && info.isInertia && exceptOnce.has(once.key ?? key)
      if (held) {
        // The client already has it: keep the once metadata, skip the value (and any deferral).
        announceOnce(key, prop as InertiaProp)
        continue
      }
      if (load === 'defer') {
        ;(deferred[(prop as InertiaProp).config.group] ??= []).push(key)
        label(key, prop as InertiaProp)
        announceOnce(key, prop as InertiaProp)
        continue
      }
      tasks.push(task)
      continue
    }

    if (load === 'always') {
      tasks.push(task)
      continue
    }
    if (!selects(selection, key)) continue
    task.selection = narrow(selection, key)
    tasks.push(task)
  }

  const results = await Promise.all(
    tasks.map(async (task): Promise<{ ok: true; value: unknown } | { ok: false }> => {
      try {
        return { ok: true, value: await deepResolve(task.prop ?? all[task.key], task.selection) }
      } catch (error) {
        if (task.prop?.config.load === 'defer' && task.prop.config.rescue) {
          options.onRescue?.(task.key, error)
          rescued.push(task.key)
          return { ok: false }
        }
        if (task.shared && options.onSharedError) {
          options.onSharedError(task.key, error)
          return { ok: false }
        }
        throw error
      }
    }),
  )

  const resolved: Record<string, unknown> = {}
  tasks.forEach((task, i) => {
    const result = results[i] as { ok: true; value: unknown } | { ok: false }
    const prop = task.prop
    if (result.ok) resolved[task.key] = result.value
    if (!prop) return
    if (result.ok || prop.config.rescue) label(task.key, prop)
    announceOnce(task.key, prop)
    if (result.ok && prop.config.scroll) {
      const cfg = prop.config.scroll
      const cursor = cfg.metadata ? cfg.metadata(result.value) : scrollMetadataFrom(result.value)
      scrollProps[task.key] = {
        pageName: cfg.pageName,
        previousPage: cursor.previousPage,
        nextPage: cursor.nextPage,
        currentPage: cursor.currentPage,
        reset: reset.has(task.key),
      }
    }
  })
  if (!('errors' in resolved)) resolved.errors = {}

  const metadata: PropsMetadata = {}
  if (options.exposeSharedPropKeys !== false) {
    const keys = Object.keys(sharedExpanded)
    if (keys.length > 0) metadata.sharedProps = keys
  }
  for (const name of ['mergeProps', 'prependProps', 'deepMergeProps', 'matchPropsOn'] as const) {
    const list = labels[name]
    if (list && list.length > 0) metadata[name] = list
  }
  if (!partial && Object.keys(deferred).length > 0) metadata.deferredProps = deferred
  if (rescued.length > 0) metadata.rescuedProps = rescued
  if (Object.keys(scrollProps).length > 0) metadata.scrollProps = scrollProps
  if (Object.keys(onceProps).length > 0) metadata.onceProps = onceProps

  return { props: resolved as ResolvedProps['props'], metadata }
}
