/**
 * The welcome e-mail for an account a PayPal or Amazon checkout created (ADR 0074, 0147): a
 * set-password link built by the shop from a fresh reset token (single use, 60 minutes) and the
 * order's number, in its own wording. The password reset mail is for people who asked for one.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { OrderData } from '../../../shared/checkout.ts'
import { siteBaseUrl } from '../sites/site-url.ts'
import { accountCreatedMail } from './auth.mail.ts'

export async function sendAccountCreatedMail(
  app: FastifyInstance,
  request: FastifyRequest,
  order: Pick<OrderData, 'OrderNumber' | 'contactDetails'>,
): Promise<void> {
  const site = request.site
  if (!site) return
  const issued = await app.auth.service.issueResetToken(site.id, order.contactDetails.email)
  if (!issued) return
  const base = siteBaseUrl(request)
  const query = new URLSearchParams({ token: issued.token, email: issued.customer.email })
  app.auth.deliver(
    request,
    accountCreatedMail(
      {
        siteName: site.name,
        baseUrl: base,
        logoUrl: site.logo ? `${base}${site.logo}` : null,
        contactEmail: site.settings.contactEmail,
      },
      issued.customer.email,
      issued.customer.firstName,
      order.OrderNumber,
      `${base}/reset-password?${query}`,
    ),
  )
}
