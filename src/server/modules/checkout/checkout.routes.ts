/**
 * The checkout calls (spec §7). `POST /checkout/complete` places the order: JSON in, JSON out.
 *  200 `{ order, redirect, force_logout }`: placed now, or placed by an earlier submit of the
 *      same basket (a replay answers the same order);
 *  409 `{ message, warning, cart }`: the basket's total or delivery moved; nothing was ordered;
 *  422 `{ message, errors }` (and `redirect: '/cart'` for an empty basket); 404 for an id that is
 *  not the customer's; 200 `{ status: 'amazonRedirect', amazonPayRedirectUrl }` when the shopper
 *  pays on Amazon's page first. Placement is the orders module's workflow
 *  (orders/placement.workflow.ts); its refusals, and the payment methods' and wallets', are
 *  domain errors answered by plugins/error-handler.ts (ADR 0171, ADR 0240).
 * A guest is never logged in: the session remembers only its last order (`checkout.lastOrder`).
 */
import { parseOrderForm, placeInputOf } from './order-form.ts'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { fieldErrors } from '../../../shared/cart.schemas.ts'
import { z } from 'zod'
import {
  CHECKOUT,
  CHECKOUT_TEXT,
  type CheckoutCompletePageProps,
  type CheckoutPageProps,
} from '../../../shared/checkout.ts'
import { CUSTOMER_TEXT } from '../../../shared/customer.ts'
import { siteBaseUrl } from '../sites/site-url.ts'
import { invalidFields } from '../../lib/domain-error.ts'
import { currentCustomerId, rememberCart, sessionCartId } from '../../lib/customer-session.ts'
import { lastOrderOf, rememberLastOrder } from '../../lib/last-order.ts'
import { currentCustomer } from '../auth/auth.session.ts'
import { BOT_FIELD } from '../auth/bot-check.ts'
import { sendAccountCreatedMail } from '../auth/account-created.ts'
import type { Placed, PlaceInput } from '../orders/placement.workflow.ts'

/**
 * The session after an order was placed, and the JSON answer. A PayPal or Amazon buyer whose
 * account this very submit created is logged into it (force_login, create_password: a link to
 * set a password is e-mailed); an existing account matched by e-mail never is (ADR 0063, 0074).
 */
export async function rememberPlaced(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  placed: Placed,
): Promise<Record<string, unknown>> {
  const provider = placed.order.transactions[0]?.paymentProvider
  const forceLogin =
    placed.created &&
    placed.accountCreated &&
    placed.customerId !== null &&
    currentCustomerId(request) === null &&
    (provider === 'paypal' || provider === 'amazon')
  // Logging in rotates the session id: do it before anything is written to the session.
  if (forceLogin) await app.auth.login(request, reply, placed.customerId!, false)
  // The basket is forgotten; the session keeps only what Order Complete needs.
  if (sessionCartId(request) === placed.cartRef) rememberCart(request, null)
  rememberLastOrder(request, {
    orderId: placed.order.id,
    orderNumber: placed.order.OrderNumber,
    cartRef: placed.cartRef,
  })
  // create_password: the new account's owner is welcomed with a link to choose a password.
  if (forceLogin) await sendAccountCreatedMail(app, request, placed.order)
  return {
    order: placed.order,
    redirect: `/checkout/complete/${placed.order.OrderNumber}`,
    // A guest's browser forgets any customer it had (§6); a guest is never logged in here.
    force_logout: currentCustomerId(request) === null,
    ...(forceLogin ? { force_login: true, create_password: true } : {}),
  }
}

