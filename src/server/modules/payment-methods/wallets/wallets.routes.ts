/**
 * The PayPal and Amazon Pay checkout calls (spec §7; ADR 0073). Thin: wallets.service.ts does
 * the work. JSON in and out (CSRF as every POST); the two Amazon returns are browser
 * navigations (GET) that end in a redirect.
 */
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { lastOrderOf, rememberPlaced } from '../../checkout/checkout.routes.ts'
import { CheckoutRefusal } from '../../checkout/checkout.service.ts'
import { currentCustomerId } from '../../auth/auth.session.ts'
import { sessionCartId } from '../../../lib/customer-session.ts'
import { siteBaseUrl } from '../../sites/site-url.ts'
import { walletContext } from './wallet.context.ts'
import { WalletCheckout } from './wallets.service.ts'

declare module 'fastify' {
  interface FastifyInstance {
    wallets: WalletCheckout
    /** The plain context the wallet flows take, made from a request (for /checkout/complete). */
    walletContext: typeof walletContext
  }
}

const limit = (max: number) => ({ config: { rateLimit: { max, timeWindow: 60_000 } } })

export const walletsPlugin = fp(
  async (app: FastifyInstance) => {
    const wallets = new WalletCheckout(app)
    app.decorate('wallets', wallets)
    app.decorate('walletContext', walletContext)

    // The checkout page's policy (payments/checkout-csp.ts) already allows PayPal's and Amazon's
    // origins. PayPal's approval window reports back to its opener: a strict opener policy would
    // cut it off, so the checkout page relaxes it to allow its own pop-ups.
    app.addHook('onSend', async (request, reply, payload) => {
      if (request.method !== 'GET' || !/^\/checkout(\?|$)/.test(request.url)) return payload
      if (reply.hasHeader('cross-origin-opener-policy'))
        reply.header('cross-origin-opener-policy', 'same-origin-allow-popups')
      return payload
    })

    app.post('/checkout/paypal/create-order', limit(30), async (request, reply) => {
      const site = request.site
      if (!site) return reply.callNotFound()
      const body = (request.body ?? {}) as Record<string, unknown>
      const r = body.reApproval
      if (r !== undefined && r !== null && typeof r !== 'boolean' && r !== 'true' && r !== 'false')
        return reply.code(422).send({
          message: 'The reApproval field must be true or false.',
          errors: { reApproval: ['The reApproval field must be true or false.'] },
        })
      const res = await wallets.paypalCreateOrder(walletContext(request, site), r === true || r === 'true')
      return reply.code(res.status).send(res.body)
    })

    app.get('/checkout/paypal/get-order-information', limit(60), async (request, reply) => {
      const site = request.site
      if (!site) return reply.callNotFound()
      const q = request.query as Record<string, unknown>
      const res = await wallets.paypalOrderInformation(walletContext(request, site), q.paypalOrderId)
      return reply.code(res.status).header('cache-control', 'no-store').send(res.body)
    })

    app.post('/checkout/paypal/update-shipping-options', limit(60), async (request, reply) => {
      const site = request.site
      if (!site) return reply.callNotFound()
      const body = (request.body ?? {}) as Record<string, unknown>
      const res = await wallets.paypalUpdateShipping(walletContext(request, site), body.data)
      return reply.code(res.status).send(res.body)
    })

    app.post('/checkout/amazon/create-amazon-session', limit(30), async (request, reply) => {
      const site = request.site
      if (!site) return reply.callNotFound()
      const res = await wallets.amazonCreateSession(walletContext(request, site))
      return reply.code(res.status).header('cache-control', 'no-store').send(res.body)
    })

    app.get('/checkout/amazon/review', limit(30), async (request, reply) => {
      const site = request.site
      if (!site) return reply.callNotFound()
      return reply.redirect(
        await wallets.amazonReview(walletContext(request, site), request.query as Record<string, unknown>),
      )
    })

    app.get('/checkout/amazon/get-session-information', limit(60), async (request, reply) => {
      const site = request.site
      if (!site) return reply.callNotFound()
      const q = request.query as Record<string, unknown>
      const res = await wallets.amazonSessionInformation(
        walletContext(request, site),
        q.amazonCheckoutSessionId,
      )
      return reply.code(res.status).header('cache-control', 'no-store').send(res.body)
    })

    app.post('/checkout/amazon/delivery-viewed', limit(60), async (request, reply) => {
      const site = request.site
      if (!site) return reply.callNotFound()
      const body = (request.body ?? {}) as Record<string, unknown>
      const res = wallets.deliveryViewed(walletContext(request, site), body.amazonCheckoutSessionId)
      return reply.code(res.status).send(res.body)
    })

    /** Amazon's result return: complete the checkout session and place the order, once. */
    app.get('/checkout/amazon/result', limit(30), async (request, reply) => {
      const site = request.site
      if (!site) return reply.callNotFound()
      const back = (message: string) => {
        request.inertia.flash('error', message)
        return reply.redirect('/checkout')
      }
      const input = {
        site,
        baseUrl: siteBaseUrl(request),
        sessionCartId: sessionCartId(request),
        lastOrder: lastOrderOf(request),
        customerId: currentCustomerId(request),
      }
      const result = await wallets.amazonResult(
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
        const placed = (await app.checkout.replay(placeInput)) ?? (await app.checkout.place(placeInput))
        wallets.forgetAmazon(walletContext(request, site))
        const answer = await rememberPlaced(app, request, reply, placed)
        return reply.redirect(String(answer.redirect))
      } catch (err) {
        if (err instanceof CheckoutRefusal) {
          // Paid but not placeable (the basket changed meanwhile): the attempt stays captured
          // for the basket; the shopper sees why and the next Complete Order places it.
          request.log.warn({ err: err.message }, 'Amazon payment taken but order refused')
          return back(err.message)
        }
        throw err
      }
    })
  },
  { name: 'shop-checkout-wallets', dependencies: ['shop-payments'] },
)
