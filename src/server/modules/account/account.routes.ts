/**
 * The customer account area (spec §2 "Customer area", §7): the account pages (Inertia) and
 * their calls (JSON). Every page and call needs a logged-in customer with a verified e-mail:
 * a visitor is sent to /login and comes back after logging in (calls answer 401), an unverified
 * customer to the verification notice (calls answer 403). Every id in a path or body must be
 * the customer's own: anything else is 404. Handlers parse, call queries or services, present.
 */
import { accountGreeting } from '../../../shared/account.ts'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { z } from 'zod'
import {
  ACCOUNT_TEXT,
  cartIdSchema,
  changePasswordSchema,
  destroyCartSchema,
  idSchema,
  marketingUpdateSchema,
  reorderSchema,
  type AccountPageBase,
  type CartsProps,
  type EditDetailsProps,
  type InvoicesProps,
  type MarketingProps,
  type MyAccountProps,
  type OrdersProps,
} from '../../../shared/account.ts'
import { AUTH_MESSAGES } from '../../../shared/auth.ts'
import { fieldErrors } from '../../../shared/cart.schemas.ts'
import { errorsFromIssues } from '../../inertia/session.ts'
import { rememberCart, rememberPreviousCart, sessionCartId } from '../../lib/customer-session.ts'
import { currentCustomer, SESSION, sessionSet } from '../auth/auth.session.ts'
import type { CustomerRow } from '../auth/auth.tables.ts'
import { RULES } from '../auth/throttle.ts'
import type { CartContext } from '../cart/cart.service.ts'
import { listSavedCards, removeSavedCard } from '../customers/saved-cards.service.ts'
import { siteTotalsOptions } from '../orders/orders.presenter.ts'
import { siteBaseUrl } from '../sites/site-url.ts'
import {
  findInvoice,
  findOrder,
  listInvoices,
  listOrders,
  presentAccountOrder,
  reorderInfo,
} from '../orders/orders.queries.ts'
import { accountCounts } from './account-home.queries.ts'
import { changePassword, marketingPreferences, reorderLines, updateMarketing } from './account.service.ts'
import { storedInvoicePdf } from '../admin/admin.invoices.ts'
import { invoicePdf } from '../orders/invoice-pdf.ts'
import { confirmOrderOwner, OrderOwnerLinks } from '../orders/order-owner.ts'

const NOT_FOUND = { message: 'Not Found' }

function greetingOf(c: CustomerRow): AccountPageBase {
  return { greeting: accountGreeting(c) }
}

/** A number from a path segment (order and invoice numbers), or null. */
function pathNumber(value: string): number | null {
  return /^\d{1,15}$/.test(value) ? Number(value) : null
}

function invalid(reply: FastifyReply, errors: Record<string, string[]>, fallback: string) {
  return reply.code(422).send({ message: Object.values(errors)[0]?.[0] ?? fallback, errors })
}

function parseJson<S extends z.ZodType>(
  schema: S,
  body: unknown,
  reply: FastifyReply,
  fallback: string,
): z.output<S> | null {
  const result = schema.safeParse(body ?? {})
  if (result.success) return result.data
  void invalid(reply, fieldErrors(result.error), fallback)
  return null
}

/** The account's customer for a page: a visitor goes to /login (and comes back), null then. */
async function pageCustomer(request: FastifyRequest, reply: FastifyReply): Promise<CustomerRow | null> {
  if (!request.site) {
    void reply.callNotFound()
    return null
  }
  const customer = await currentCustomer(request)
  if (!customer) {
    if (request.method === 'GET') sessionSet(request, SESSION.intended, request.url.slice(0, 500))
    void reply.inertia.redirect('/login')
    return null
  }
  if (!customer.emailVerifiedAt) {
    void reply.inertia.redirect('/email/verify')
    return null
  }
  return customer
}

/** The account's customer for a JSON call: 401 for a visitor, 403 before verifying. */
async function callCustomer(request: FastifyRequest, reply: FastifyReply): Promise<CustomerRow | null> {
  if (!request.site) {
    void reply.callNotFound()
    return null
  }
  const customer = await currentCustomer(request)
  if (!customer) {
    void reply.code(401).send({ message: ACCOUNT_TEXT.loginRequired })
    return null
  }
  if (!customer.emailVerifiedAt) {
    void reply.code(403).send({ message: ACCOUNT_TEXT.verifyRequired })
    return null
  }
  return customer
}

function cartContext(request: FastifyRequest, customerId: number): CartContext {
  return {
    site: request.site!,
    cartId: sessionCartId(request),
    baseUrl: siteBaseUrl(request),
    customerId,
    ownerKey: null,
  }
}

