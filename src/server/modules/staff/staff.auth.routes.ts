/**
 * Signing in to the back office (ADR 0260): e-mail and password (throttled as for customers),
 * then a code from the authenticator app; an account without two-factor sets it up before it
 * can do anything else. An invitation's link sets the password and goes on to that set-up.
 * Pages post to their own address and are answered with the page again (errors) or a redirect.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { z } from 'zod'
import { AUTH_MESSAGES } from '../../../shared/auth.ts'
import { acceptInvitationSchema, staffLoginSchema, staffTwoFactorSchema } from '../../../shared/staff.ts'
import { sanitizeQrSvg } from '../../lib/sanitize.ts'
import { ADMIN_PATH, actorOf, guard, renderAdmin, type AdminHttp } from './staff.http.ts'
import type { StaffService } from './staff.service.ts'

/** Field → first message, for a page's `errors` prop. */
export function issues(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {}
  for (const i of error.issues) {
    const key = String(i.path[0] ?? 'form')
    out[key] ??= i.message
  }
  return out
}

const LOGIN_LIMIT = { rateLimit: { max: 30, timeWindow: 60_000 } }

export async function staffAuthRoutes(app: FastifyInstance, opts: { staff: StaffService; http: AdminHttp }) {
  const { staff, http } = opts

  const afterPassword = (twoFactorOn: boolean) =>
    twoFactorOn ? `${ADMIN_PATH}/two-factor` : `${ADMIN_PATH}/two-factor/setup`

  app.get(ADMIN_PATH, guard('orders.view'), async (_request, reply) =>
    reply.redirect(`${ADMIN_PATH}/orders`, 303),
  )

  // --- sign in -----------------------------------------------------------------------------

  app.get(`${ADMIN_PATH}/login`, guard('anonymous'), async (request, reply) => {
    if (request.staff?.session.stage === 'full') return reply.redirect(`${ADMIN_PATH}/orders`, 303)
    return renderAdmin(request, reply, 'admin/Login', { email: '' })
  })

  app.post(`${ADMIN_PATH}/login`, guard('anonymous', { config: LOGIN_LIMIT }), async (request, reply) => {
    const parsed = staffLoginSchema.safeParse(request.body ?? {})
    if (!parsed.success)
      return renderAdmin(request, reply, 'admin/Login', { errors: issues(parsed.error), email: '' }, 422)
    const { email, password } = parsed.data
    const result = await staff.login(email, password, request.ip)
    if (!result.ok) {
      const message =
        result.reason === 'throttled' ? AUTH_MESSAGES.throttled(result.retryAfter) : AUTH_MESSAGES.credentials
      return renderAdmin(
        request,
        reply,
        'admin/Login',
        { errors: { email: message }, email },
        result.reason === 'throttled' ? 429 : 422,
      )
    }
    const old = http.sessionToken(request)
    if (old) await staff.sessions.end(old)
    // Expired sessions of anyone are deleted at each sign-in: one statement, safe on every
    // instance at once (no timer in any process).
    await staff.sessions.sweep()
    const twoFactorOn = result.user.twoFactorConfirmedAt !== null
    const token = await staff.sessions.create(result.user.id, twoFactorOn ? 'challenge' : 'setup', request.ip)
    http.setSession(request, reply, token)
    return reply.redirect(afterPassword(twoFactorOn), 303)
  })

  app.post(`${ADMIN_PATH}/logout`, guard('signed-in'), async (request, reply) => {
    const token = http.sessionToken(request)
    if (token) await staff.sessions.end(token)
    http.clearSession(request, reply)
    return reply.redirect(`${ADMIN_PATH}/login`, 303)
  })

  // --- two-factor: the code at each sign-in --------------------------------------------------

  app.get(`${ADMIN_PATH}/two-factor`, guard('challenge'), async (request, reply) =>
    renderAdmin(request, reply, 'admin/TwoFactorChallenge', {}),
  )

  app.post(
    `${ADMIN_PATH}/two-factor`,
    guard('challenge', { config: LOGIN_LIMIT }),
    async (request, reply) => {
      const live = request.staff!
      const parsed = staffTwoFactorSchema.safeParse(request.body ?? {})
      if (!parsed.success)
        return renderAdmin(request, reply, 'admin/TwoFactorChallenge', { errors: issues(parsed.error) }, 422)
      const checked = await staff.checkTotp(live.user, parsed.data.code)
      if (!checked.ok) {
        const message = checked.retryAfter > 0 ? AUTH_MESSAGES.twoFactorLocked : AUTH_MESSAGES.twoFactorCode
        return renderAdmin(request, reply, 'admin/TwoFactorChallenge', { errors: { code: message } }, 422)
      }
      return finishLogin(request, reply)
    },
  )

  /** The session moves to `full` under a new token (the one from before the code is worthless). */
  async function finishLogin(request: FastifyRequest, reply: FastifyReply) {
    const next = await staff.sessions.advance(http.sessionToken(request)!, 'full')
    if (!next) return reply.redirect(`${ADMIN_PATH}/login`, 303)
    http.setSession(request, reply, next)
    return reply.redirect(`${ADMIN_PATH}/orders`, 303)
  }

  // --- two-factor: the set-up, required before anything else ---------------------------------

  async function setupPage(
    request: FastifyRequest,
    reply: FastifyReply,
    errors: Record<string, string> = {},
  ) {
    let user = request.staff!.user
    if (!user.twoFactorSecret) {
      await staff.startTwoFactor(user)
      user = (await staff.byId(user.id)) ?? user
    }
    const uri = staff.otpauthUri(user)
    const secret = staff.secretOf(user)
    const qr = uri
      ? sanitizeQrSvg(await (await import('qrcode')).default.toString(uri, { type: 'svg', margin: 1 }))
      : null
    return renderAdmin(
      request,
      reply,
      'admin/TwoFactorSetup',
      { qrCode: qr, secret, errors },
      Object.keys(errors).length ? 422 : 200,
    )
  }

  app.get(`${ADMIN_PATH}/two-factor/setup`, guard('setup'), async (request, reply) =>
    setupPage(request, reply),
  )

  app.post(
    `${ADMIN_PATH}/two-factor/setup`,
    guard('setup', { config: LOGIN_LIMIT }),
    async (request, reply) => {
      const live = request.staff!
      const parsed = staffTwoFactorSchema.safeParse(request.body ?? {})
      if (!parsed.success) return setupPage(request, reply, issues(parsed.error))
      const confirmed = await staff.confirmTwoFactor(live.user, parsed.data.code, actorOf(request))
      if (!confirmed.ok)
        return setupPage(request, reply, {
          code: confirmed.retryAfter > 0 ? AUTH_MESSAGES.twoFactorLocked : AUTH_MESSAGES.twoFactorCode,
        })
      return finishLogin(request, reply)
    },
  )

  // --- invitations ---------------------------------------------------------------------------

  const invitationPage = async (request: FastifyRequest, reply: FastifyReply, token: string, errors = {}) => {
    const inv = await staff.openInvitation(token)
    if (!inv)
      return renderAdmin(
        request,
        reply,
        'admin/AcceptInvitation',
        { invitation: null, token: '', errors },
        404,
      )
    return renderAdmin(
      request,
      reply,
      'admin/AcceptInvitation',
      { invitation: { email: inv.email, name: inv.name, role: inv.role }, token, errors },
      Object.keys(errors).length ? 422 : 200,
    )
  }

  app.get<{ Params: { token: string } }>(
    `${ADMIN_PATH}/invitations/:token`,
    guard('anonymous'),
    async (request, reply) => invitationPage(request, reply, request.params.token),
  )

  app.post<{ Params: { token: string } }>(
    `${ADMIN_PATH}/invitations/:token`,
    guard('anonymous', { config: LOGIN_LIMIT }),
    async (request, reply) => {
      const { token } = request.params
      const parsed = acceptInvitationSchema.safeParse(request.body ?? {})
      if (!parsed.success) return invitationPage(request, reply, token, issues(parsed.error))
      const user = await staff.acceptInvitation(token, parsed.data.password, request.ip)
      if (!user) return invitationPage(request, reply, token)
      const old = http.sessionToken(request)
      if (old) await staff.sessions.end(old)
      const session = await staff.sessions.create(user.id, 'setup', request.ip)
      http.setSession(request, reply, session)
      return reply.redirect(`${ADMIN_PATH}/two-factor/setup`, 303)
    },
  )
}
