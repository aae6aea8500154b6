/**
 * Memoised server rendering. A render is a pure function of the page object, and anonymous
 * visitors of the same page receive identical page objects, so the result can be reused for the
 * same page JSON. Anything per visitor (customer, basket, flash, errors) is part of the page
 * object, so it changes the key. The CSP nonce is added later by the document, not by SSR.
 * A short TTL bounds how stale time-dependent markup (countdowns) can get before hydration.
 */
import { createHash } from 'node:crypto'
import { LRUCache } from 'lru-cache'
import type { SsrRenderer, SsrResult } from './ssr.ts'

export interface SsrCacheOptions {
  /** Total size of cached HTML in characters (default 64 MiB worth). */
  maxChars?: number
  /** Milliseconds a render is reused (default 60 s). */
  ttlMs?: number
}

export function memoizeSsr(
  renderer: SsrRenderer,
  options: SsrCacheOptions = {},
): SsrRenderer & { cache: LRUCache<string, SsrResult> } {
  const cache = new LRUCache<string, SsrResult>({
    maxSize: options.maxChars ?? 64 * 1024 * 1024,
    sizeCalculation: (r) => Math.max(1, r.body.length + r.head.reduce((n, h) => n + h.length, 0)),
    ttl: options.ttlMs ?? 60_000,
  })
  const memoized = async (...args: Parameters<SsrRenderer>) => {
    const key = createHash('sha256').update(JSON.stringify(args[0])).digest('base64')
    const hit = cache.get(key)
    if (hit) return hit
    const result = await renderer(...args)
    // Failed renders (null) are not cached: the next request tries again.
    if (result) cache.set(key, result)
    return result
  }
  return Object.assign(memoized, { cache })
}
