/**
 * The wallets in the app (ADR 0073): `app.wallets` (wallets.service.ts), the checkout page's
 * opener policy for PayPal's window, and the PayPal and Amazon Pay routes of their own folders.
 */
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { amazonRoutes } from '../amazon/amazon.routes.ts'
import { paypalRoutes } from '../paypal/paypal.routes.ts'
import { walletContext } from './wallet.context.ts'
import { WalletCheckout } from './wallets.service.ts'

declare module 'fastify' {
  interface FastifyInstance {
    wallets: WalletCheckout
    /** The plain context the wallet flows take, made from a request (for /checkout/complete). */
    walletContext: typeof walletContext
  }
}

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

    await app.register(paypalRoutes)
    await app.register(amazonRoutes)
  },
  { name: 'shop-checkout-wallets', dependencies: ['shop-payments'] },
)