/**
 * `POST /customer/password/update`, account variant (spec §7: id, email, password,
 * password_confirmation; plus the current password): the shared password rule, then every
 * other session of the account ends. The reset variant (with a token) stays in auth.routes.
 */
export async function accountPasswordUpdate(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const customer = await pageCustomer(request, reply)
  if (!customer) return reply
  const back = '/customer/password/change'
  const body = (request.body ?? {}) as Record<string, unknown>
  if (body.id !== undefined && body.id !== null && Number(body.id) !== customer.id) {
    void reply.callNotFound()
    return reply
  }
  const parsed = changePasswordSchema.safeParse(body)
  if (!parsed.success) {
    request.inertia.setErrors(errorsFromIssues(parsed.error))
    return reply.inertia.redirect(back)
  }
  const key = `confirm:${customer.id}`
  const locked = await app.auth.service.throttle.lockedFor(key)
  if (locked > 0 || !(await app.auth.service.checkPassword(customer, parsed.data.current_password))) {
    if (locked === 0) await app.auth.service.throttle.fail(key, RULES.loginPerAccountAndIp)
    request.inertia.setErrors({
      current_password: locked > 0 ? AUTH_MESSAGES.throttled(locked) : ACCOUNT_TEXT.currentPasswordWrong,
    })
    return reply.inertia.redirect(back)
  }
  await app.auth.service.throttle.clear(key)
  const sessionId = (request.session as unknown as { sessionId?: string }).sessionId ?? null
  const generation = await changePassword(app.db, customer.id, parsed.data.password, sessionId)
  // The new generation and the other sessions' end reach every instance's caches.
  app.auth.service.customerChanged(customer.id)
  // This session stays logged in under the new generation; its remember-me cookie was revoked.
  sessionSet(request, SESSION.generation, generation)
  reply.clearCookie('shop_remember', { path: '/' })
  request.log.info({ customerId: customer.id }, 'password changed in the account')
  request.inertia.flash('status', { message: ACCOUNT_TEXT.passwordChanged })
  return reply.inertia.redirect(back)
}

