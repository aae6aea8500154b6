/**
 * Fastify plugin implementing the Inertia v3 server protocol (inertia.md §1, §4.4, §7).
 *
 * Decorates `request.inertia` (sharing, flash, validation errors, history flags, parsed headers)
 * and `reply.inertia` (render, location, redirect, back), answers stale asset versions with 409,
 * and adjusts every response in a global onSend hook (Vary, 303 after PUT/PATCH/DELETE, fragment
 * redirects, empty responses).
 */
import { sameSitePath } from '../lib/same-site-path.ts'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { H } from './headers.ts'
import { buildPage, clientSideBody, type Page } from './page.ts'
import { always } from './props.ts'
import { parseRequestInfo, type InertiaRequestInfo } from './request-info.ts'
import { resolveProps } from './resolve-props.ts'
import {
  InertiaSession,
  resolveErrors,
  SESSION_KEYS,
  type ErrorMessages,
  type PulledState,
} from './session.ts'
import type { SsrRenderer } from './ssr.ts'

export interface DocumentContext {
  page: Page
  /** SSR head elements joined by newlines, or `''` without SSR. */
  head: string
  /** SSR body, or the client-side `<script data-page>` + `<div id>` pair. */
  body: string
  /** Head elements the server adds to this first load only (RenderOptions.head), or `''`. */
  extraHead?: string
  request: FastifyRequest
  reply: FastifyReply
}

export type DocumentRenderer = (context: DocumentContext) => string | Promise<string>

export type SharedPropsProvider = (
  request: FastifyRequest,
) => Record<string, unknown> | Promise<Record<string, unknown>>

export interface InertiaOptions {
  /** Asset version; compared with `X-Inertia-Version` as strings. */
  version: string | number | (() => string | number)
  /** Props shared by every page; values may be lazy functions or prop wrappers. Called per render. */
  share?: SharedPropsProvider
  /** In-process SSR; null or absent = client-side rendering only. */
  ssr?: SsrRenderer | null
  /** Return true to skip SSR for this request/page. */
  ssrExcept?: (request: FastifyRequest, page: Page) => boolean
  /** Assembles the full HTML document for first loads. */
  document: DocumentRenderer
  /** Emit the `sharedProps` metadata (default true). */
  exposeSharedPropKeys?: boolean
  /** Mount element id (default `app`). */
  rootId?: string
  /** Encrypt history on every page unless a request overrides it (default false). */
  encryptHistory?: boolean
  /** `errors.field` as the list of all messages instead of the first one (default false). */
  allErrorMessages?: boolean
  /** The page `url`; default `request.url` (path + query as received). */
  resolveUrl?: (request: FastifyRequest) => string
  /** Turn an empty 200 answer to an Inertia request into a redirect back (default true). */
  redirectEmptyResponses?: boolean
}

export interface RenderOptions {
  /** HTTP status; defaults to the reply's current status (200 unless changed). */
  status?: number
  /** Use another document template for this response. */
  document?: DocumentRenderer
  /**
   * Head elements (trusted HTML) for the HTML document of a first load only: they are not in the
   * page object, so Inertia visits and the client never receive them (e.g. structured data for
   * crawlers). Not managed by Inertia's head manager.
   */
  head?: string[]
  /**
   * Render even when shared props fail: a throwing `share` provider or shared lazy prop is logged
   * and left out. Defaults to true for statuses >= 400 (error pages), false otherwise.
   */
  tolerateSharedErrors?: boolean
}

const kState = Symbol('inertia.state')
const kRequestSlot = Symbol('inertia.request')
const kReplySlot = Symbol('inertia.reply')

interface PluginContext {
  options: InertiaOptions
  version(): string
}

/** Per-request adapter state; created on first use of `request.inertia`, never shared between requests. */
class RequestState {
  readonly info: InertiaRequestInfo
  readonly session: InertiaSession
  readonly shared: Record<string, unknown> = {}
  encrypt: boolean | null = null
  ssrDispatched = false
  private pulled: PulledState | null = null

  constructor(request: FastifyRequest) {
    this.info = parseRequestInfo(request.headers)
    this.session = new InertiaSession(() => (request as { session?: unknown }).session)
  }

  /**
   * Session state meant for this render, read but left in the session until `consume()`: a
   * render that fails, a HEAD request or a prefetch leaves it for the next page.
   */
  peek(): PulledState {
    if (this.pulled) return this.pulled
    if (this.info.isPrefetch) return { flash: {}, errors: {}, clearHistory: false, preserveFragment: false }
    return this.session.peek()
  }

  /** The page is being sent: what it carries is taken out of the session (once per request). */
  consume(method: string): void {
    if (this.pulled || this.info.isPrefetch || method === 'HEAD') return
    this.pulled = this.session.peek()
    this.session.forget()
  }
}

