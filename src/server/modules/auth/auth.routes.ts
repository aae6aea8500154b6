/**
 * Authentication routes (spec checkout-and-account.md §2, §7): log in and out, register (and
 * the club variant), forgot and reset password, e-mail verification, the two-factor challenge.
 * Every e-mail-taking endpoint answers known and unknown addresses identically. Confirm password
 * and two-factor set-up are in two-factor-setup.routes.ts.
 */
import { sameOriginReferer } from '../../inertia/plugin.ts'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { z } from 'zod'
import {
  AUTH_MESSAGES,
  clubRegisterSchema,
  fieldErrors,
  forgotPasswordSchema,
  loginSchema,
  registerSchema,
  resetPasswordSchema,
  twoFactorSchema,
} from '../../../shared/auth.ts'
import type { Site } from '../sites/sites.service.ts'
import { welcomeMail } from './auth.mail.ts'
import {
  currentCustomer,
  currentCustomerId,
  SESSION,
  sessionGet,
  sessionSet,
  TWO_FACTOR_PENDING_TTL_MS,
  type PendingTwoFactor,
} from './auth.session.ts'
import { RULES } from './throttle.ts'
import { BOT_FIELD, ALTCHA_CHALLENGE_PATH } from './bot-check.ts'
import { brandOf, HOME_AFTER_LOGIN, parse, safePath, status } from './auth.route-helpers.ts'
import { twoFactorSetupRoutes } from './two-factor-setup.routes.ts'

export interface AuthRoutesOptions {
  /**
   * The logged-in variant of `/customer/password/update` (no token: the account's change of
   * password), which the account module answers; the app passes it in.
   */
  accountPasswordUpdate: (
    app: FastifyInstance,
    request: FastifyRequest,
    reply: FastifyReply,
  ) => Promise<FastifyReply>
}

