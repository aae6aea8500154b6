/**
 * The auth module's wiring: `app.auth` (service, on-login hooks, login/logout helpers, bot
 * check per site, mail delivery) and the remember-me hook. The routes (auth.routes.ts) are
 * registered with the other routes, after the error handler.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import type { Db } from '../../db/client.ts'
import type { JobQueue } from '../../jobs/queue.ts'
import type { ChangeBus } from '../../ops/change-bus.ts'
import type { CustomerSummary } from '../../../shared/page-props.ts'
import { wantsPage } from '../../plugins/error-handler.ts'
import type { Site } from '../sites/sites.service.ts'
import type { MailMessage, SendMail } from './auth.mail.ts'
import { AuthService, type OnRegistered } from './auth.service.ts'
import {
  AUTH_SESSION_KEYS,
  currentCustomerId,
  SESSION,
  sessionGet,
  reloadCustomer,
  sessionSet,
} from './auth.session.ts'
import { AccountMailJobs, defaultAccountMailDelay } from './account-mail.jobs.ts'
import { SecretBox } from './auth.crypto.ts'
import { AltchaBotChecker, RecaptchaBotChecker, type BotChecker } from './bot-check.ts'

/** Where a customer whose two-factor was reset may go before setting it up again. */
const TWO_FACTOR_SETUP_PATHS: ReadonlySet<string> = new Set([
  '/customer/two-factor',
  '/user/confirm-password',
])

export const REMEMBER_COOKIE = 'shop_remember'

export interface LoginContext {
  request: FastifyRequest
  reply: FastifyReply
  customerId: number
  /** The session data from before the login (e.g. a guest basket id), rotated away since. */
  previousSession: Record<string, unknown>
}

export type OnLogin = (context: LoginContext) => Promise<void> | void

export interface LogoutContext {
  request: FastifyRequest
  /** Who logged out (null: nobody was logged in) */
  customerId: number | null
  /** The session data from before the logout, rotated away since. */
  previousSession: Record<string, unknown>
}

/** Run at a logout that keeps the basket: may carry visitor data into the new session. */
export type OnLogout = (context: LogoutContext) => Promise<void> | void

export interface LogoutOptions {
  /**
   * The checkout's 'Not you? Log Out': the browser keeps its basket (the `onLogout` functions
   * decide what of it). Otherwise the whole session goes (ADR 0136).
   */
  keepBasket?: boolean
}

export interface AuthPluginOptions {
  db: Db
  secret: string
  cookieSecure: boolean | 'auto'
  /** Remember-me lifetime */
  rememberTtlMs: number
  recaptchaSecret: string | null
  /** Delivers the auth e-mails (the app passes its mailer) */
  sendMail: SendMail
  /** Whether the account message of this idempotency key is already queued (the app's mail queue). */
  mailQueued?: (key: string) => Promise<boolean>
  /** The queue the account-mail jobs go on (ADR 0250). */
  jobs: JobQueue
  /** Writes a new account's details where they are kept (the customers module's address book) */
  onRegistered: OnRegistered
  /** Cached customer facts follow other instances' changes through it. */
  changes?: ChangeBus
  /** Clock for tests */
  now?: () => number
  /** Delay before an account-mail job may run (ms, may be random); default 150–650 ms */
  deferMs?: () => number
}

export interface AuthApi {
  service: AuthService
  /** Adds a function run after every login (password, two-factor, remember-me, verification link). */
  onLogin(fn: OnLogin): void
  /** Logs the customer in: rotates the session id, stores `customerId`, optionally remembers. */
  login(request: FastifyRequest, reply: FastifyReply, customerId: number, remember: boolean): Promise<void>
  /** Adds a function run after a logout that keeps the basket. */
  onLogout(fn: OnLogout): void
  /** Forgets the customer, rotates the session id, ends the remember-me token. */
  logout(request: FastifyRequest, reply: FastifyReply, options?: LogoutOptions): Promise<void>
  /** The `auth.customer` shared prop. */
  summary(request: FastifyRequest): Promise<CustomerSummary | null>
  /** The site's bot check when its setting is '1', else null. */
  botCheck(site: Site): BotChecker | null
  altcha: AltchaBotChecker
  /** Delivers a message; errors are logged, never shown (responses must not depend on mail). */
  deliver(request: FastifyRequest, message: MailMessage): void
  /**
   * Account work that must not show in an answer's time (does this e-mail have an account?):
   * durable jobs on the queue, run later, off the response path (ADR 0250). Tests `drain()` it.
   */
  deferred: AccountMailJobs
}