function toRecord(keyOrValues: string | Record<string, unknown>, value: unknown): Record<string, unknown> {
  return typeof keyOrValues === 'string' ? { [keyOrValues]: value } : keyOrValues
}

/** `request.inertia`: what a handler can tell the adapter about the current request. */
export class InertiaRequest {
  readonly [kState]: RequestState

  constructor(state: RequestState) {
    this[kState] = state
  }

  /** Parsed Inertia request headers. */
  get info(): InertiaRequestInfo {
    return this[kState].info
  }

  get isInertia(): boolean {
    return this[kState].info.isInertia
  }

  get isPrefetch(): boolean {
    return this[kState].info.isPrefetch
  }

  get isPrecognition(): boolean {
    return this[kState].info.isPrecognition
  }

  /** A partial reload (of `component`, when given). */
  isPartial(component?: string): boolean {
    const { partialComponent, isInertia } = this[kState].info
    if (!isInertia || partialComponent === null) return false
    return component === undefined || partialComponent === component
  }

  /** Shares props with the page rendered for this request. Dot keys (`auth.user`) nest. */
  share(key: string, value: unknown): this
  share(values: Record<string, unknown>): this
  share(keyOrValues: string | Record<string, unknown>, value?: unknown): this {
    Object.assign(this[kState].shared, toRecord(keyOrValues, value))
    return this
  }

  /** Flash data for the next rendered page (`page.flash`), surviving redirects. Calls merge. */
  flash(key: string, value: unknown): this
  flash(values: Record<string, unknown>): this
  flash(keyOrValues: string | Record<string, unknown>, value?: unknown): this {
    this[kState].session.flash(toRecord(keyOrValues, value))
    return this
  }

  /** Validation errors for the next rendered page (`props.errors`), in the given bag. */
  setErrors(errors: ErrorMessages, bag = 'default'): this {
    this[kState].session.addErrors(errors, bag)
    return this
  }

  /** Encrypt (or not) the browser history entry of the page rendered for this request. */
  encryptHistory(enabled = true): this {
    this[kState].encrypt = enabled
    return this
  }

  /** Clear the client's encrypted history on the next rendered page (also after a redirect). */
  clearHistory(): this {
    this[kState].session.flag(SESSION_KEYS.clearHistory)
    return this
  }

  /** Keep the URL fragment of the original visit across the upcoming redirect. */
  preserveFragment(): this {
    this[kState].session.flag(SESSION_KEYS.preserveFragment)
    return this
  }
}

function currentVersion(options: InertiaOptions): string {
  const v = typeof options.version === 'function' ? options.version() : options.version
  return String(v ?? '')
}

function fullUrl(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}${request.url}`
}

/** The Referer as a same-origin path, or null when absent or cross-origin. */
export function sameOriginReferer(request: FastifyRequest): string | null {
  const referer = request.headers[H.referer]
  if (typeof referer !== 'string' || referer === '') return null
  try {
    const ref = new URL(referer)
    const own = new URL(`${request.protocol}://${request.host}/`)
    if (ref.origin !== own.origin) return null
    // `http://host//evil.example/x` has the path `//evil.example/x`: a protocol-relative URL.
    return sameSitePath(`${ref.pathname}${ref.search}${ref.hash}`)
  } catch {
    return null
  }
}

function defaultRedirectStatus(method: string): number {
  return method === 'GET' || method === 'HEAD' ? 302 : 303
}

/** `reply.inertia`: responses in Inertia terms. */
export class InertiaReply {
  private readonly context: PluginContext
  private readonly request: FastifyRequest
  private readonly reply: FastifyReply

  constructor(context: PluginContext, request: FastifyRequest, reply: FastifyReply) {
    this.context = context
    this.request = request
    this.reply = reply
  }

