import { text } from '../../../shared/text.ts'
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { upsertSubscription } from './newsletter.queries.ts'

/** The wording stored with a subscription when the block sets none. */
export const DEFAULT_CONSENT =
  'Sign up to our newsletter for offers and news. You can unsubscribe at any time.'

export const newsletterMessages = {
  emailRequired: 'Please enter your email address.',
  emailInvalid: 'Please enter a valid email address.',
  firstNameRequired: 'Please enter your first name.',
  tooLong: 'This is too long.',
}

const bodySchema = z.object({
  email: text().trim().max(254, newsletterMessages.tooLong).optional().default(''),
  firstName: text().trim().max(100, newsletterMessages.tooLong).optional().default(''),
  /** The newsletter block's _uid: its settings (firstNameRequired, wording) apply */
  block: text().max(64).optional().default(''),
  /** The page the form was on */
  source: text().max(300).optional().default(''),
})

/**
 * `POST /newsletter/subscribe` (firstName, email): 200 on success; 422 with field messages when
 * the email is missing or invalid, or the first name is missing and the block requires it.
 * Signing up again updates the name, consent time and wording.
 */
export async function newsletterRoutes(app: FastifyInstance) {
  app.post(
    '/newsletter/subscribe',
    { config: { rateLimit: { max: 10, timeWindow: 60_000 } } },
    async (request, reply) => {
      const site = request.site
      if (!site) return reply.code(404).send({ message: 'Not Found' })
      const parsed = bodySchema.safeParse(request.body ?? {})
      if (!parsed.success) {
        const errors: Record<string, string> = {}
        for (const issue of parsed.error.issues) errors[String(issue.path[0])] ??= issue.message
        return reply.code(422).send({ message: 'The given data was invalid.', errors })
      }
      const { email, firstName, block, source } = parsed.data
      const settings = block ? await app.content.newsletterBlock(site.id, block) : null
      const errors: Record<string, string> = {}
      if (email === '') errors.email = newsletterMessages.emailRequired
      else if (!z.email().safeParse(email).success) errors.email = newsletterMessages.emailInvalid
      if (settings?.firstNameRequired && firstName === '')
        errors.firstName = newsletterMessages.firstNameRequired
      if (Object.keys(errors).length)
        return reply.code(422).send({ message: 'The given data was invalid.', errors })
      const values = {
        siteId: site.id,
        email: email.toLowerCase(),
        firstName,
        consentText: settings?.consentText || DEFAULT_CONSENT,
        source: source.startsWith('/') ? source : '',
      }
      await upsertSubscription(app.db, values)
      return reply.send({ message: 'Signed up' })
    },
  )
}
