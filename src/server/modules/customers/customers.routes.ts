/**
 * `POST` and `PATCH /customer/update-contact` (spec §7): the logged-in customer's contacts and
 * addresses. JSON in, JSON out: `{ message, user }` with the reloaded customer data, 422
 * `{ message, errors }` for bad input (nothing written), 404 for an id that is not the customer's,
 * 401 without a login.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { z } from 'zod'
import {
  addressDataSchema,
  contactDataSchema,
  CUSTOMER_TEXT,
  updateContactPatchSchema,
  updateContactPostSchema,
  type AddressData,
  type AddressType,
  type ContactData,
  type Section,
} from '../../../shared/customer.ts'
import { fieldErrors } from '../../../shared/cart.schemas.ts'
import { currentCustomer } from '../auth/auth.session.ts'
import type { CustomerRow } from '../auth/auth.tables.ts'
import type { Site } from '../sites/sites.service.ts'
import { CustomerNotFoundError, CustomerValidationError } from './customers.service.ts'

function unprocessable(reply: FastifyReply, errors: Record<string, string[]>) {
  return reply.code(422).send({ message: Object.values(errors)[0]?.[0] ?? CUSTOMER_TEXT.failed, errors })
}

function parse<S extends z.ZodType>(
  schema: S,
  body: unknown,
  reply: FastifyReply,
  prefix = '',
): z.output<S> | null {
  const result = schema.safeParse(body ?? {})
  if (result.success) return result.data
  const errors = fieldErrors(result.error)
  void unprocessable(
    reply,
    prefix ? Object.fromEntries(Object.entries(errors).map(([k, v]) => [`${prefix}.${k}`, v])) : errors,
  )
  return null
}

/** The entry data for a section, checked with the account rules and the site's country list. */
export function sectionData(
  site: Site,
  customer: Pick<CustomerRow, 'kind'>,
  section: Section,
  data: unknown,
  reply: FastifyReply,
): ContactData | AddressData | null {
  if (section === 'contact') return parse(contactDataSchema, data, reply, 'data')
  const parsed = parse(addressDataSchema(section, { club: customer.kind === 'club' }), data, reply, 'data')
  if (!parsed) return null
  if (!countryAllowed(site, section, parsed.country)) {
    void unprocessable(reply, { 'data.country': [CUSTOMER_TEXT.countryNotAllowed] })
    return null
  }
  return parsed
}

export function countryAllowed(site: Site, type: AddressType, country: string): boolean {
  if (country === '' && type === 'billing') return true
  return site.settings.countries.some((c) => c.code === country)
}

export async function customerRoutes(app: FastifyInstance) {
  const service = app.customers

  async function owner(request: FastifyRequest, reply: FastifyReply): Promise<CustomerRow | null> {
    if (!request.site) {
      void reply.callNotFound()
      return null
    }
    const customer = await currentCustomer(request)
    if (!customer) void reply.code(401).send({ message: CUSTOMER_TEXT.loginRequired })
    return customer
  }

  async function done(reply: FastifyReply, customerId: number) {
    return reply.send({ message: CUSTOMER_TEXT.edited, user: await service.data(customerId) })
  }

  async function guarded(reply: FastifyReply, run: () => Promise<unknown>): Promise<boolean> {
    try {
      await run()
      return true
    } catch (err) {
      if (err instanceof CustomerNotFoundError) void reply.code(404).send({ message: 'Not Found' })
      else if (err instanceof CustomerValidationError) void unprocessable(reply, err.errors)
      else throw err
      return false
    }
  }

  const limit = { config: { rateLimit: { max: 60, timeWindow: 60_000 } } }

  app.post('/customer/update-contact', limit, async (request, reply) => {
    const customer = await owner(request, reply)
    if (!customer) return reply
    const body = parse(updateContactPostSchema, request.body, reply)
    if (!body) return reply
    if (body.type === 'delete') {
      const ok = await guarded(reply, () =>
        service.remove(
          customer.id,
          body.section,
          body.data.map((d) => d.id),
        ),
      )
      return ok ? done(reply, customer.id) : reply
    }
    const section = body.section
    if (body.id && !body.data) {
      const ok = await guarded(reply, () => service.select(customer.id, section, body.id!))
      return ok ? done(reply, customer.id) : reply
    }
    if (body.id) {
      // An id with data: the entry is edited (as PATCH) and, when asked, selected.
      const data = sectionData(request.site!, customer, section, body.data, reply)
      if (!data) return reply
      const ok = await guarded(reply, async () => {
        if (section === 'contact') await service.editContact(customer.id, body.id!, data as ContactData)
        else await service.editAddress(customer.id, section, body.id!, data as AddressData)
        if (selectFlag(body, section)) await service.select(customer.id, section, body.id!)
      })
      return ok ? done(reply, customer.id) : reply
    }
    const data = sectionData(request.site!, customer, section, body.data ?? {}, reply)
    if (!data) return reply
    const select = selectFlag(body, section)
    const ok = await guarded(reply, () =>
      section === 'contact'
        ? service.addContact(customer.id, data as ContactData, select)
        : service.addAddress(customer.id, section, data as AddressData, select),
    )
    return ok ? done(reply, customer.id) : reply
  })

  app.patch('/customer/update-contact', limit, async (request, reply) => {
    const customer = await owner(request, reply)
    if (!customer) return reply
    const body = parse(updateContactPatchSchema, request.body, reply)
    if (!body) return reply
    const data = sectionData(request.site!, customer, body.section, body.data, reply)
    if (!data) return reply
    const ok = await guarded(reply, () =>
      body.section === 'contact'
        ? service.editContact(customer.id, body.id, data as ContactData)
        : service.editAddress(customer.id, body.section, body.id, data as AddressData),
    )
    return ok ? done(reply, customer.id) : reply
  })

  /** The logged-in customer's data (the client reloads it after an edit). */
  app.get('/customer/data', async (request, reply) => {
    const customer = await owner(request, reply)
    if (!customer) return reply
    return reply.header('cache-control', 'no-store').send({ user: await service.data(customer.id) })
  })
}

function selectFlag(
  body: { selectNewContact: boolean; selectNewShipping: boolean; selectNewBilling: boolean },
  section: Section,
): boolean {
  return section === 'contact'
    ? body.selectNewContact
    : section === 'shipping'
      ? body.selectNewShipping
      : body.selectNewBilling
}
