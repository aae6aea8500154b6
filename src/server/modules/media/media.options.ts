/** Resize options from a query string: anything odd falls back to the defaults. */

export const FITS = ['cover', 'contain', 'fill', 'inside', 'outside'] as const
export type Fit = (typeof FITS)[number]

export interface ResizeOptions {
  width: number | null
  height: number | null
  quality: number
  fit: Fit
}

/** Product image defaults (spec §9): width 300, quality 50. */
export const DEFAULT_WIDTH = 300
export const DEFAULT_QUALITY = 50
export const MAX_DIMENSION = 2000

/** A positive number written plainly ('300', '300.5'), clamped to [min, max]; null otherwise. */
function numberParam(value: unknown, min: number, max: number): number | null {
  if (typeof value !== 'string' || !/^\d{1,6}(\.\d{1,3})?$/.test(value)) return null
  const n = Math.round(Number(value))
  if (n < min) return null
  return Math.min(n, max)
}

export function parseResizeOptions(query: unknown): ResizeOptions {
  const q = (query && typeof query === 'object' ? query : {}) as Record<string, unknown>
  const width = numberParam(q.w, 1, MAX_DIMENSION)
  const height = numberParam(q.h, 1, MAX_DIMENSION)
  const fit =
    typeof q.fit === 'string' && (FITS as readonly string[]).includes(q.fit) ? (q.fit as Fit) : 'cover'
  return {
    width: width ?? (height === null ? DEFAULT_WIDTH : null),
    height,
    quality: numberParam(q.q, 1, 100) ?? DEFAULT_QUALITY,
    fit,
  }
}
