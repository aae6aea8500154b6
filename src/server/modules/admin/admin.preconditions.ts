/**
 * `If-Match: "v<version>"` on the order writes (ADR 0220): parsed into the lifecycle's
 * `expectVersion`. A state change without it is refused (428), an ill-formed one is a 400, a stale
 * one becomes the lifecycle's 412. `GET /orders/{number}` answers the tag as its ETag.
 */
export const etagOf = (version: number) => `"v${version}"`

export type IfMatch =
  { kind: 'absent' } | { kind: 'version'; version: number } | { kind: 'malformed'; message: string }

export const PRECONDITION_MESSAGES = {
  required:
    'This change needs an If-Match header with the order\'s version ("v3", the ETag of GET /orders/{number}), so that two systems cannot overwrite each other.',
  malformed: 'If-Match must be one entity tag like "v3" (the ETag of GET /orders/{number}).',
}

export function parseIfMatch(header: string | string[] | undefined): IfMatch {
  if (header === undefined) return { kind: 'absent' }
  if (Array.isArray(header) || header.length > 40)
    return { kind: 'malformed', message: PRECONDITION_MESSAGES.malformed }
  const m = /^\s*(?:W\/)?"v(\d{1,9})"\s*$/.exec(header)
  if (!m || header.trim().startsWith('W/'))
    return { kind: 'malformed', message: PRECONDITION_MESSAGES.malformed }
  return { kind: 'version', version: Number(m[1]) }
}
