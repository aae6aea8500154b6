/** What the auth routes share: the mail brand, flash status, body parsing, safe redirect paths. */
import { siteBaseUrl } from '../sites/site-url.ts'
import { sameSitePath } from '../../lib/same-site-path.ts'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { z } from 'zod'
import type { AuthStatus } from '../../../shared/auth.ts'
import { errorsFromIssues } from '../../inertia/session.ts'
import type { Site } from '../sites/sites.service.ts'
import type { MailBrand } from './auth.mail.ts'

/** Where a customer lands after logging in when nothing else was intended. */
export const HOME_AFTER_LOGIN = '/'

export function brandOf(request: FastifyRequest, site: Site): MailBrand {
  const base = siteBaseUrl(request, site)
  return {
    siteName: site.name,
    baseUrl: base,
    logoUrl: site.logo ? `${base}${site.logo}` : null,
    contactEmail: site.settings.contactEmail,
  }
}

/** Only same-site paths may be redirect targets. */
export const safePath = sameSitePath

export function status(request: FastifyRequest, message: string, type?: 'error'): void {
  const value: AuthStatus = type ? { message, type } : { message }
  request.inertia.flash('status', value)
}

/** Validates the body; on failure sets field errors and redirects back. */
export function parse<S extends z.ZodType>(
  request: FastifyRequest,
  reply: FastifyReply,
  schema: S,
  fallback: string,
): z.infer<S> | null {
  const parsed = schema.safeParse(request.body ?? {})
  if (parsed.success) return parsed.data
  request.inertia.setErrors(errorsFromIssues(parsed.error))
  void reply.inertia.back(fallback)
  return null
}
