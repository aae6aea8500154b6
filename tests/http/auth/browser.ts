/** A cookie-keeping visitor for auth HTTP tests: sends the CSRF header like the Inertia client. */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { inertiaHeaders } from '../../helpers/app.ts'

export class Visitor {
  readonly jar = new Map<string, string>()

  constructor(
    private readonly app: FastifyInstance,
    private readonly host = 'localhost',
    private readonly extraHeaders: Record<string, string> = {},
  ) {}

  private store(res: LightMyRequestResponse) {
    for (const c of res.cookies as { name: string; value: string; maxAge?: number; expires?: Date }[]) {
      const gone = c.value === '' || c.maxAge === 0 || (c.expires && c.expires.getTime() < Date.now())
      if (gone) this.jar.delete(c.name)
      else this.jar.set(c.name, c.value)
    }
  }

  cookieHeader(): string {
    return [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ')
  }

  /** An Inertia visit (JSON page) */
  async visit(url: string, headers: Record<string, string> = {}) {
    const res = await this.app.inject({
      url,
      headers: {
        host: this.host,
        cookie: this.cookieHeader(),
        ...inertiaHeaders(),
        ...this.extraHeaders,
        ...headers,
      },
    })
    this.store(res)
    return res
  }

  /** Makes sure the visitor holds a CSRF token (a first page load sets it). */
  async ensureToken() {
    if (!this.jar.has('XSRF-TOKEN')) {
      const res = await this.app.inject({
        url: '/login',
        headers: { host: this.host, accept: 'text/html', ...this.extraHeaders },
      })
      this.store(res)
    }
  }

  async post(
    url: string,
    payload: Record<string, unknown>,
    headers: Record<string, string> = {},
    method: 'POST' | 'DELETE' = 'POST',
  ) {
    await this.ensureToken()
    const res = await this.app.inject({
      method,
      url,
      payload,
      headers: {
        host: this.host,
        cookie: this.cookieHeader(),
        'x-xsrf-token': decodeURIComponent(this.jar.get('XSRF-TOKEN') ?? ''),
        ...inertiaHeaders(),
        ...this.extraHeaders,
        ...headers,
      },
    })
    this.store(res)
    return res
  }

  get sessionId(): string | undefined {
    return this.jar.get('shop_session')
  }
}