export async function checkoutRoutes(app: FastifyInstance) {
  // Refusals are domain errors: plugins/error-handler.ts answers them by code.
  app.post(
    '/checkout/complete',
    { config: { rateLimit: { max: 60, timeWindow: 60_000 } } },
    async (request, reply) => {
      const site = request.site
      if (!site) return reply.callNotFound()
      const form = parseOrderForm(request)
      const key = request.headers['idempotency-key']
      const input: PlaceInput = {
        ...placeInputOf(request, site),
        form,
        idempotencyKey: typeof key === 'string' && /^[\w-]{8,100}$/.test(key) ? key : null,
        client: {
          ip: request.ip,
          userAgent: String(request.headers['user-agent'] ?? '').slice(0, 500),
          accept: String(request.headers.accept ?? '').slice(0, 500),
          language: String(request.headers['accept-language'] ?? '').slice(0, 100),
        },
      }
      const checker = app.auth.botCheck(site)
      const token = (request.body as Record<string, unknown>)[BOT_FIELD]
      const result = await app.placement.submit(input, {
        botCheck: checker && {
          field: BOT_FIELD,
          verify: () => checker.verify(typeof token === 'string' ? token : undefined, request.ip),
        },
        // PayPal and Amazon Pay take the payment first (never inside the order transaction).
        walletPayment: (placing) =>
          app.wallets.prepare(app.walletContext(request, site), placing, input.idempotencyKey),
      })
      // Amazon Pay takes the payment on its own page: the page leaves for it (not `redirect`,
      // which the page follows inside the shop); the order is placed on the way back.
      if ('payAt' in result)
        return reply.send({ status: 'amazonRedirect', amazonPayRedirectUrl: result.payAt })
      return reply.send(await rememberPlaced(app, request, reply, result))
    },
  )
}