export async function accountRoutes(app: FastifyInstance) {
  const db = app.db
  const limit = { config: { rateLimit: { max: 60, timeWindow: 60_000 } } }
  const ownerLinks = new OrderOwnerLinks(app.config.session.secret)

  // --- account home ------------------------------------------------------------------------

  app.get('/customer', async (request, reply) => {
    const customer = await pageCustomer(request, reply)
    if (!customer) return reply
    const site = request.site!
    const [counts, orders] = await Promise.all([
      accountCounts(db, site.id, customer.id),
      listOrders(db, site.id, customer.id),
    ])
    const props: MyAccountProps = {
      ...greetingOf(customer),
      counts,
      // "The last order in the list is offered for repeat": the most recent one (checkout.md).
      lastOrder: orders[0] ?? null,
      twoFactorEnabled: app.auth.service.hasTwoFactor(customer),
    }
    return reply.inertia.render('Customer/MyAccount', props)
  })

  // --- orders and reorder ------------------------------------------------------------------

  // The header's hidden 'Buy Again' link (storefront spec §2): the order history.
  app.get('/orders', async (request, reply) => {
    if (!request.site) return reply.callNotFound()
    return reply.redirect('/customer/orders', 302)
  })

  app.get('/customer/orders', async (request, reply) => {
    const customer = await pageCustomer(request, reply)
    if (!customer) return reply
    const props: OrdersProps = {
      ...greetingOf(customer),
      orders: await listOrders(db, request.site!.id, customer.id),
      order: null,
    }
    return reply.inertia.render('Customer/Orders', props)
  })

  app.get<{ Params: { orderNumber: string } }>('/customer/orders/:orderNumber', async (request, reply) => {
    const customer = await pageCustomer(request, reply)
    if (!customer) return reply
    const n = pathNumber(request.params.orderNumber)
    const found = n === null ? null : await findOrder(db, request.site!.id, customer.id, n)
    if (!found) return reply.callNotFound()
    const props: OrdersProps = {
      ...greetingOf(customer),
      orders: await listOrders(db, request.site!.id, customer.id),
      order: await presentAccountOrder(
        db,
        request.site!.id,
        found.order,
        found.items,
        siteTotalsOptions(request.site!),
      ),
    }
    return reply.inertia.render('Customer/Orders', props)
  })

  /**
   * The link in a guest order's acknowledgement e-mail (ADR 0145): the logged-in owner of the
   * account the order was linked to by its e-mail confirms the order is theirs, and from then on
   * the account shows it. A visitor logs in first (and comes back here); anyone else, a made-up
   * or altered signature, or another order's: 404, nothing changed. A second visit just shows it.
   */
  app.get<{ Params: { orderNumber: string }; Querystring: { sig?: unknown } }>(
    '/customer/orders/:orderNumber/confirm',
    limit,
    async (request, reply) => {
      reply.header('referrer-policy', 'no-referrer')
      const customer = await pageCustomer(request, reply)
      if (!customer) return reply
      const n = pathNumber(request.params.orderNumber)
      const result =
        n === null
          ? 'not_found'
          : await confirmOrderOwner(db, ownerLinks, request.site!.id, customer.id, n, request.query.sig)
      if (result === 'not_found') return reply.callNotFound()
      if (result === 'confirmed') {
        request.log.info({ customerId: customer.id, orderNumber: n }, 'guest order confirmed by its owner')
        request.inertia.flash('status', { message: ACCOUNT_TEXT.orderConfirmed })
      }
      return reply.inertia.redirect(`/customer/orders/${n}`)
    },
  )

  /**
   * Reorder (spec §4, §5, §7): without `items` the whole order's available lines replace the
   * basket (the basket before is kept and can be restored from the Cart page); with `items`
   * the chosen lines (quantity at least 1) are added to the basket. Prices are today's.
   */
  app.post<{ Params: { orderNumber: string } }>(
    '/customer/orders/:orderNumber/reorder',
    limit,
    async (request, reply) => {
      const customer = await callCustomer(request, reply)
      if (!customer) return reply
      const n = pathNumber(request.params.orderNumber)
      const found = n === null ? null : await findOrder(db, request.site!.id, customer.id, n)
      if (!found) return reply.code(404).send(NOT_FOUND)
      const body = parseJson(reorderSchema, request.body, reply, ACCOUNT_TEXT.cartFailed)
      if (!body) return reply
      const info = await reorderInfo(db, request.site!.id, found.items)
      const plan = reorderLines(found.items, info, body.items)
      if ('notFound' in plan) return reply.code(404).send(NOT_FOUND)
      if ('errors' in plan) return invalid(reply, plan.errors, ACCOUNT_TEXT.unavailable)
      const lines = plan.lines
      const ctx = cartContext(request, customer.id)
      const previous = ctx.cartId
      const result = await app.carts.add(body.items ? ctx : { ...ctx, cartId: null }, lines)
      if (!body.items && previous) rememberPreviousCart(request, previous)
      if (result.cartId) rememberCart(request, result.cartId)
      const added = lines.reduce((s, l) => s + l.quantity, 0)
      return reply.send({
        message: ACCOUNT_TEXT.reorderAdded(added),
        cart: result.cart,
        unavailable: found.items.filter((i) => info.get(i.id)?.state !== 'available').map((i) => i.id),
      })
    },
  )

  // --- invoices ------------------------------------------------------------------------------

  app.get('/customer/invoices', async (request, reply) => {
    const customer = await pageCustomer(request, reply)
    if (!customer) return reply
    const props: InvoicesProps = {
      ...greetingOf(customer),
      invoices: await listInvoices(db, request.site!.id, customer.id),
      invoice: null,
    }
    return reply.inertia.render('Customer/Invoices', props)
  })

  // The named invoice view, taking invoiceNumber (spec §2).
  app.get<{ Params: { invoiceNumber: string } }>(
    '/customer/invoices/:invoiceNumber',
    async (request, reply) => {
      const customer = await pageCustomer(request, reply)
      if (!customer) return reply
      const n = pathNumber(request.params.invoiceNumber)
      const invoice =
        n === null
          ? null
          : await findInvoice(db, request.site!.id, customer.id, n, siteTotalsOptions(request.site!))
      if (!invoice) return reply.callNotFound()
      const props: InvoicesProps = {
        ...greetingOf(customer),
        invoices: await listInvoices(db, request.site!.id, customer.id),
        invoice,
      }
      return reply.inertia.render('Customer/Invoices', props)
    },
  )

  app.get<{ Params: { invoiceNumber: string } }>(
    '/customer/invoices/:invoiceNumber/pdf',
    { config: { rateLimit: { max: 30, timeWindow: 60_000 } } },
    async (request, reply) => {
      const customer = await callCustomer(request, reply)
      if (!customer) return reply
      const n = pathNumber(request.params.invoiceNumber)
      const invoice =
        n === null
          ? null
          : await findInvoice(db, request.site!.id, customer.id, n, siteTotalsOptions(request.site!))
      if (!invoice) return reply.code(404).send(NOT_FOUND)
      const name = `${customer.firstName} ${customer.lastName}`.trim()
      // The ERP's own PDF when it sent one (ADR 0220); otherwise drawn from the invoice.
      const pdf =
        (await storedInvoicePdf(db, request.site!.id, invoice.Invoice_Number)) ??
        (await invoicePdf(request.site!, invoice, name))
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="invoice-${invoice.Invoice_Number}.pdf"`)
        .send(pdf)
    },
  )

  // --- saved baskets -------------------------------------------------------------------------

  app.get('/customer/carts', async (request, reply) => {
    const customer = await pageCustomer(request, reply)
    if (!customer) return reply
    const props: CartsProps = {
      ...greetingOf(customer),
      baskets: await app.carts.savedBaskets(request.site!, customer.id),
    }
    return reply.inertia.render('Customer/Carts', props)
  })

  /** Loads a saved basket into the session (a copy; spec §7: cart is set, then the page goes to /cart). */
  app.post('/customer/load-cart', limit, async (request, reply) => {
    const customer = await callCustomer(request, reply)
    if (!customer) return reply
    const body = parseJson(cartIdSchema, request.body, reply, ACCOUNT_TEXT.cartFailed)
    if (!body) return reply
    const ctx = cartContext(request, customer.id)
    const result = await app.carts.loadSaved(ctx, customer.id, body.cart)
    if (ctx.cartId) rememberPreviousCart(request, ctx.cartId)
    rememberCart(request, result.cartId)
    return reply.send(result.cart)
  })

  app.post('/customer/destroy-cart', limit, async (request, reply) => {
    const customer = await callCustomer(request, reply)
    if (!customer) return reply
    const body = parseJson(destroyCartSchema, request.body, reply, ACCOUNT_TEXT.cartFailed)
    if (!body) return reply
    await app.carts.deleteSaved(request.site!, customer.id, body.id)
    return reply.send({ message: ACCOUNT_TEXT.cartDeleted })
  })

  // --- details and cards ------------------------------------------------------------------

  app.get('/customer/update', async (request, reply) => {
    const customer = await pageCustomer(request, reply)
    if (!customer) return reply
    const [user, cards] = await Promise.all([
      app.customers.data(customer.id),
      listSavedCards(db, customer.id),
    ])
    const props: EditDetailsProps = {
      ...greetingOf(customer),
      user: user!,
      countries: request.site!.settings.countries,
      club: customer.kind === 'club',
      cards: cards.map((c) => ({
        id: c.id,
        last4Digits: c.last4Digits,
        cardType: c.cardType,
        expiry: c.expiry,
      })),
    }
    return reply.inertia.render('Customer/EditYourDetails', props)
  })

  app.post('/customer/destroy-card', limit, async (request, reply) => {
    const customer = await callCustomer(request, reply)
    if (!customer) return reply
    const body = parseJson(idSchema, request.body, reply, ACCOUNT_TEXT.cardFailed)
    if (!body) return reply
    if (!(await removeSavedCard(db, customer.id, body.id))) return reply.code(404).send(NOT_FOUND)
    request.log.info({ customerId: customer.id, cardId: body.id }, 'saved card removed')
    return reply.send({ message: ACCOUNT_TEXT.cardRemoved, cards: await listSavedCards(db, customer.id) })
  })

  // --- password --------------------------------------------------------------------------

  app.get('/customer/password/change', async (request, reply) => {
    const customer = await pageCustomer(request, reply)
    if (!customer) return reply
    return reply.inertia.render('Customer/ChangeYourPassword', { ...greetingOf(customer), id: customer.id })
  })

  // --- marketing preferences ----------------------------------------------------------------

  app.get('/customer/marketing-preferences', async (request, reply) => {
    const customer = await pageCustomer(request, reply)
    if (!customer) return reply
    const props: MarketingProps = {
      ...greetingOf(customer),
      preferences: await marketingPreferences(db, customer.id),
    }
    return reply.inertia.render('Customer/MarketingPreferences', props)
  })

  app.post('/customer/marketing-update', limit, async (request, reply) => {
    const customer = await callCustomer(request, reply)
    if (!customer) return reply
    const body = parseJson(marketingUpdateSchema, request.body, reply, ACCOUNT_TEXT.preferencesFailed)
    if (!body) return reply
    await updateMarketing(db, customer.id, body.preferences, request.ip)
    return reply.send({
      message: ACCOUNT_TEXT.preferencesUpdated,
      preferences: await marketingPreferences(db, customer.id),
    })
  })
}
