/**
 * The one rule for text a visitor sends: control characters (NUL and the other C0 codes except
 * tab, line feed and carriage return, DEL, and the C1 codes) are refused. PostgreSQL cannot
 * store NUL in text at all, and none of them belongs in a name, an e-mail address or a code.
 * Every zod string a request is validated with is built with `text()`; the server also refuses
 * such characters in the URL (query and path) before any route runs (src/server/plugins/input-guard.ts).
 */
import { z } from 'zod'

// eslint-disable-next-line no-control-regex -- control characters are exactly what is matched
export const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/

export const CONTROL_CHARACTERS_MESSAGE = 'Please remove the special (control) characters from this field.'

export function hasControlCharacters(value: string): boolean {
  return CONTROL_CHARACTERS.test(value)
}

/** A zod string that refuses control characters (checked before trimming, so none slips through). */
export function text(params?: Parameters<typeof z.string>[0]) {
  return z.string(params).refine((v) => !hasControlCharacters(v), {
    message: CONTROL_CHARACTERS_MESSAGE,
    abort: true,
  })
}

/**
 * `text` closing a sentence: a full stop is added unless it already ends with one (or with '!'
 * or '?'), so 'Northgate Workplace Inc.' ends a sentence as 'Northgate Workplace Inc.', not 'Inc..'.
 */
export function endSentence(text: string): string {
  const trimmed = text.trimEnd()
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`
}
