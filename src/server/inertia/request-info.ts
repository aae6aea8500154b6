import { H } from './headers.ts'

/** What an incoming request asks of the Inertia adapter, parsed once from its headers. */
export interface InertiaRequestInfo {
  /** `X-Inertia: true` — a router visit expecting a JSON page object. */
  readonly isInertia: boolean
  /** `X-Inertia-Version`, `''` when absent. */
  readonly version: string
  /** `X-Inertia-Partial-Component`, or null. */
  readonly partialComponent: string | null
  /** `X-Inertia-Partial-Data` as a list (reset keys are already included by the client), or null. */
  readonly only: readonly string[] | null
  /** `X-Inertia-Partial-Except` as a list, or null. */
  readonly except: readonly string[] | null
  /** `X-Inertia-Reset`: props whose merge state the client resets. */
  readonly reset: readonly string[]
  /** `X-Inertia-Error-Bag`, or null. `"0"` is a valid bag name. */
  readonly errorBag: string | null
  /** `X-Inertia-Except-Once-Props`: once keys the client already holds. */
  readonly exceptOnceProps: readonly string[]
  /** `X-Inertia-Infinite-Scroll-Merge-Intent`. */
  readonly mergeIntent: 'append' | 'prepend'
  /** `Purpose: prefetch`. */
  readonly isPrefetch: boolean
  /** `Precognition: true`. */
  readonly isPrecognition: boolean
}

type HeaderBag = Record<string, string | string[] | undefined>

function single(headers: HeaderBag, name: string): string | undefined {
  const value = headers[name]
  return Array.isArray(value) ? value[0] : value
}

/** Splits a comma list, trimming blanks; an absent or blank header gives null. */
export function splitList(value: string | undefined): string[] | null {
  if (value === undefined) return null
  const items = value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '')
  return items.length > 0 ? items : null
}

export function parseRequestInfo(headers: HeaderBag): InertiaRequestInfo {
  const isInertia = single(headers, H.inertia) === 'true'
  const errorBag = single(headers, H.errorBag)?.trim()
  return Object.freeze({
    isInertia,
    version: single(headers, H.version) ?? '',
    partialComponent: isInertia ? (single(headers, H.partialComponent) ?? null) : null,
    only: isInertia ? splitList(single(headers, H.partialData)) : null,
    except: isInertia ? splitList(single(headers, H.partialExcept)) : null,
    reset: (isInertia && splitList(single(headers, H.reset))) || [],
    errorBag: errorBag === undefined || errorBag === '' ? null : errorBag,
    exceptOnceProps: (isInertia && splitList(single(headers, H.exceptOnceProps))) || [],
    mergeIntent: single(headers, H.mergeIntent)?.trim().toLowerCase() === 'prepend' ? 'prepend' : 'append',
    isPrefetch: single(headers, H.purpose)?.trim().toLowerCase() === 'prefetch',
    isPrecognition: single(headers, H.precognition) === 'true',
  })
}
