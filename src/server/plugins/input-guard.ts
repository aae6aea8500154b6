/**
 * Refuses control characters in the URL (path parameters and query) before any route, session
 * or database code sees them: the request ends in the one error handler with a 400. Bodies are
 * checked field by field by the shared zod rules (src/shared/text.ts), so forms get the message
 * under the field instead.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { hasControlCharacters } from '../../shared/text.ts'

export class ControlCharacterError extends Error {
  readonly statusCode = 400
  readonly code = 'SHOP_CONTROL_CHARACTERS'
  constructor() {
    super('control characters in the request URL')
  }
}

/** Whether any string inside a parsed query or parameter object (keys included) has a control character. */
export function containsControlCharacters(value: unknown, depth = 0): boolean {
  if (depth > 8) return false
  if (typeof value === 'string') return hasControlCharacters(value)
  if (Array.isArray(value)) return value.some((v) => containsControlCharacters(v, depth + 1))
  if (value && typeof value === 'object')
    return Object.entries(value).some(
      ([k, v]) => hasControlCharacters(k) || containsControlCharacters(v, depth + 1),
    )
  return false
}

function urlHasControlCharacters(request: FastifyRequest): boolean {
  let path = request.url
  try {
    path = decodeURIComponent(request.url.split('?')[0] ?? '')
  } catch {
    // A malformed escape is the router's business (a 400 of its own).
  }
  return hasControlCharacters(path) || containsControlCharacters(request.query)
}

export function installInputGuard(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    if (urlHasControlCharacters(request)) throw new ControlCharacterError()
  })
}
