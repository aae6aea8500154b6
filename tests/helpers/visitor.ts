/**
 * A browser-like visitor for HTTP tests: keeps its cookies between requests and sends the CSRF
 * header the Inertia client sends. `json()` calls answer JSON (Accept: application/json).
 */
import type { FastifyInstance } from 'fastify'
import { inertiaHeaders } from './app.ts'

export class Visitor {
  readonly cookies: Record<string, string> = {}

  constructor(
    private readonly app: FastifyInstance,
    readonly host = 'localhost',
  ) {}

  private cookieHeader(): string {
    return Object.entries(this.cookies)
      .map(([k, v]) => `${k}=${v}`)
      .join('; ')
  }

  private keep(res: { cookies: { name: string; value: string }[] }) {
    for (const c of res.cookies) this.cookies[c.name] = c.value
  }

  /** Picks up the CSRF cookies with a page view, as a browser does on its first visit. */
  async start(): Promise<this> {
    const res = await this.app.inject({ url: '/', headers: { host: this.host, accept: 'text/html' } })
    this.keep(res)
    return this
  }

  async request(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    payload?: unknown,
    headers: Record<string, string> = {},
  ) {
    const res = await this.app.inject({
      method,
      url,
      headers: {
        host: this.host,
        accept: 'application/json',
        cookie: this.cookieHeader(),
        ...(this.cookies['XSRF-TOKEN']
          ? { 'x-xsrf-token': decodeURIComponent(this.cookies['XSRF-TOKEN']) }
          : {}),
        ...headers,
      },
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    })
    this.keep(res)
    return res
  }

  post(url: string, payload?: unknown) {
    return this.request('POST', url, payload ?? {})
  }

  delete(url: string) {
    return this.request('DELETE', url)
  }

  /** An Inertia visit (the page object as JSON). */
  visit(url: string) {
    return this.request('GET', url, undefined, inertiaHeaders())
  }

  /** The session id behind the signed session cookie. */
  sessionId(): string | null {
    const raw = this.cookies.shop_session
    if (!raw) return null
    const value = decodeURIComponent(raw)
    return value.slice(0, value.lastIndexOf('.'))
  }
}
