/**
 * Helpers for HTTP tests of Inertia pages (no test-framework imports, usable from any suite).
 */
import cookie from '@fastify/cookie'
import session, { type FastifySessionOptions } from '@fastify/session'
import Fastify, { type FastifyInstance, type InjectOptions, type LightMyRequestResponse } from 'fastify'
import { inertiaPlugin, type InertiaOptions } from '../../src/server/inertia/plugin.ts'
import type { Page } from '../../src/server/inertia/page.ts'

/** Headers of an Inertia router visit. */
export function inertiaHeaders(
  options: {
    version?: string
    partial?: { component: string; only?: string[]; except?: string[]; reset?: string[] }
    errorBag?: string
    exceptOnce?: string[]
    mergeIntent?: 'append' | 'prepend'
    prefetch?: boolean
  } = {},
): Record<string, string> {
  const headers: Record<string, string> = {
    'x-inertia': 'true',
    'x-requested-with': 'XMLHttpRequest',
    accept: 'text/html, application/xhtml+xml',
  }
  if (options.version) headers['x-inertia-version'] = options.version
  if (options.partial) {
    headers['x-inertia-partial-component'] = options.partial.component
    const only = [...(options.partial.only ?? []), ...(options.partial.reset ?? [])]
    if (only.length > 0) headers['x-inertia-partial-data'] = only.join(',')
    if (options.partial.except?.length) headers['x-inertia-partial-except'] = options.partial.except.join(',')
    if (options.partial.reset?.length) headers['x-inertia-reset'] = options.partial.reset.join(',')
  }
  if (options.errorBag !== undefined) headers['x-inertia-error-bag'] = options.errorBag
  if (options.exceptOnce?.length) headers['x-inertia-except-once-props'] = options.exceptOnce.join(',')
  if (options.mergeIntent) headers['x-inertia-infinite-scroll-merge-intent'] = options.mergeIntent
  if (options.prefetch) headers.purpose = 'prefetch'
  return headers
}

/** The raw text of the `<script data-page="id" type="application/json">` element, or null. */
export function pageScriptText(html: string, id = 'app'): string | null {
  const open = `<script data-page="${id}" type="application/json">`
  const start = html.indexOf(open)
  if (start < 0) return null
  const end = html.indexOf('</script>', start + open.length)
  return end < 0 ? null : html.slice(start + open.length, end)
}

/** The page object embedded in an HTML document (what the browser's JSON.parse would see). */
export function pageFromHtml(html: string, id = 'app'): Page | null {
  const text = pageScriptText(html, id)
  return text === null ? null : (JSON.parse(text) as Page)
}

export const TEST_SESSION_SECRET = 'a-test-secret-that-is-long-enough-0123456789'

/** A trivial document: SSR head in `<head>`, the body (SSR or CSR) in `<body>`. */
export function plainDocument({ head, body }: { head: string; body: string }): string {
  return `<!doctype html><html><head><title>Test</title>${head}</head><body>${body}</body></html>`
}

/**
 * A small Fastify app with @fastify/cookie, @fastify/session (memory store, insecure cookie) and
 * the Inertia plugin. `withSession: false` leaves sessions out.
 */
export async function createTestApp(
  options: Partial<InertiaOptions> & {
    withSession?: boolean
    /** Extra @fastify/session options (store, rolling, saveUninitialized…). */
    sessionOptions?: Partial<FastifySessionOptions>
  } = {},
  routes: (app: FastifyInstance) => void | Promise<void> = () => {},
): Promise<FastifyInstance> {
  const { withSession = true, sessionOptions = {}, ...inertiaOptions } = options
  const app = Fastify({ logger: false })
  if (withSession) {
    await app.register(cookie)
    await app.register(session, {
      secret: TEST_SESSION_SECRET,
      cookie: { secure: false },
      saveUninitialized: false,
      ...sessionOptions,
    })
  }
  await app.register(inertiaPlugin, { version: '1', document: plainDocument, ...inertiaOptions })
  await routes(app)
  await app.ready()
  return app
}

/** Sends requests through `app.inject`, carrying cookies from one response to the next request. */
export class TestClient {
  readonly cookies = new Map<string, string>()
  constructor(private readonly app: FastifyInstance) {}

  async request(options: InjectOptions): Promise<LightMyRequestResponse> {
    const cookieHeader = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
    const headers = { ...(options.headers ?? {}) } as Record<string, string>
    if (cookieHeader) headers.cookie = cookieHeader
    const response = await this.app.inject({ ...options, headers })
    for (const c of response.cookies as { name: string; value: string; maxAge?: number; expires?: Date }[]) {
      const expired = c.maxAge === 0 || (c.expires !== undefined && c.expires.getTime() <= Date.now())
      if (expired || c.value === '') this.cookies.delete(c.name)
      else this.cookies.set(c.name, c.value)
    }
    return response
  }

  get(url: string, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
    return this.request({ method: 'GET', url, headers })
  }
}
