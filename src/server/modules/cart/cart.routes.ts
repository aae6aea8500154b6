/**
 * The basket calls (spec §7). Every call answers JSON: the cart in the spec's shape, 422 with
 * `{ message, errors: { field: [messages] } }` for bad input, 404 for a line or cart that is not
 * the visitor's. GET /cart renders the `Cart` page. Handlers parse with zod and call the service.
 */
import { siteBaseUrl } from '../sites/site-url.ts'
import { CSRF_SECRET_COOKIE } from '../../plugins/csrf.ts'
import { SESSION_COOKIE } from '../../plugins/session.ts'
import { createHash } from 'node:crypto'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { z } from 'zod'
import { SHARE_OFFER_TEXT, splitEmails, type Cart } from '../../../shared/cart.ts'
import {
  addSchema,
  fieldErrors,
  saveSchema,
  shareSchema,
  updateCartSchema,
  updateItemsSchema,
} from '../../../shared/cart.schemas.ts'
import {
  currentCustomerId,
  previousCartId,
  rememberCart,
  rememberPreviousCart,
  sessionCartId,
} from '../../lib/customer-session.ts'
import { CartNotFoundError, invalid } from './cart.errors.ts'
import { countryInList, zoneFor } from '../../../shared/checkout-rules.ts'
import { CUSTOMER_TEXT } from '../../../shared/customer.ts'
import { shareEmail } from './cart.mail.ts'
import { presentCartPage } from './cart.presenter.ts'
import type { CartContext, CartResult } from './cart.service.ts'

const NOT_FOUND = { message: 'Not Found' }
const SHARED_LINK_INVALID = 'This shared basket link is not valid or no longer exists.'

function context(request: FastifyRequest): CartContext | null {
  if (!request.site) return null
  return {
    site: request.site,
    cartId: sessionCartId(request),
    baseUrl: siteBaseUrl(request),
    customerId: currentCustomerId(request),
    ownerKey: ownerKeyOf(request),
  }
}

/**
 * The browser behind a request before it holds a basket: its session cookie, or (before it has
 * a session) its CSRF secret cookie, which every page view sets. Hashed: never stored as is.
 */
function ownerKeyOf(request: FastifyRequest): string | null {
  const cookie = request.cookies[SESSION_COOKIE] || request.cookies[CSRF_SECRET_COOKIE]
  return cookie ? createHash('sha256').update(cookie).digest('base64url') : null
}

function parse<S extends z.ZodType>(schema: S, body: unknown, reply: FastifyReply): z.output<S> | null {
  const result = schema.safeParse(body ?? {})
  if (result.success) return result.data
  const errors = fieldErrors(result.error)
  void reply
    .code(422)
    .send({ message: Object.values(errors)[0]?.[0] ?? 'The given data was invalid.', errors })
  return null
}

/** Runs a cart operation and answers its cart (a refusal is a domain error the error handler answers). */
async function answer(
  request: FastifyRequest,
  reply: FastifyReply,
  run: () => Promise<CartResult>,
): Promise<FastifyReply> {
  const result = await run()
  if (result.cartId) rememberCart(request, result.cartId)
  return reply.send(result.cart satisfies Cart)
}

