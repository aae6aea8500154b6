/**
 * The back-office API's field rules, so that what its schemas (and so its OpenAPI document) allow
 * is exactly what the columns behind them can hold (ADR 0125):
 *
 * - Whole numbers are int4 (PostgreSQL `integer`, ±2147483647) unless a field has a tighter rule;
 *   money is whole minor units from 0 to the int4 maximum. The bounds appear in the document as
 *   `minimum`/`maximum`; anything outside is a 422 naming the field, never a database error.
 * - Text refuses control characters (the shop's one rule, src/shared/text.ts: PostgreSQL cannot
 *   store NUL) and text that is not well-formed Unicode (a lone surrogate becomes U+FFFD in a
 *   text column and is refused outright inside jsonb).
 * - Free-form JSON stored in jsonb (a story's content) may hold no NUL (jsonb refuses \u0000), no
 *   lone surrogate and no nesting deeper than MAX_JSON_DEPTH.
 */
import { z } from 'zod'
import { text } from '../../../shared/text.ts'

export const INT4_MIN = -2_147_483_648
export const INT4_MAX = 2_147_483_647

/** How deep a stored JSON document (a story's content) may nest. */
export const MAX_JSON_DEPTH = 64

const WHOLE = 'must be a whole number'

/** A whole number a PostgreSQL `integer` column holds; `min`/`max` narrow it further. */
export function int4({ min = INT4_MIN, max = INT4_MAX }: { min?: number; max?: number } = {}) {
  if (min < INT4_MIN || max > INT4_MAX)
    throw new Error(`int4 bounds ${min}..${max} are wider than the column`)
  return z
    .number({ error: WHOLE })
    .int(WHOLE)
    .min(min, `must be at least ${min}`)
    .max(max, `must be at most ${max}`)
}

/** An amount of money in whole minor units (pence or cents), 0 up to what an int4 column holds. */
export function money(whole = 'must be whole minor units (pence or cents)') {
  return z
    .number({ error: whole })
    .int(whole)
    .min(0, 'must be at least 0')
    .max(INT4_MAX, `must be at most ${INT4_MAX} (minor units)`)
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/** Whether a string is well-formed Unicode (no lone surrogate; String#isWellFormed, ES2024). */
export function isWellFormed(s: string): boolean {
  return !LONE_SURROGATE.test(s)
}

export const NOT_WELL_FORMED = 'must be well-formed Unicode text (it has a lone surrogate)'

/** Text a column can hold: no control characters, well-formed Unicode. */
export function field() {
  return text().refine((v) => isWellFormed(v), { message: NOT_WELL_FORMED, abort: true })
}

/**
 * Why a JSON value cannot be stored in jsonb as it is, or null when it can: a NUL (in a string
 * or a key), a lone surrogate, or nesting deeper than MAX_JSON_DEPTH. Returns the path it found.
 */
export function jsonbProblem(value: unknown): { path: (string | number)[]; message: string } | null {
  const walk = (
    v: unknown,
    path: (string | number)[],
  ): { path: (string | number)[]; message: string } | null => {
    if (path.length > MAX_JSON_DEPTH)
      return { path, message: `must not nest more than ${MAX_JSON_DEPTH} levels deep` }
    if (typeof v === 'string') return stringProblem(v, path)
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const found = walk(v[i], [...path, i])
        if (found) return found
      }
      return null
    }
    if (v && typeof v === 'object') {
      for (const [k, inner] of Object.entries(v)) {
        const found = stringProblem(k, [...path, k]) ?? walk(inner, [...path, k])
        if (found) return found
      }
    }
    return null
  }
  return walk(value, [])
}

function stringProblem(s: string, path: (string | number)[]) {
  if (s.includes('\u0000')) return { path, message: 'must not contain a NUL character' }
  if (!isWellFormed(s)) return { path, message: NOT_WELL_FORMED }
  return null
}