/** The Checkout page, delivery, address search, Order Complete, feedback and the opt-out. */
export async function checkoutPageRoutes(app: FastifyInstance) {
  const checkout = app.checkout

  app.get('/checkout', async (request, reply) => {
    const site = request.site
    if (!site) return reply.callNotFound()
    const customerId = currentCustomerId(request)
    const ctx = { site, cartId: sessionCartId(request), baseUrl: siteBaseUrl(request), customerId }
    const basket = await app.carts.get(ctx)
    // An empty basket has nothing to check out (§2 linked routes: cart).
    if (basket.items.length === 0) return reply.inertia.redirect('/cart')
    const customer = await currentCustomer(request)
    reply.header('cache-control', 'no-store')
    return reply.inertia.render('Checkout', {
      basket,
      customer: customer ? await app.customers.data(customer.id) : null,
      paymentMethods: app.paymentMethods.optionsFor(site, customer?.id ?? null),
      paymentConfig: await app.paymentMethods.clientConfigFor(site, customer?.id ?? null),
      testMode: app.payments.testMode,
      // Only where the site delivers (issue 29 defect 4): a country without a zone is not offered.
      countries: await checkout.deliveryCountries(site),
      freephoneNumber: site.settings.freephoneNumber,
      botCheck: app.auth.botCheck(site)?.props() ?? null,
      addressSearchUrl: '/checkout/address-search',
    } satisfies CheckoutPageProps)
  })

  app.post('/checkout/update-delivery', async (request, reply) => {
    const site = request.site
    if (!site) return reply.callNotFound()
    const delivery = valid(updateDeliverySchema, request.body)
    const ctx = {
      site,
      cartId: sessionCartId(request),
      baseUrl: siteBaseUrl(request),
      customerId: currentCustomerId(request),
    }
    let cart
    if (delivery.countryCode === null) {
      // PayPal and Amazon: the provider's address decides later; the basket as it is.
      cart = await app.carts.get(ctx)
    } else {
      const zone = await checkout.zoneOf(site, delivery.countryCode, delivery.regionCode)
      if (!zone) throw invalidFields({ countryCode: [CUSTOMER_TEXT.countryNotAllowed] })
      cart = (await app.carts.updateCart(ctx, { shippingZone: zone })).cart
    }
    return reply.send({ cart, shippingRates: cart.shippingRates })
  })

  app.get(
    '/checkout/address-search',
    { config: { rateLimit: { max: 120, timeWindow: 60_000 } } },
    async (request, reply) => {
      const site = request.site
      if (!site) return reply.callNotFound()
      const q = (request.query as Record<string, unknown>).searchInput
      const query = typeof q === 'string' ? q.slice(0, 100) : ''
      const matches = await app.addressLookup.search(
        query,
        site.settings.countries.map((c) => c.code),
      )
      return reply.header('cache-control', 'no-store').send({ matches })
    },
  )

  const viewer = (request: FastifyRequest) => ({
    lastOrder: lastOrderOf(request),
    customerId: currentCustomerId(request),
  })

  app.get('/checkout/complete/:orderNumber', async (request, reply) => {
    const site = request.site
    if (!site) return reply.callNotFound()
    const number = Number((request.params as { orderNumber: string }).orderNumber)
    const order = await app.orders.visibleOrder(site, number, viewer(request))
    if (!order) return reply.callNotFound()
    const data = await app.orders.present(app.db, order)
    const estimated = new Date(order.orderDate.getTime() + CHECKOUT.estimatedDeliveryDays * 86_400_000)
    reply.header('cache-control', 'no-store')
    return reply.inertia.render('CheckoutComplete', {
      order: data,
      invoicingEntity: site.settings.invoicingEntity || site.name,
      sisterSites: site.settings.sisterSites,
      deliveryWarnings: site.settings.deliveryWarnings,
      estimatedDelivery: estimated.toISOString().slice(0, 10),
      // Only the customer who registered today (a new guest or account) sees the opt-out.
      showOptOut: await app.orders.showsOptOut(site, order, viewer(request)),
      forceLogout: currentCustomerId(request) === null,
    } satisfies CheckoutCompletePageProps)
  })

  app.post(
    '/checkout/send-feedback',
    { config: { rateLimit: { max: 10, timeWindow: 60_000 } } },
    async (request, reply) => {
      const site = request.site
      if (!site) return reply.callNotFound()
      const feedback = valid(feedbackSchema, request.body)
      await app.orders.recordFeedback(site, feedback.OrderNumber, viewer(request), feedback.Feedback)
      return reply.send({ message: CHECKOUT_TEXT.feedbackThanks })
    },
  )

  app.post(
    '/checkout/complete/gdpr',
    { config: { rateLimit: { max: 10, timeWindow: 60_000 } } },
    async (request, reply) => {
      const site = request.site
      if (!site) return reply.callNotFound()
      const choice = valid(gdprSchema, request.body)
      // Only the order's logged-in customer, or the guest this very checkout created, may choose.
      const optedIn = choice.gdpr === 1
      await app.orders.chooseMarketing(site, choice.OrderNumber, viewer(request), optedIn)
      return reply.send({ message: CHECKOUT_TEXT.optOut(optedIn ? 'in to' : 'out of') })
    },
  )
}

/** A request body checked by `schema`; refused (`invalid`, a message per field) otherwise. */
function valid<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
  const parsed = schema.safeParse(body ?? {})
  if (!parsed.success) throw invalidFields(fieldErrors(parsed.error))
  return parsed.data
}

const updateDeliverySchema = z.object({
  countryCode: z
    .string()
    .trim()
    .regex(/^[A-Za-z]{2}$/, CHECKOUT_TEXT.countryInvalid)
    .nullable(),
  regionCode: z
    .string()
    .trim()
    .max(20)
    .nullish()
    .transform((v) => v ?? null),
})

const feedbackSchema = z.object({
  OrderNumber: z.coerce.number().int().positive(),
  Feedback: z
    .string({ error: CHECKOUT_TEXT.feedbackEmpty })
    .trim()
    .min(1, CHECKOUT_TEXT.feedbackEmpty)
    .max(CHECKOUT.feedbackMax, CHECKOUT_TEXT.feedbackTooLong),
})

const gdprSchema = z.object({
  OrderNumber: z.coerce.number().int().positive(),
  gdpr: z.coerce.number().int().min(0).max(1),
})