export async function authRoutes(app: FastifyInstance, opts: AuthRoutesOptions) {
  const { auth } = app

  async function requireBot(
    request: FastifyRequest,
    reply: FastifyReply,
    site: Site,
    fallback: string,
  ): Promise<boolean> {
    const checker = auth.botCheck(site)
    if (!checker) return true
    const token = (request.body as Record<string, unknown> | null)?.[BOT_FIELD]
    const verdict = await checker.verify(typeof token === 'string' ? token : undefined, request.ip)
    if (verdict.ok) return true
    request.inertia.setErrors({ [BOT_FIELD]: verdict.message })
    void reply.inertia.back(fallback)
    return false
  }

  const pageProps = (site: Site) => ({ botCheck: auth.botCheck(site)?.props() ?? null })

  /** Pages only for visitors: a logged-in customer goes on to the shop. */
  const guestOnly = (request: FastifyRequest, reply: FastifyReply): boolean => {
    if (currentCustomerId(request) === null) return false
    void reply.inertia.redirect(HOME_AFTER_LOGIN)
    return true
  }

  // --- log in / log out --------------------------------------------------------------

  app.get('/login', async (request, reply) => {
    if (!request.site) return reply.callNotFound()
    if (guestOnly(request, reply)) return reply
    const intended = safePath((request.query as Record<string, unknown>).intended)
    if (intended) sessionSet(request, SESSION.intended, intended)
    return reply.inertia.render('Auth/Login', { canResetPassword: true })
  })

  app.post('/login', { config: { rateLimit: { max: 30, timeWindow: 60_000 } } }, async (request, reply) => {
    const site = request.site
    if (!site) return reply.callNotFound()
    const input = parse(request, reply, loginSchema, '/login')
    if (!input) return reply
    const result = await auth.service.attemptLogin(site.id, input.email, input.password, request.ip)
    const goBack = input.redirect === false
    if (!result.ok) {
      const message =
        result.reason === 'throttled'
          ? AUTH_MESSAGES.throttled(result.retryAfter)
          : result.reason === 'disabled'
            ? AUTH_MESSAGES.disabled
            : AUTH_MESSAGES.credentials
      if (result.reason === 'throttled') reply.header('retry-after', String(result.retryAfter))
      request.log.info({ reason: result.reason }, 'login failed')
      request.inertia.setErrors({ email: message })
      return goBack ? reply.inertia.back('/login') : reply.inertia.redirect('/login')
    }
    const customer = result.customer
    if (auth.service.hasTwoFactor(customer)) {
      // Logging out drops the session's intended page: the challenge carries it on.
      const intended = goBack
        ? safePath(sameOriginReferer(request))
        : safePath(sessionGet<string>(request, SESSION.intended))
      await app.auth.logout(request, reply)
      const pending: PendingTwoFactor = {
        customerId: customer.id,
        remember: input.remember,
        redirect: !goBack,
        intended,
        expiresAt: Date.now() + TWO_FACTOR_PENDING_TTL_MS,
      }
      sessionSet(request, SESSION.twoFactor, pending)
      return reply.inertia.redirect('/two-factor-challenge')
    }
    const intended = sessionGet<string>(request, SESSION.intended)
    await auth.login(request, reply, customer.id, input.remember)
    if (customer.twoFactorResetAt) {
      // The back office reset their two-factor: set it up again first (the password was just
      // typed, so it counts as confirmed), with a new secret shown at once.
      sessionSet(request, SESSION.confirmedAt, Date.now())
      if (!auth.service.hasTwoFactor(customer)) await auth.service.startTwoFactor(customer)
      request.inertia.flash('success', AUTH_MESSAGES.twoFactorReset)
      return reply.inertia.redirect('/customer/two-factor')
    }
    if (goBack) return reply.inertia.back('/')
    if (!customer.emailVerifiedAt) return reply.inertia.redirect('/email/verify')
    return reply.inertia.redirect(safePath(intended) ?? HOME_AFTER_LOGIN)
  })

  app.post('/logout', async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>
    // redirect false: the checkout's 'Not you? Log Out', where the buyer goes on as a guest with
    // the basket (ADR 0136); any other logout ends the whole session.
    const stay = body.redirect === false || body.redirect === 'false'
    await auth.logout(request, reply, { keepBasket: stay })
    if (stay) return reply.inertia.back('/')
    return reply.inertia.redirect('/')
  })

  // --- two-factor challenge ----------------------------------------------------------

  const pendingOf = (request: FastifyRequest): PendingTwoFactor | null => {
    const p = sessionGet<PendingTwoFactor>(request, SESSION.twoFactor)
    return p && typeof p.customerId === 'number' && p.expiresAt > Date.now() ? p : null
  }

  app.get('/two-factor-challenge', async (request, reply) => {
    if (!request.site) return reply.callNotFound()
    if (!pendingOf(request)) return reply.inertia.redirect('/login')
    return reply.inertia.render('Auth/TwoFactorChallenge', {})
  })

  app.post(
    '/two-factor-challenge',
    { config: { rateLimit: { max: 20, timeWindow: 60_000 } } },
    async (request, reply) => {
      const site = request.site
      if (!site) return reply.callNotFound()
      const pending = pendingOf(request)
      if (!pending) {
        sessionSet(request, SESSION.twoFactor, undefined)
        request.inertia.setErrors({ email: AUTH_MESSAGES.twoFactorExpired })
        return reply.inertia.redirect('/login')
      }
      const input = parse(request, reply, twoFactorSchema, '/two-factor-challenge')
      if (!input) return reply
      const customer = await auth.service.byId(pending.customerId)
      const key = `2fa:${pending.customerId}`
      if (
        !customer ||
        !auth.service.hasTwoFactor(customer) ||
        (await auth.service.throttle.lockedFor(key)) > 0
      ) {
        sessionSet(request, SESSION.twoFactor, undefined)
        request.inertia.setErrors({ email: AUTH_MESSAGES.twoFactorLocked })
        return reply.inertia.redirect('/login')
      }
      const byRecovery = input.code === ''
      const ok = byRecovery
        ? await auth.service.useRecoveryCode(customer, input.recovery_code)
        : await auth.service.checkTotp(customer, input.code)
      if (!ok) {
        const r = await auth.service.throttle.fail(key, RULES.twoFactorPerAccount)
        request.log.warn({ customerId: customer.id, failures: r.failures }, 'two-factor code refused')
        if (r.lockedFor > 0) {
          sessionSet(request, SESSION.twoFactor, undefined)
          request.inertia.setErrors({ email: AUTH_MESSAGES.twoFactorLocked })
          return reply.inertia.redirect('/login')
        }
        request.inertia.setErrors(
          byRecovery
            ? { recovery_code: AUTH_MESSAGES.twoFactorRecovery }
            : { code: AUTH_MESSAGES.twoFactorCode },
        )
        return reply.inertia.redirect('/two-factor-challenge')
      }
      await auth.login(request, reply, customer.id, pending.remember)
      return reply.inertia.redirect(safePath(pending.intended) ?? HOME_AFTER_LOGIN)
    },
  )

  // --- registration --------------------------------------------------------------------

  app.get('/register', async (request, reply) => {
    if (!request.site) return reply.callNotFound()
    if (guestOnly(request, reply)) return reply
    return reply.inertia.render('Auth/Register', { variant: 'standard', ...pageProps(request.site) })
  })

  app.get('/register/club', async (request, reply) => {
    if (!request.site) return reply.callNotFound()
    if (guestOnly(request, reply)) return reply
    return reply.inertia.render('Auth/Register', { variant: 'club', ...pageProps(request.site) })
  })

  async function register(request: FastifyRequest, reply: FastifyReply, club: boolean) {
    const site = request.site
    if (!site) return reply.callNotFound()
    const back = club ? '/register/club' : '/register'
    const input = club
      ? parse(request, reply, clubRegisterSchema, back)
      : parse(request, reply, registerSchema, back)
    if (!input) return reply
    if (!(await requireBot(request, reply, site, back))) return reply
    const club_ = input as z.infer<typeof clubRegisterSchema>
    const brand = brandOf(request, site)
    // The one costly step (hashing the password) is done here for every address alike; whether
    // the address already has an account is first looked at in the account-mail job (ADR 0250).
    const passwordHash = await auth.service.hashFor(input.password)
    const details = {
      firstName: input.first_name,
      lastName: input.last_name,
      kind: club ? ('club' as const) : ('standard' as const),
      company: club ? club_.company : null,
      phone: club ? club_.phone : null,
      address1: club ? club_.shipping_address1 : null,
      town: club ? club_.shipping_town : null,
      postcode: club ? club_.shipping_postcode : null,
    }
    await auth.deferred.register(site.id, brand, input.email, passwordHash, details)
    // Identical for new and existing addresses: a fresh session that knows only which address
    // is waiting for its verification link.
    await auth.logout(request, reply)
    sessionSet(request, SESSION.pendingVerification, { siteId: site.id, email: input.email })
    return reply.inertia.redirect('/email/verify')
  }

  // Live validation (Precognition) checks the fields only: it never reaches register().
  const registerRoute = (schema: z.ZodType) => ({
    config: {
      rateLimit: { max: 10, timeWindow: 60_000 },
      precognition: (request: FastifyRequest) =>
        fieldErrors(schema, (request.body ?? {}) as Record<string, unknown>),
    },
  })
  app.post('/customer/create', registerRoute(registerSchema), (request, reply) =>
    register(request, reply, false),
  )
  app.post('/register/club', registerRoute(clubRegisterSchema), (request, reply) =>
    register(request, reply, true),
  )

  // --- e-mail verification -------------------------------------------------------------

  /** The address waiting for verification: the logged-in customer's, or the one just registered. */
  async function verificationTarget(request: FastifyRequest) {
    const customer = await currentCustomer(request)
    if (customer) return { email: customer.email, verified: customer.emailVerifiedAt !== null }
    const pending = sessionGet<{ siteId: number; email: string }>(request, SESSION.pendingVerification)
    if (pending && pending.siteId === request.site?.id) return { email: pending.email, verified: false }
    return null
  }

  app.get('/email/verify', async (request, reply) => {
    if (!request.site) return reply.callNotFound()
    const target = await verificationTarget(request)
    if (!target) return reply.inertia.redirect('/login')
    if (target.verified) return reply.inertia.redirect(HOME_AFTER_LOGIN)
    return reply.inertia.render('Auth/VerifyEmail', { email: target.email })
  })

  app.post(
    '/email/verification-notification',
    { config: { rateLimit: { max: 10, timeWindow: 60_000 } } },
    async (request, reply) => {
      const site = request.site
      if (!site) return reply.callNotFound()
      const target = await verificationTarget(request)
      if (!target) return reply.inertia.redirect('/login')
      if (target.verified) return reply.inertia.redirect(HOME_AFTER_LOGIN)
      // Looked up off the response path, in a job (ADR 0250): the answer is the same whether or
      // not the address has an account, and takes the same time.
      const brand = brandOf(request, site)
      await auth.deferred.resendVerification(site.id, brand, target.email)
      request.inertia.flash('status', 'verification-link-sent')
      return reply.inertia.redirect('/email/verify')
    },
  )

  /** The customer id and token of a verification link, or null when they cannot be one. */
  function linkParams(request: FastifyRequest): { customerId: number; token: string } | null {
    const { id, token } = request.params as { id: string; token: string }
    const customerId = /^\d{1,9}$/.test(id) ? Number(id) : 0
    return customerId && token.length > 0 && token.length <= 100 ? { customerId, token } : null
  }

  // Opening the link (a GET) changes nothing: it asks for a click. A mail scanner or a link
  // planted by someone else can neither verify an address nor log anybody in.
  app.get(
    '/email/verify/:id/:token',
    { config: { rateLimit: { max: 20, timeWindow: 60_000 } } },
    async (request, reply) => {
      if (!request.site) return reply.callNotFound()
      const params = linkParams(request)
      if (!params) {
        request.inertia.flash('error', AUTH_MESSAGES.verificationInvalid)
        return reply.inertia.redirect(currentCustomerId(request) ? '/email/verify' : '/login')
      }
      return reply.inertia.render('Auth/ConfirmEmail', {
        action: `/email/verify/${params.customerId}/${encodeURIComponent(params.token)}`,
      })
    },
  )

  app.post(
    '/email/verify/:id/:token',
    { config: { rateLimit: { max: 20, timeWindow: 60_000 } } },
    async (request, reply) => {
      const site = request.site
      if (!site) return reply.callNotFound()
      const params = linkParams(request)
      const owner = params ? await auth.service.byId(params.customerId) : null
      // A link of another brand is refused before its token is looked at, so it stays usable there.
      const customer =
        params && owner && owner.siteId === site.id
          ? await auth.service.verifyEmail(params.customerId, params.token)
          : null
      if (!owner || !customer) {
        request.inertia.flash('error', AUTH_MESSAGES.verificationInvalid)
        return reply.inertia.redirect(currentCustomerId(request) ? '/email/verify' : '/login')
      }
      if (!owner.emailVerifiedAt) {
        const brand = brandOf(request, site)
        auth.deliver(
          request,
          welcomeMail(brand, customer.email, customer.firstName, `${brand.baseUrl}/customer`),
        )
      }
      if (currentCustomerId(request) === customer.id)
        sessionSet(request, SESSION.pendingVerification, undefined)
      // Nobody is logged in by a link: the customer logs in as usual (or is already). The Log In
      // page shows its status message; other pages the success box.
      if (currentCustomerId(request) === customer.id) {
        request.inertia.flash('success', AUTH_MESSAGES.verified)
        return reply.inertia.redirect(HOME_AFTER_LOGIN)
      }
      status(request, AUTH_MESSAGES.verified)
      return reply.inertia.redirect('/login')
    },
  )

  // --- forgot and reset password -------------------------------------------------------

  app.get('/forgot-password', async (request, reply) => {
    if (!request.site) return reply.callNotFound()
    return reply.inertia.render('Auth/ForgotPassword', pageProps(request.site))
  })

  app.post(
    '/forgot-password',
    { config: { rateLimit: { max: 10, timeWindow: 60_000 } } },
    async (request, reply) => {
      const site = request.site
      if (!site) return reply.callNotFound()
      const input = parse(request, reply, forgotPasswordSchema, '/forgot-password')
      if (!input) return reply
      if (!(await requireBot(request, reply, site, '/forgot-password'))) return reply
      const ipLimit = await auth.service.throttle.fail(`mail:ip:${request.ip}`, RULES.mailPerIp)
      if (ipLimit.lockedFor > 0 && ipLimit.failures > RULES.mailPerIp.max) {
        reply.header('retry-after', String(ipLimit.lockedFor))
        request.inertia.setErrors({ email: AUTH_MESSAGES.resetThrottled(ipLimit.lockedFor) })
        return reply.inertia.redirect('/forgot-password')
      }
      // The token and the e-mail are made off the response path, in a job (ADR 0250): a known
      // and an unknown address get the same answer after the same work, so timing tells them apart no better than chance
      // (`npm run bench` measures it with scripts/bench/forgot-timing.ts).
      await auth.deferred.forgotPassword(site.id, brandOf(request, site), input.email)
      status(request, AUTH_MESSAGES.resetLinkSent)
      return reply.inertia.redirect('/forgot-password')
    },
  )

  app.get('/reset-password', async (request, reply) => {
    if (!request.site) return reply.callNotFound()
    const q = request.query as Record<string, unknown>
    reply.header('referrer-policy', 'no-referrer')
    return reply.inertia.render('Auth/ResetPassword', {
      email: typeof q.email === 'string' ? q.email.slice(0, 255) : '',
      token: typeof q.token === 'string' ? q.token.slice(0, 200) : '',
    })
  })

  app.post(
    '/customer/password/update',
    { config: { rateLimit: { max: 10, timeWindow: 60_000 } } },
    async (request, reply) => {
      const site = request.site
      if (!site) return reply.callNotFound()
      const body = (request.body ?? {}) as Record<string, unknown>
      // The account variant (no token): a logged-in customer changing their password.
      if (body.token === undefined && currentCustomerId(request) !== null)
        return opts.accountPasswordUpdate(app, request, reply)
      const back = `/reset-password?${new URLSearchParams({
        token: typeof body.token === 'string' ? body.token.slice(0, 200) : '',
        email: typeof body.email === 'string' ? body.email.slice(0, 255) : '',
      })}`
      const input = parse(request, reply, resetPasswordSchema, back)
      if (!input) return reply
      const customer = await auth.service.resetPassword(site.id, input.email, input.token, input.password)
      if (!customer) {
        status(request, AUTH_MESSAGES.resetInvalid, 'error')
        return reply.inertia.redirect(back)
      }
      request.log.info({ customerId: customer.id }, 'password reset')
      // Never logged in automatically: the next login asks for the password (and two-factor).
      await auth.logout(request, reply)
      status(request, AUTH_MESSAGES.resetDone)
      return reply.inertia.redirect('/login')
    },
  )

  await twoFactorSetupRoutes(app)

  // --- bot check challenge (ALTCHA) ----------------------------------------------------

  app.get(
    ALTCHA_CHALLENGE_PATH,
    { config: { rateLimit: { max: 30, timeWindow: 60_000 } } },
    async (request, reply) => {
      if (!request.site || auth.botCheck(request.site) !== auth.altcha) return reply.callNotFound()
      reply.header('cache-control', 'no-store')
      return auth.altcha.challenge()
    },
  )
}