  /**
   * Renders a page component: JSON for Inertia visits, an HTML document (SSR when configured)
   * for first loads. Return the result from the handler.
   */
  async render(
    component: string,
    props: Record<string, unknown> = {},
    options: RenderOptions = {},
  ): Promise<FastifyReply> {
    const { request, reply } = this
    const opts = this.context.options
    const state = stateOf(request)
    const { info } = state
    const status = options.status ?? reply.statusCode ?? 200
    const tolerant = options.tolerateSharedErrors ?? status >= 400

    let provided: Record<string, unknown> = {}
    if (opts.share) {
      try {
        provided = (await opts.share(request)) ?? {}
      } catch (error) {
        if (!tolerant) throw error
        request.log.error({ err: error }, 'Inertia shared props failed; rendering without them')
      }
    }

    const pulled = state.peek()
    const errors = resolveErrors(pulled.errors, info.errorBag, opts.allErrorMessages === true)
    const shared = { ...provided, ...state.shared, errors: always(errors) }

    const resolved = await resolveProps(shared, props, info, component, Date.now(), {
      exposeSharedPropKeys: opts.exposeSharedPropKeys !== false,
      onRescue: (path, error) =>
        request.log.error(
          { err: error, prop: path, component },
          'Inertia deferred prop failed and was rescued',
        ),
      onSharedError: tolerant
        ? (path, error) =>
            request.log.error({ err: error, prop: path }, 'Inertia shared prop failed; left out of the page')
        : undefined,
    })

    const page = buildPage({
      component,
      props: resolved.props,
      url: opts.resolveUrl ? opts.resolveUrl(request) : request.url,
      version: this.context.version(),
      metadata: resolved.metadata,
      // A server error page leaves flash for the next page rather than spending it.
      flash: status >= 500 ? {} : pulled.flash,
      clearHistory: pulled.clearHistory,
      encryptHistory: state.encrypt ?? opts.encryptHistory === true,
      preserveFragment: pulled.preserveFragment,
    })

    reply.code(status)

    if (info.isInertia) {
      reply.header('x-inertia', 'true').type('application/json; charset=utf-8')
      if (status < 500) state.consume(request.method)
      return reply.send(JSON.stringify(page))
    }

    let head = ''
    let body = clientSideBody(page, opts.rootId ?? 'app')
    const ssr = opts.ssr
    if (ssr && !state.ssrDispatched && !(opts.ssrExcept?.(request, page) ?? false)) {
      state.ssrDispatched = true
      try {
        const result = await ssr(page, { log: request.log })
        if (result) {
          head = result.head.join('\n')
          body = result.body
        }
      } catch (error) {
        request.log.error(
          { err: error, component },
          'Inertia SSR failed; sending the client-side rendered page',
        )
      }
    }

    const documentRenderer = options.document ?? opts.document
    const extraHead = options.head?.join('\n') ?? ''
    const html = await documentRenderer({ page, head, body, extraHead, request, reply })
    reply.type('text/html; charset=utf-8')
    if (status < 500) state.consume(request.method)
    return reply.send(html)
  }

  /**
   * Leaves the Inertia app for `url` (external site, download, non-Inertia page): 409 with
   * X-Inertia-Location for Inertia visits, a plain 302 otherwise.
   */
  location(url: string): FastifyReply {
    const { request, reply } = this
    if (stateOf(request).info.isInertia) {
      reply.removeHeader('x-inertia')
      return reply.code(409).header(H.location, url).send()
    }
    return reply.redirect(url, 302)
  }

  /** Redirects (302 after GET/HEAD, 303 otherwise unless `status` is given). */
  redirect(url: string, status?: number): FastifyReply {
    return this.reply.redirect(url, status ?? defaultRedirectStatus(this.request.method))
  }

  /** Redirects to the same-origin Referer, else to `fallback`. */
  back(fallback = '/', status?: number): FastifyReply {
    return this.redirect(sameOriginReferer(this.request) ?? fallback, status)
  }
}

function stateOf(request: FastifyRequest): RequestState {
  return request.inertia[kState]
}

/**
 * Renders an Inertia error page with the given status from an error or not-found handler:
 * JSON for Inertia visits, HTML for first loads, shared props included as far as they resolve.
 * Equivalent to `reply.inertia.render(component, props, { status })` with status >= 400.
 */
export function renderErrorPage(
  reply: FastifyReply,
  component: string,
  props: Record<string, unknown>,
  status: number,
): Promise<FastifyReply> {
  return reply.inertia.render(component, props, { status, tolerateSharedErrors: true })
}

/** Appends `X-Inertia` to Vary, keeping existing values and de-duplicating case-insensitively. */
export function appendVary(current: string | number | string[] | undefined, value = 'X-Inertia'): string {
  const parts = (current === undefined ? [] : Array.isArray(current) ? current : [String(current)])
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v !== '')
  if (parts.includes('*')) return '*'
  const seen = new Set<string>()
  const out: string[] = []
  for (const part of [...parts, value]) {
    const key = part.toLowerCase()
    if (seen.has(key)) continue
    seen.add(key)
    out.push(part)
  }
  return out.join(', ')
}

function isEmptyPayload(payload: unknown): boolean {
  return payload === undefined || payload === null || payload === ''
}

const MUTATING = new Set(['PUT', 'PATCH', 'DELETE'])