declare module 'fastify' {
  interface FastifyInstance {
    auth: AuthApi
  }
}

/** Rotates the session id, keeping the visitor's data (basket, flash) but no auth state. */
async function rotate(request: FastifyRequest, keepVisitorData: boolean): Promise<Record<string, unknown>> {
  const s = request.session as unknown as Record<string, unknown> & {
    regenerate(keys?: string[]): Promise<void>
  }
  const previous: Record<string, unknown> = {}
  for (const key of Object.keys(s)) if (key !== 'cookie') previous[key] = s[key]
  const keep = keepVisitorData ? Object.keys(previous).filter((k) => !AUTH_SESSION_KEYS.has(k)) : []
  await s.regenerate(keep)
  return previous
}

export const authPlugin = fp(
  async (app: FastifyInstance, opts: AuthPluginOptions) => {
    const service = new AuthService(opts.db, opts.secret, opts.onRegistered, opts.now)
    const hooks: OnLogin[] = []
    const logoutHooks: OnLogout[] = []
    const altcha = new AltchaBotChecker(opts.db, `${opts.secret}:altcha`)
    const recaptcha = new Map<string, RecaptchaBotChecker>()
    const sendMail = opts.sendMail

    const cookieOptions = (maxAgeMs: number) => ({
      path: '/',
      httpOnly: true,
      sameSite: 'lax' as const,
      secure: opts.cookieSecure,
      maxAge: Math.max(0, Math.floor(maxAgeMs / 1000)),
    })

    const deferred = new AccountMailJobs({
      db: opts.db,
      jobs: opts.jobs,
      service,
      box: new SecretBox(`${opts.secret}:account-mail`),
      send: (message, key) => sendMail(message, key),
      mailQueued: opts.mailQueued,
      delayMs: opts.deferMs ?? defaultAccountMailDelay,
    })

    const api: AuthApi = {
      service,
      altcha,
      deferred,
      onLogin: (fn) => void hooks.push(fn),
      onLogout: (fn) => void logoutHooks.push(fn),
      async login(request, reply, customerId, remember) {
        const previousSession = await rotate(request, true)
        sessionSet(request, SESSION.customerId, customerId)
        const row = await service.byId(customerId)
        sessionSet(request, SESSION.generation, row?.sessionGeneration ?? 0)
        reloadCustomer(request)
        if (remember) {
          const value = await service.createRememberToken(customerId, opts.rememberTtlMs)
          reply.setCookie(REMEMBER_COOKIE, value, cookieOptions(opts.rememberTtlMs))
        }
        for (const hook of hooks) await hook({ request, reply, customerId, previousSession })
        request.log.info({ customerId }, 'customer logged in')
      },
      async logout(request, reply, options = {}) {
        const remembered = request.cookies[REMEMBER_COOKIE]
        if (remembered) await service.forgetRememberToken(remembered)
        reply.clearCookie(REMEMBER_COOKIE, { path: '/' })
        const id = currentCustomerId(request)
        // Nothing of the old session is carried over but what the logout functions put back.
        const previousSession = await rotate(request, false)
        if (options.keepBasket)
          for (const hook of logoutHooks) await hook({ request, customerId: id, previousSession })
        // The browser's history holds encrypted personal pages: the next page clears it.
        request.inertia.clearHistory()
        if (id !== null) request.log.info({ customerId: id }, 'customer logged out')
      },
      async summary(request) {
        // The cached facts: a logged-in page reads no customer row (the preHandler checked them).
        const id = currentCustomerId(request)
        const c = id === null ? null : await service.factsOf(id)
        return c && c.siteId === request.site?.id
          ? { id: c.id, firstName: c.firstName, lastName: c.lastName, email: c.email }
          : null
      },
      botCheck(site) {
        if (site.settings.botCheck !== '1') return null
        if (
          site.settings.botCheckProvider === 'recaptcha' &&
          site.settings.recaptchaSiteKey &&
          opts.recaptchaSecret
        ) {
          const key = site.settings.recaptchaSiteKey
          let checker = recaptcha.get(key)
          if (!checker)
            recaptcha.set(key, (checker = new RecaptchaBotChecker(opts.db, key, opts.recaptchaSecret)))
          return checker
        }
        return altcha
      },
      deliver(request, message) {
        sendMail(message).catch((err: unknown) =>
          request.log.error({ err, to: message.to }, 'sending mail failed'),
        )
      },
    }
    app.decorate('auth', api)

    // A customer's facts changed (a new session generation: their other sessions were deleted):
    // this instance's cached sessions and facts are dropped at once, the other instances' on the bus.
    service.onCustomerChange = (id) => {
      app.sessionCache.forgetAll()
      opts.changes?.publish('customer', { id })
    }
    opts.changes?.on('customer', (p) => {
      if (typeof p.id === 'number') service.forgetCustomer(p.id)
      else service.forgetAllCustomers()
      app.sessionCache.forgetAll()
    })
    opts.changes?.onReset(() => service.forgetAllCustomers())

    // A session logged in before the account's password was reset is logged out here, on its next
    // request, whichever store holds it: the generation it logged in under is out of date.
    app.addHook('preHandler', async (request) => {
      if (currentCustomerId(request) === null) return
      const customer = await service.factsOf(currentCustomerId(request)!)
      const generation = sessionGet<number>(request, SESSION.generation) ?? 0
      if (customer && customer.sessionGeneration === generation) return
      sessionSet(request, SESSION.customerId, undefined)
      sessionSet(request, SESSION.generation, undefined)
      reloadCustomer(request)
    })

    // The back office reset this customer's two-factor (ADR 0277): until it is set up again, every
    // page of the shop leads to the set-up (and the password confirmation it may ask for first).
    app.addHook('preHandler', async (request, reply) => {
      const id = currentCustomerId(request)
      if (id === null || request.method !== 'GET' || !wantsPage(request)) return
      if (!(await service.factsOf(id))?.twoFactorSetupDue) return
      if (TWO_FACTOR_SETUP_PATHS.has(request.url.split('?')[0] ?? '')) return
      return reply.redirect('/customer/two-factor', 303)
    })

    // Remember-me: a visitor with the cookie and no session login is logged in again, once per
    // session, with the token rotated (a stolen, already-used token revokes them all).
    app.addHook('preHandler', async (request, reply) => {
      const value = request.cookies[REMEMBER_COOKIE]
      if (!value || !request.site || currentCustomerId(request) !== null) return
      // Only page loads and Inertia visits: parallel asset requests carrying the same cookie
      // would otherwise race to rotate it and look like a stolen token.
      if (request.method !== 'GET' || !wantsPage(request)) return
      if (sessionGet(request, SESSION.twoFactor)) return
      const used = await service.useRememberToken(value)
      const customer = used ? await service.byId(used.customerId) : null
      if (!used || !customer || customer.siteId !== request.site.id) {
        reply.clearCookie(REMEMBER_COOKIE, { path: '/' })
        return
      }
      const previousSession = await rotate(request, true)
      sessionSet(request, SESSION.customerId, customer.id)
      sessionSet(request, SESSION.generation, customer.sessionGeneration)
      reply.setCookie(REMEMBER_COOKIE, used.cookie, cookieOptions(used.expiresAt.getTime() - Date.now()))
      for (const hook of hooks) await hook({ request, reply, customerId: customer.id, previousSession })
      request.log.info({ customerId: customer.id }, 'customer logged in by remember-me')
    })
  },
  { name: 'shop-auth', dependencies: ['shop-session'] },
)
