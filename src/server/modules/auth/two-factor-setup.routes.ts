/**
 * Confirm password and the account's two-factor set-up behind it (spec checkout-and-account.md
 * §7): turning two-factor on with a code, new recovery codes, turning it off.
 */
import { accountGreeting } from '../../../shared/account.ts'
import { sanitizeQrSvg } from '../../lib/sanitize.ts'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { AUTH_MESSAGES, confirmPasswordSchema, twoFactorConfirmSchema } from '../../../shared/auth.ts'
import {
  CONFIRM_PASSWORD_TTL_MS,
  currentCustomer,
  currentCustomerId,
  SESSION,
  sessionGet,
  sessionSet,
} from './auth.session.ts'
import { RULES } from './throttle.ts'
import { HOME_AFTER_LOGIN, parse, safePath } from './auth.route-helpers.ts'

export async function twoFactorSetupRoutes(app: FastifyInstance) {
  const { auth } = app

  // --- confirm password ----------------------------------------------------------------

  app.get('/user/confirm-password', async (request, reply) => {
    if (!request.site) return reply.callNotFound()
    if (currentCustomerId(request) === null) return reply.inertia.redirect('/login')
    return reply.inertia.render('Auth/ConfirmPassword', {})
  })

  app.post(
    '/user/confirm-password',
    { config: { rateLimit: { max: 10, timeWindow: 60_000 } } },
    async (request, reply) => {
      const customer = await currentCustomer(request)
      if (!customer) return reply.inertia.redirect('/login')
      const input = parse(request, reply, confirmPasswordSchema, '/user/confirm-password')
      if (!input) return reply
      const key = `confirm:${customer.id}`
      const locked = await auth.service.throttle.lockedFor(key)
      if (locked > 0 || !(await auth.service.checkPassword(customer, input.password))) {
        if (locked === 0) await auth.service.throttle.fail(key, RULES.loginPerAccountAndIp)
        request.inertia.setErrors({
          password: locked > 0 ? AUTH_MESSAGES.throttled(locked) : AUTH_MESSAGES.wrongPassword,
        })
        return reply.inertia.redirect('/user/confirm-password')
      }
      await auth.service.throttle.clear(key)
      sessionSet(request, SESSION.confirmedAt, Date.now())
      const intended = safePath(sessionGet<string>(request, SESSION.intended))
      sessionSet(request, SESSION.intended, undefined)
      return reply.inertia.redirect(intended ?? HOME_AFTER_LOGIN)
    },
  )

  // --- two-factor set-up (account, behind confirm-password) ----------------------------

  /** Logged in and password confirmed within 3 hours, else redirected (returns null). */
  async function gate(request: FastifyRequest, reply: FastifyReply, here: string) {
    const customer = await currentCustomer(request)
    if (!customer) {
      sessionSet(request, SESSION.intended, here)
      void reply.inertia.redirect('/login')
      return null
    }
    const at = sessionGet<number>(request, SESSION.confirmedAt)
    if (typeof at !== 'number' || Date.now() - at > CONFIRM_PASSWORD_TTL_MS) {
      sessionSet(request, SESSION.intended, here)
      void reply.inertia.redirect('/user/confirm-password')
      return null
    }
    return customer
  }

  app.get('/customer/two-factor', async (request, reply) => {
    const site = request.site
    if (!site) return reply.callNotFound()
    const customer = await gate(request, reply, '/customer/two-factor')
    if (!customer) return reply
    const enabled = auth.service.hasTwoFactor(customer)
    const uri = !enabled ? auth.service.otpauthUri(customer, site.name) : null
    return reply.inertia.render('Customer/TwoFactor', {
      greeting: accountGreeting(customer),
      enabled,
      settingUp: uri !== null,
      qrCode: uri
        ? sanitizeQrSvg(await (await import('qrcode')).default.toString(uri, { type: 'svg', margin: 1 }))
        : null,
      secret: uri ? auth.service.secretOf(customer) : null,
      recoveryCodesLeft: enabled ? await auth.service.unusedRecoveryCodeCount(customer.id) : 0,
    })
  })

  app.post('/customer/two-factor', async (request, reply) => {
    const customer = await gate(request, reply, '/customer/two-factor')
    if (!customer) return reply
    if (!auth.service.hasTwoFactor(customer)) await auth.service.startTwoFactor(customer)
    return reply.inertia.redirect('/customer/two-factor')
  })

  app.post(
    '/customer/two-factor/confirm',
    { config: { rateLimit: { max: 10, timeWindow: 60_000 } } },
    async (request, reply) => {
      const customer = await gate(request, reply, '/customer/two-factor')
      if (!customer) return reply
      const input = parse(request, reply, twoFactorConfirmSchema, '/customer/two-factor')
      if (!input) return reply
      const codes = auth.service.hasTwoFactor(customer)
        ? null
        : await auth.service.confirmTwoFactor(customer, input.code)
      if (!codes) {
        request.inertia.setErrors({ code: AUTH_MESSAGES.twoFactorCode })
        return reply.inertia.redirect('/customer/two-factor')
      }
      request.log.info({ customerId: customer.id }, 'two-factor enabled')
      request.inertia.flash({ success: 'Two-factor authentication is now on.', recoveryCodes: codes })
      return reply.inertia.redirect('/customer/two-factor')
    },
  )

  app.post('/customer/two-factor/recovery-codes', async (request, reply) => {
    const customer = await gate(request, reply, '/customer/two-factor')
    if (!customer) return reply
    if (!auth.service.hasTwoFactor(customer)) return reply.inertia.redirect('/customer/two-factor')
    const codes = await auth.service.replaceRecoveryCodes(customer.id)
    request.inertia.flash({
      success: 'New recovery codes created; the old ones no longer work.',
      recoveryCodes: codes,
    })
    return reply.inertia.redirect('/customer/two-factor')
  })

  app.delete('/customer/two-factor', async (request, reply) => {
    const customer = await gate(request, reply, '/customer/two-factor')
    if (!customer) return reply
    await auth.service.disableTwoFactor(customer)
    request.log.info({ customerId: customer.id }, 'two-factor disabled')
    request.inertia.flash('success', 'Two-factor authentication is now off.')
    return reply.inertia.redirect('/customer/two-factor', 303)
  })
}
