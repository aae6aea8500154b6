/**
 * The one check for a redirect target taken from a request (a Referer, `?intended=`, a form
 * field): a path on this site, or null. `//evil.example/x`, `/\evil.example`, absolute URLs,
 * whitespace and control characters are refused; anything else non-ASCII is percent-encoded so the
 * Location header is always valid.
 */
import { hasControlCharacters } from '../../shared/text.ts'

const PROBE_ORIGIN = 'http://same-site.invalid'

export function sameSitePath(value: unknown): string | null {
  if (typeof value !== 'string' || value === '' || value.length > 2000) return null
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null
  if (/[\s\\]/.test(value) || hasControlCharacters(value) || hasControlCharacters(decoded(value))) return null
  let url: URL
  try {
    url = new URL(value, PROBE_ORIGIN)
  } catch {
    return null
  }
  if (url.origin !== PROBE_ORIGIN) return null
  const path = `${url.pathname}${url.search}${url.hash}`
  // The URL parser can turn `/.//evil` into `//evil`: check the result again.
  return path.startsWith('//') || path.startsWith('/\\') ? null : path
}

function decoded(value: string): string {
  try {
    return decodeURIComponent(value)
  } catch {
    return value
  }
}
