/**
 * The Amazon Pay checkout calls (spec §7; ADR 0073). Thin: amazon.checkout.ts does the work and
 * answers plain results; its refusals are domain errors plugins/error-handler.ts answers (ADR
 * 0240). JSON in and out (CSRF as every POST); the two Amazon returns are browser navigations
 * (GET) that end in a redirect.
 */
import { placeInputOf } from '../../checkout/order-form.ts'
import type { FastifyInstance } from 'fastify'
import { rememberPlaced } from '../../checkout/checkout.routes.ts'
import { DomainError } from '../../../lib/domain-error.ts'
import { walletCall, walletContext, walletLimit } from '../wallets/wallet.context.ts'

export async function amazonRoutes(app: FastifyInstance): Promise<void> {
  const wallets = app.wallets
  const amazon = wallets.amazon
  app.post(
    '/checkout/amazon/create-amazon-session',
    walletLimit(30),
    walletCall((w) => amazon.amazonCreateSession(w)),
  )

  app.get('/checkout/amazon/review', walletLimit(30), async (request, reply) => {
    const site = request.site
    if (!site) return reply.callNotFound()
    const query = request.query as Record<string, unknown>
    return reply.redirect(await amazon.amazonReview(walletContext(request, site), query))
  })

  app.get(
    '/checkout/amazon/get-session-information',
    walletLimit(60),
    walletCall((w, query) => amazon.amazonSessionInformation(w, query.amazonCheckoutSessionId)),
  )

  app.post(
    '/checkout/amazon/delivery-viewed',
    walletLimit(60),
    walletCall((w, body) => amazon.deliveryViewed(w, body.amazonCheckoutSessionId)),
  )

  /** Amazon's result return: complete the checkout session and place the order, once. */
  app.get('/checkout/amazon/result', walletLimit(30), async (request, reply) => {
    const site = request.site
    if (!site) return reply.callNotFound()
    const back = (message: string) => {
      request.inertia.flash('error', message)
      return reply.redirect('/checkout')
    }
    const input = placeInputOf(request, site)
    const result = await wallets.amazon.amazonResult(
      walletContext(request, site),
      request.query as Record<string, unknown>,
    )
    if ('error' in result) {
      // A reload of this address after the order was placed: show that order.
      const last = input.lastOrder
      if (last && !input.sessionCartId) return reply.redirect(`/checkout/complete/${last.orderNumber}`)
      return back(result.error)
    }
    try {
      const placeInput = { ...input, form: result.place, idempotencyKey: result.idempotencyKey }
      const placed = await app.placement.place(placeInput)
      wallets.amazon.forgetAmazon(walletContext(request, site))
      const answer = await rememberPlaced(app, request, reply, placed)
      return reply.redirect(String(answer.redirect))
    } catch (err) {
      if (err instanceof DomainError) {
        // Paid but not placeable (the basket changed meanwhile): the attempt stays captured
        // for the basket; the shopper sees why and the next Complete Order places it.
        request.log.warn({ err: err.message }, 'Amazon payment taken but order refused')
        return back(err.message)
      }
      throw err
    }
  })
}
