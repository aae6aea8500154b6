/**
 * Server-side rendering contract (inertia.md §3.1, §3.3). A renderer turns a page object into
 * `{ head, body }`; returning null (or throwing) makes the adapter send the client-side document.
 */
import type { FastifyBaseLogger } from 'fastify'
import { classifySSRError } from '@inertiajs/core/ssrErrors'
import type { Page } from './page.ts'

export interface SsrResult {
  /** Managed head elements (each carries `data-inertia`). */
  head: string[]
  /** `<script data-page …>` + `<div data-server-rendered="true" id="app">…</div>`. */
  body: string
}

export interface SsrContext {
  log: FastifyBaseLogger
}

export type SsrRenderer = (page: Page, context: SsrContext) => Promise<SsrResult | null>

/** The shape of the SSR entry module (`src/client/ssr.tsx`): a default export rendering a page. */
export interface SsrModule {
  default: (page: Page) => Promise<SsrResult> | SsrResult
}

export interface ModuleSsrOptions {
  /** Called with every render error before it is logged (dev: `vite.ssrFixStacktrace`). */
  onError?: (error: unknown) => void
  /** Extra head tags to prepend per render (dev: stylesheet links collected from Vite). */
  extraHead?: (page: Page) => Promise<string[]> | string[]
}

function isSsrResult(value: unknown): value is SsrResult {
  if (value === null || typeof value !== 'object') return false
  const r = value as Partial<SsrResult>
  return typeof r.body === 'string' && Array.isArray(r.head) && r.head.every((h) => typeof h === 'string')
}

/**
 * Renders in-process with a module that default-exports `render(page)`.
 * Production: `() => import(pathToFileURL('dist/ssr/ssr.js').href)`;
 * development: `() => vite.ssrLoadModule('/src/client/ssr.tsx')`.
 * `loadModule` is called per render; Node's module cache (prod) and Vite's (dev) keep that cheap.
 * Errors are logged through the request logger and yield null, so the page falls back to CSR.
 */
export function createModuleSsrRenderer(
  loadModule: () => Promise<SsrModule>,
  options: ModuleSsrOptions = {},
): SsrRenderer {
  return async (page, { log }) => {
    try {
      const module = await loadModule()
      if (typeof module?.default !== 'function') {
        throw new TypeError('The SSR module has no default export function render(page)')
      }
      const result: unknown = await module.default(page)
      if (!isSsrResult(result)) {
        throw new TypeError('The SSR render function must resolve to { head: string[], body: string }')
      }
      if (!options.extraHead) return result
      const extra = await options.extraHead(page)
      return extra.length > 0 ? { head: [...extra, ...result.head], body: result.body } : result
    } catch (error) {
      options.onError?.(error)
      let classified: { type?: string; hint?: string } = {}
      try {
        classified = classifySSRError(error, page.component, page.url)
      } catch {
        // classification is best-effort
      }
      log.error(
        {
          err: error,
          component: page.component,
          url: page.url,
          ssrErrorType: classified.type,
          hint: classified.hint,
        },
        'Inertia SSR failed; sending the client-side rendered page instead',
      )
      return null
    }
  }
}
