/**
 * What every /admin route shares (ADR 0261): its own session cookie (`shop_admin`, path /admin,
 * HttpOnly, SameSite=Strict), its own CSRF token (an HMAC of the `shop_admin_csrf` cookie, sent
 * back in the `X-Admin-CSRF` header or the `_csrf` field; the shop's XSRF cookie is not used
 * here), `X-Robots-Tag: noindex`, a Content-Security-Policy stricter than the shop's, no-store,
 * and the access check every route declares (`guard`).
 */
import { createHmac, timingSafeEqual } from 'node:crypto'
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify'
import { scriptNonce } from '../../plugins/security-headers.ts'
import { randomToken } from '../auth/auth.crypto.ts'
import { siteBaseUrl } from '../sites/site-url.ts'
import type { Actor } from './staff.audit.ts'
import { can, permissionsOf, type StaffAccess } from './permissions.ts'
import { ABSOLUTE_MS, type LiveSession } from './staff.sessions.ts'

export const ADMIN_COOKIE = 'shop_admin'
export const ADMIN_CSRF_COOKIE = 'shop_admin_csrf'
export const ADMIN_CSRF_HEADER = 'x-admin-csrf'
export const ADMIN_PATH = '/admin'
export const NOINDEX_META = '<meta name="robots" content="noindex, nofollow">'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may reach an /admin route; every /admin route declares it (staff.plugin.ts checks). */
    staffAccess?: StaffAccess
  }
  interface FastifyRequest {
    /** The staff session of an /admin request, read once by the staff plugin. */
    staff: LiveSession | null
    /** The shop's address for links in back-office e-mails: the configured host of the site asked for. */
    staffBaseUrl: string
  }
}

export interface AdminHttpOptions {
  secret: string
  cookieSecure: boolean | 'auto'
  isDev: boolean
}

function secureFor(request: FastifyRequest, cookieSecure: boolean | 'auto'): boolean {
  return cookieSecure === 'auto' ? request.protocol === 'https' : cookieSecure
}

export function csrfTokenFor(secret: string, cookieValue: string): string {
  return createHmac('sha256', secret).update(`admin-csrf:${cookieValue}`).digest('base64url')
}

function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}

export class AdminHttp {
  constructor(private readonly opts: AdminHttpOptions) {}

  sessionToken(request: FastifyRequest): string | undefined {
    const v = request.cookies[ADMIN_COOKIE]
    return typeof v === 'string' && v ? v : undefined
  }

  setSession(request: FastifyRequest, reply: FastifyReply, token: string): void {
    reply.setCookie(ADMIN_COOKIE, token, {
      path: ADMIN_PATH,
      httpOnly: true,
      sameSite: 'strict',
      secure: secureFor(request, this.opts.cookieSecure),
      maxAge: ABSOLUTE_MS / 1000,
    })
  }

  clearSession(request: FastifyRequest, reply: FastifyReply): void {
    reply.clearCookie(ADMIN_COOKIE, {
      path: ADMIN_PATH,
      httpOnly: true,
      sameSite: 'strict',
      secure: secureFor(request, this.opts.cookieSecure),
    })
  }

  /** The page's CSRF token; gives the browser its CSRF cookie first when it has none. */
  csrfToken(request: FastifyRequest, reply: FastifyReply): string {
    let value = request.cookies[ADMIN_CSRF_COOKIE]
    if (typeof value !== 'string' || value.length < 20) {
      value = randomToken()
      request.cookies[ADMIN_CSRF_COOKIE] = value
      reply.setCookie(ADMIN_CSRF_COOKIE, value, {
        path: ADMIN_PATH,
        httpOnly: true,
        sameSite: 'strict',
        secure: secureFor(request, this.opts.cookieSecure),
      })
    }
    return csrfTokenFor(this.opts.secret, value)
  }

  /** Whether a state-changing request carries the token of its CSRF cookie. */
  csrfValid(request: FastifyRequest): boolean {
    const cookie = request.cookies[ADMIN_CSRF_COOKIE]
    if (typeof cookie !== 'string' || cookie.length < 20) return false
    const header = request.headers[ADMIN_CSRF_HEADER]
    const body = request.body as Record<string, unknown> | null | undefined
    const sent =
      typeof header === 'string' && header ? header : typeof body?._csrf === 'string' ? body._csrf : ''
    return sent !== '' && sameToken(sent, csrfTokenFor(this.opts.secret, cookie))
  }

