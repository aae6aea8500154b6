/**
 * A customer's sign-in from the integration API (ADR 0220; issue 34: the back office does nothing
 * the API cannot): disable, enable again, reset two-factor, each through the same service and
 * audit row as the back office's customer page (auth/account-standing.ts), with the token's name
 * as the actor. Another site's customer is 404; a change the account's standing does not allow
 * (already disabled, no two-factor to reset) is 409 and changes nothing. Every write needs an
 * Idempotency-Key: a repeat answers the first answer.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { DomainError } from '../../lib/domain-error.ts'
import { AccountStanding, STANDING_DONE, standingOf, type StandingChange } from './account-standing.ts'
import type { Actor } from './staff.audit.ts'
import { IDEMPOTENCY_MESSAGES } from '../admin/admin.idempotency.ts'
import { messageAnswer, rowErrorsAnswer, securedAnswers, standingAnswer } from '../admin/admin.schemas.ts'

/** What the staff may change of a customer's sign-in; never a secret. */

/** The audit log's actor for a token's change: its name, marked as a token's. */
export const tokenActor = (request: FastifyRequest): Actor => ({
  id: null,
  email: `token:${request.adminToken!.name}`,
  ip: request.ip,
})

/** The headers of a write that must carry an Idempotency-Key (and no If-Match). */
export const keyedWriteHeaders = z
  .object({
    'idempotency-key': z
      .string({ error: IDEMPOTENCY_MESSAGES.required })
      .describe('A new unique key per change (e.g. a UUID); a repeat answers the first answer'),
  })
  .loose()

const customerIdParam = z.object({
  id: z.coerce
    .number({ error: 'must be a customer id' })
    .int('must be a customer id')
    .min(1, 'must be a customer id')
    .max(2_147_483_647, 'must be a customer id')
    .meta({ examples: [1] }),
})

const changedAnswer = z
  .object({
    id: z.number().int(),
    email: z.string(),
    standing: standingAnswer,
    message: z.string().describe('What changed, in words'),
  })
  .describe('Changed and audited; the customers feed shows the customer again')

const standingWriteAnswers = {
  200: changedAnswer,
  ...securedAnswers,
  400: messageAnswer('No Idempotency-Key, or an ill-formed one'),
  404: messageAnswer('No such customer on this site'),
  409: messageAnswer(
    "The customer's standing does not allow this change (the message says why), or the key is in use",
  ),
  422: rowErrorsAnswer,
}

const CHANGES: { path: string; change: StandingChange; summary: string }[] = [
  {
    path: 'disable',
    change: 'disable',
    summary: "Disable a customer's account: their sessions end and they cannot sign in",
  },
  {
    path: 'enable',
    change: 'enable',
    summary: 'Enable a disabled account again: the customer can sign in',
  },
  {
    path: 'reset-two-factor',
    change: 'reset_two_factor',
    summary:
      "Reset a customer's two-factor (a lost phone): their sessions end and they set it up again at their next sign-in",
  },
]

export async function adminCustomerStandingRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>()
  const standing = new AccountStanding(app.db, app.auth.service)

  for (const { path, change, summary } of CHANGES)
    api.post(
      `/customers/:id/${path}`,
      {
        config: { csrf: false, idempotencyKey: 'required' },
        schema: {
          summary,
          security: [{ bearer: [] }],
          headers: keyedWriteHeaders,
          params: customerIdParam,
          response: standingWriteAnswers,
        },
      },
      async (request, reply) => {
        const id = request.params.id
        try {
          const row = await standing.changeAudited(tokenActor(request), id, change, {
            siteId: request.adminToken!.siteId,
          })
          request.log.info({ customerId: id, change }, 'admin API: customer sign-in changed')
          return { id: row.id, email: row.email, standing: standingOf(row), message: STANDING_DONE[change] }
        } catch (err) {
          if (!(err instanceof DomainError)) throw err
          if (err.code === 'not_found') return reply.code(404).send({ message: err.message })
          // The account as it is does not allow the change: nothing changed.
          return reply.code(409).send({ message: err.message })
        }
      },
    )
}