export async function cartRoutes(app: FastifyInstance) {
  const cartService = app.carts

  // The hourly basket sweep is a job (src/server/jobs).

  // Spec §7: /cart/init, /cart/clear and the sign-sequence DELETE take no payload, and clients
  // send them as JSON with an empty body. Fastify's JSON parser refuses an empty body (400); here
  // an empty (or blank) JSON body is no body, and anything else is parsed as before.
  const json = app.getDefaultJsonParser('error', 'error')
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8')
    if (text.trim() === '') return done(null, undefined)
    json(request, text, done)
  })

  // An unknown host has no basket: the not-found handler answers (SiteSetup page or JSON).
  app.addHook('preHandler', async (request, reply) => {
    if (!request.site) return reply.callNotFound()
  })

  app.get('/cart', async (request, reply) => {
    const ctx = context(request)!
    const cart = await cartService.show(ctx)
    const props = await presentCartPage(app, request, cart, ctx)
    return reply.inertia.render('Cart', {
      ...props,
      restorePrevious: previousCartId(request) ? '/cart/previous/restore' : null,
    })
  })

  app.post('/cart/init', async (request, reply) => {
    const ctx = context(request)!
    return reply.send(await cartService.show(ctx))
  })

  app.post('/cart/clear', (request, reply) =>
    answer(request, reply, () => cartService.clear(context(request)!)),
  )

  app.post('/cart/add', async (request, reply) => {
    const body = parse(addSchema, request.body, reply)
    if (!body) return reply
    if (body.items.length === 0 && body.promotionCodes === undefined) {
      return reply
        .code(422)
        .send({ message: 'Choose at least one item.', errors: { items: ['Choose at least one item.'] } })
    }
    // Neither a drawing nor an address is taken from the browser: signs drawn by the server come
    // through Design A Sign (/design-a-sign/add); here only the wording is kept, and the line's
    // Edit link is the shop's own (ADR 0121).
    const items = body.items.map(({ printable_sign, ...item }) =>
      printable_sign ? { ...item, printable_sign: { signReads: printable_sign.signReads } } : item,
    )
    return answer(request, reply, () => cartService.add(context(request)!, items, body.promotionCodes))
  })

  app.post('/cart/update-items', async (request, reply) => {
    const body = parse(updateItemsSchema, request.body, reply)
    if (!body) return reply
    return answer(request, reply, () => cartService.updateItems(context(request)!, body.items))
  })

  app.post('/cart/update-cart', async (request, reply) => {
    const body = parse(updateCartSchema, request.body, reply)
    if (!body) return reply
    const { DeliveryOption, country, postcode, ...update } = body
    // The checkout's form (§7): DeliveryOption is the despatch type; country and postcode pick the zone.
    if (DeliveryOption !== undefined) update.despatch_type ??= DeliveryOption
    if (country !== undefined) {
      const site = request.site!
      const zones = [...new Set((await cartService.rates(app.db, site.id)).map((r) => r.zone))]
      const zone = countryInList(site.settings.countries, country)
        ? zoneFor(zones, country, postcode ?? null)
        : null
      if (!zone) throw invalid('country', CUSTOMER_TEXT.countryNotAllowed)
      update.shippingZone ??= zone
    }
    return answer(request, reply, () => cartService.updateCart(context(request)!, update))
  })

  app.delete<{ Params: { id: string } }>('/cart/item/:id', async (request, reply) => {
    const id = /^\d{1,9}$/.test(request.params.id) ? Number(request.params.id) : 0
    if (!id) return reply.code(404).send(NOT_FOUND)
    return answer(request, reply, () => cartService.removeItem(context(request)!, id))
  })

  // Named route cart.destroy-sign-sequence
  app.delete<{ Params: { sequenceId: string } }>(
    '/cart/sign-sequence/:sequenceId',
    async (request, reply) => {
      const sequenceId = request.params.sequenceId
      if (!/^[\w-]{1,64}$/.test(sequenceId)) return reply.code(404).send(NOT_FOUND)
      return answer(request, reply, () => cartService.removeSignSequence(context(request)!, sequenceId))
    },
  )

  app.post(
    '/cart/share',
    { config: { rateLimit: { max: app.config.shareRateLimitPerMinute, timeWindow: 60_000 } } },
    async (request, reply) => {
      const body = parse(shareSchema, request.body, reply)
      if (!body) return reply
      const ctx = context(request)!
      // The basket shared is always the visitor's own: a cart_id naming another is not found.
      if (body.cart_id !== undefined && body.cart_id !== ctx.cartId) return reply.code(404).send(NOT_FOUND)
      const token = await cartService.share(ctx)
      const recipients = splitEmails(body.emails)
      const mail = shareEmail(request.site!, body.name, `${ctx.baseUrl}/cart/shared/${token}`)
      for (const to of recipients) await app.mailer.send({ to: [to], ...mail })
      return reply.send({ message: 'Cart sent', sent: recipients.length })
    },
  )

  app.get<{ Params: { token: string } }>(
    '/cart/shared/:token',
    { config: { rateLimit: { max: 30, timeWindow: 60_000 } } },
    // Opening a share link (a GET: mail scanners and link previews open it too) changes
    // nothing: the Cart page asks 'Replace my basket' / 'Keep my basket'.
    async (request, reply) => {
      const offer = await cartService.peekShared(request.site!, request.params.token)
      if (!offer) {
        request.inertia.flash({ cartError: SHARED_LINK_INVALID })
        return reply.redirect('/cart', 302)
      }
      const ctx = context(request)!
      const cart = await cartService.get(ctx)
      const props = await presentCartPage(app, request, cart, ctx)
      return reply.inertia.render('Cart', {
        ...props,
        sharedOffer: { action: `/cart/shared/${request.params.token}`, count: offer.count },
        restorePrevious: null,
      })
    },
  )

  // 'Replace my basket': the shared basket's copy becomes the visitor's; their own basket is
  // kept (not deleted) and can be restored from the Cart page.
  app.post<{ Params: { token: string } }>(
    '/cart/shared/:token',
    { config: { rateLimit: { max: 30, timeWindow: 60_000 } } },
    async (request, reply) => {
      const cartId = await cartService.openShared(request.site!, request.params.token)
      if (!cartId) {
        request.inertia.flash({ cartError: SHARED_LINK_INVALID })
        return reply.redirect('/cart', 303)
      }
      const own = sessionCartId(request)
      if (own) rememberPreviousCart(request, own)
      rememberCart(request, cartId)
      request.inertia.flash({ success: SHARE_OFFER_TEXT.replaced })
      return reply.redirect('/cart', 303)
    },
  )

  app.post('/cart/previous/restore', async (request, reply) => {
    const previous = previousCartId(request)
    if (previous) {
      rememberCart(request, previous)
      rememberPreviousCart(request, null)
      request.inertia.flash({ success: SHARE_OFFER_TEXT.restored })
    }
    return reply.redirect('/cart', 303)
  })

  app.post('/cart/save', async (request, reply) => {
    const customerId = currentCustomerId(request)
    if (customerId === null) {
      return reply.code(401).send({ message: 'Please log in to save your basket.' })
    }
    const body = parse(saveSchema, request.body, reply)
    if (!body) return reply
    // With an id: renames one of the customer's saved baskets (the account's Baskets page).
    const id = (request.body as Record<string, unknown> | null)?.id
    if (id !== undefined && id !== null) {
      if (typeof id !== 'string') throw new CartNotFoundError()
      await cartService.renameSaved(request.site!, customerId, id, body.basketName)
      return reply.send({ message: 'Cart updated!', id, basketName: body.basketName })
    }
    const saved = await cartService.save(context(request)!, customerId, body.basketName)
    return reply.send({ message: 'Cart Saved', ...saved })
  })
}