  /** The Content-Security-Policy of every /admin answer: the shop's, minus everything the back office does not load. */
  csp(nonce: string): string {
    return [
      "default-src 'none'",
      `script-src 'self' 'nonce-${nonce}'${this.opts.isDev ? " 'unsafe-eval'" : ''}`,
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data:",
      "font-src 'self' data:",
      `connect-src 'self'${this.opts.isDev ? ' ws: wss:' : ''}`,
      "form-action 'self'",
      "frame-ancestors 'none'",
      "base-uri 'none'",
      "object-src 'none'",
    ].join('; ')
  }
}

/** Who is acting, for the audit log. */
export function actorOf(request: FastifyRequest): Actor {
  const user = request.staff?.user
  return { id: user?.id ?? null, email: user?.email ?? 'anonymous', ip: request.ip }
}

/** Where a session part-way through its login belongs. */
function stagePath(stage: string): string {
  return stage === 'setup' ? `${ADMIN_PATH}/two-factor/setup` : `${ADMIN_PATH}/two-factor`
}

/**
 * The preHandler that enforces a route's access: signed out → the sign-in page (401 for
 * non-page requests), part-way through the login → its next step, a role without the action →
 * 403 with a page saying so. Nothing of the route runs before it says yes.
 */
export function permit(access: StaffAccess) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const live = request.staff
    if (access === 'anonymous') return
    const wantsPage = request.method === 'GET'
    if (!live) {
      if (wantsPage) return reply.redirect(`${ADMIN_PATH}/login`, 303)
      return reply.code(401).send({ message: 'Please sign in to the back office.' })
    }
    const stage = live.session.stage
    if (access === 'signed-in') return
    if (access === 'setup' || access === 'challenge') {
      if (stage === access) return
      return reply.redirect(stage === 'full' ? `${ADMIN_PATH}/orders` : stagePath(stage), 303)
    }
    if (stage !== 'full') return reply.redirect(stagePath(stage), 303)
    if (can(live.user.role, access)) return
    const message = 'Your role does not allow this. Ask an owner if you need it.'
    if (wantsPage) return renderAdmin(request, reply, 'admin/Forbidden', { message }, 403)
    return reply.code(403).send({ message })
  }
}

/** Route options for an /admin route: its declared access and the check of it. */
export function guard(access: StaffAccess, extra: RouteShorthandOptions = {}): RouteShorthandOptions {
  return { ...extra, config: { ...(extra.config ?? {}), staffAccess: access }, preHandler: permit(access) }
}

let http: AdminHttp | null = null
export function useAdminHttp(h: AdminHttp): void {
  http = h
}

/** Renders an /admin page with the back office's own shared props and the noindex meta tag. */
export function renderAdmin(
  request: FastifyRequest,
  reply: FastifyReply,
  component: string,
  props: Record<string, unknown>,
  status = 200,
): Promise<FastifyReply> {
  const user = request.staff?.session.stage === 'full' ? request.staff.user : null
  return reply.inertia.render(
    component,
    {
      admin: {
        csrfToken: http ? http.csrfToken(request, reply) : '',
        user: user ? { name: user.name, email: user.email, role: user.role } : null,
        permissions: user ? permissionsOf(user.role) : [],
      },
      ...props,
    },
    { status, head: [NOINDEX_META] },
  )
}

export function registerAdminHooks(
  app: FastifyInstance,
  h: AdminHttp,
  read: (token?: string) => Promise<LiveSession | null>,
) {
  useAdminHttp(h)
  app.decorateRequest('staff', null)
  app.decorateRequest('staffBaseUrl', '')
  // Every /admin route declares who may reach it, or the server does not start; the shop's own
  // XSRF check is replaced by the back office's token.
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith(ADMIN_PATH)) return
    const access = (route.config as { staffAccess?: StaffAccess } | undefined)?.staffAccess
    if (!access)
      throw new Error(`${route.method} ${route.url}: an /admin route must declare its staffAccess (guard())`)
    route.config = { ...(route.config ?? {}), csrf: false } as typeof route.config
  })
  app.addHook('onRequest', async (request) => {
    // Links in e-mails use the configured host of the site asked for, never the Host header.
    request.staffBaseUrl = siteBaseUrl(request)
    // The back office belongs to no brand: no site theme, tags or basket on its pages.
    request.site = null
    request.staff = await read(h.sessionToken(request))
  })
  app.addHook('preValidation', async (request, reply) => {
    if (request.method === 'GET' || request.method === 'HEAD') return
    if (h.csrfValid(request)) return
    const message = 'This page has expired. Please refresh the page and try again.'
    return reply.code(419).send({ message })
  })
  app.addHook('onSend', async (_request, reply) => {
    reply.header('content-security-policy', h.csp(scriptNonce(reply)))
    reply.header('x-robots-tag', 'noindex, nofollow')
    reply.header('cache-control', 'private, no-store')
    reply.header('referrer-policy', 'same-origin')
  })
}
