/** GET /customers: the customers feed (ADR 0220); the standing actions are staff/api.customers-standing.routes.ts. */
import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { ADDRESS_TYPES } from '../../../shared/customer.ts'
import { customersFeed } from './admin.customers.ts'
import { afterParam, limitParam, pageMeta } from './admin.feed.ts'
import { rowErrorsAnswer, securedAnswers, standingAnswer } from './admin.schemas.ts'

const customer = z.object({
  id: z.number().int(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  company: z.string().nullable(),
  kind: z.enum(['standard', 'club']),
  externalKey: z.string().nullable().describe("The ERP's key for this customer, if it set one"),
  registered: z.boolean().describe('False for a guest made by a checkout (no password)'),
  emailVerified: z.boolean(),
  registerDate: z.string().nullable(),
  standing: standingAnswer,
  updatedAt: z.string(),
  changeSeq: z.number().int().describe('The change sequence number of this version of the customer'),
  contacts: z.array(
    z.object({
      id: z.number().int(),
      firstName: z.string(),
      lastName: z.string(),
      email: z.string(),
      phone: z.string(),
      company: z.string(),
      primary: z.boolean(),
    }),
  ),
  addresses: z.array(
    z.object({
      id: z.number().int(),
      type: z.enum(ADDRESS_TYPES),
      company: z.string(),
      address1: z.string(),
      address2: z.string(),
      town: z.string(),
      county: z.string(),
      postcode: z.string(),
      country: z.string(),
      primary: z.boolean(),
    }),
  ),
})

export async function adminCustomerRoutes(app: FastifyInstance) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/customers',
    {
      config: { csrf: false },
      schema: {
        summary:
          "The site's customers in change order (a customer comes again after each change to it, its contacts or its addresses); poll with after=next_cursor",
        security: [{ bearer: [] }],
        querystring: z.object({ after: afterParam, limit: limitParam }),
        response: {
          200: z.object({ customers: z.array(customer), ...pageMeta }).describe('One page of the feed'),
          ...securedAnswers,
          422: rowErrorsAnswer,
        },
      },
    },
    async (request) => customersFeed(app.db, request.adminToken!.siteId, request.query),
  )
}
