/**
 * The one HTTP helper every provider client uses: JSON in and out, a hard time-out, and a
 * typed error for the cases where nobody knows whether the provider acted (time-out, dropped
 * connection). Adapters turn those, and any 5xx, into the `unknown` outcome.
 */

export class TransportError extends Error {
  constructor(
    public readonly kind: 'timeout' | 'network',
    message: string,
  ) {
    super(message)
    this.name = 'TransportError'
  }
}

export interface HttpResult {
  status: number
  /** Parsed JSON body, or null when the body was empty or not JSON. */
  json: unknown
  text: string
  headers: Headers
}

export interface HttpRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  headers?: Record<string, string>
  /** A string is sent as is (signed payloads); an object as JSON. */
  body?: unknown
  timeoutMs?: number
}

export const DEFAULT_TIMEOUT_MS = 20_000

export async function httpRequest(url: string, req: HttpRequest): Promise<HttpResult> {
  const body =
    req.body === undefined ? undefined : typeof req.body === 'string' ? req.body : JSON.stringify(req.body)
  let res: Response
  try {
    res = await fetch(url, {
      method: req.method,
      headers: {
        accept: 'application/json',
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...req.headers,
      },
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(req.timeoutMs ?? DEFAULT_TIMEOUT_MS),
    })
  } catch (err) {
    const name = (err as Error).name
    if (name === 'TimeoutError' || name === 'AbortError')
      throw new TransportError('timeout', `timed out: ${req.method} ${url}`)
    throw new TransportError('network', `${req.method} ${url}: ${(err as Error).message}`)
  }
  let text: string
  try {
    text = await res.text()
  } catch (err) {
    // The provider answered but the body was cut off: whether it acted is unknown.
    throw new TransportError(
      (err as Error).name === 'TimeoutError' ? 'timeout' : 'network',
      `body of ${url} lost`,
    )
  }
  let json: unknown = null
  if (text) {
    try {
      json = JSON.parse(text)
    } catch {
      json = null
    }
  }
  return { status: res.status, json, text, headers: res.headers }
}

export function basicAuth(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

export function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined
}