async function inertia(fastify: FastifyInstance, options: InertiaOptions): Promise<void> {
  if (typeof options.document !== 'function')
    throw new TypeError('inertiaPlugin: options.document is required')
  const context: PluginContext = { options, version: () => currentVersion(options) }
  // Per-request objects live in slots declared null up front (stable object shapes) and are filled
  // on first use, so they exist even in error handlers for requests that failed before onRequest.
  fastify.decorateRequest(kRequestSlot, null)
  fastify.decorateReply(kReplySlot, null)
  fastify.decorateRequest('inertia', {
    getter(this: FastifyRequest): InertiaRequest {
      const slots = this as unknown as Record<symbol, InertiaRequest | null>
      return (slots[kRequestSlot] ??= new InertiaRequest(new RequestState(this)))
    },
  })
  fastify.decorateReply('inertia', {
    getter(this: FastifyReply): InertiaReply {
      const slots = this as unknown as Record<symbol, InertiaReply | null>
      return (slots[kReplySlot] ??= new InertiaReply(context, this.request, this))
    },
  })

  fastify.addHook('onRequest', (request, reply, done) => {
    if (request.method === 'GET' && request.headers[H.inertia] === 'true') {
      const { info } = stateOf(request)
      const version = context.version()
      if (info.version !== version) {
        // Stale assets: make the client reload the page. Flash and errors stay in the session
        // because nothing pulls them; the handler does not run.
        reply.code(409).header(H.location, fullUrl(request)).header(H.version, version).send()
        return
      }
    }
    done()
  })

  // Precognition (live validation): the handler never runs, so nothing it does (a write, an
  // e-mail, a login) can happen. A route that supports it validates only: 204 or 422.
  fastify.addHook('preHandler', async (request, reply) => {
    if (request.headers[H.precognition] !== 'true') return
    reply.header('precognition', 'true').header('vary', appendVary(reply.getHeader('vary'), 'Precognition'))
    const validate = (request.routeOptions.config as { precognition?: PrecognitionValidator } | undefined)
      ?.precognition
    if (typeof validate !== 'function') {
      return reply.code(400).send({ message: 'This request does not support live validation.' })
    }
    const all = await validate(request)
    const only = splitValidateOnly(request.headers['precognition-validate-only'])
    const errors = Object.fromEntries(
      Object.entries(all).filter(([field]) => only === null || only.includes(field)),
    )
    const first = Object.values(errors)[0]
    if (first === undefined) return reply.code(204).header('precognition-success', 'true').send()
    return reply.code(422).send({ message: first, errors })
  })

  fastify.addHook('onSend', (request, reply, payload, done) => {
    reply.header('vary', appendVary(reply.getHeader('vary')))
    if (request.headers[H.inertia] !== 'true') {
      done(null, payload)
      return
    }
    const { info } = stateOf(request)

    const status = reply.statusCode
    if (status >= 300 && status < 400) {
      const location = reply.getHeader('location')
      if (typeof location === 'string' && location.includes('#') && !info.isPrefetch) {
        // XHR would drop the fragment: ask the client to visit the URL itself.
        reply.code(409).header(H.redirect, location)
        reply.removeHeader('location')
        reply.removeHeader('x-inertia')
        reply.removeHeader('content-type')
        reply.removeHeader('content-length')
        done(null, '')
        return
      }
      if (status === 302 && MUTATING.has(request.method)) reply.code(303)
      done(null, payload)
      return
    }

    if (
      status === 200 &&
      options.redirectEmptyResponses !== false &&
      request.method !== 'HEAD' &&
      isEmptyPayload(payload) &&
      reply.getHeader('x-inertia') === undefined
    ) {
      reply
        .code(MUTATING.has(request.method) ? 303 : 302)
        .header('location', sameOriginReferer(request) ?? '/')
    }
    done(null, payload)
  })
}

/**
 * A route's live validation (route config `precognition`): field -> first message, `{}` when the
 * input is valid. It must only validate: no writes, no e-mail, no session changes.
 */
export type PrecognitionValidator = (
  request: FastifyRequest,
) => Record<string, string> | Promise<Record<string, string>>

function splitValidateOnly(value: string | string[] | undefined): string[] | null {
  const raw = Array.isArray(value) ? value.join(',') : value
  if (!raw) return null
  const fields = raw
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean)
  return fields.length ? fields : null
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Live validation for Precognition requests (see PrecognitionValidator) */
    precognition?: PrecognitionValidator
  }
}

/** The Inertia adapter plugin. Register after @fastify/cookie and @fastify/session. */
export const inertiaPlugin = fp(inertia, { name: 'inertia', fastify: '5.x' })

declare module 'fastify' {
  interface FastifyRequest {
    inertia: InertiaRequest
  }
  interface FastifyReply {
    inertia: InertiaReply
  }
}
