/**
 * The PayPal checkout calls (spec §7; ADR 0073). Thin: paypal.checkout.ts does the work and
 * answers plain results; its refusals are domain errors plugins/error-handler.ts answers (ADR
 * 0240). JSON in and out (CSRF as every POST).
 */
import type { FastifyInstance } from 'fastify'
import { walletCall, walletLimit } from '../wallets/wallet.context.ts'

export async function paypalRoutes(app: FastifyInstance): Promise<void> {
  const paypal = app.wallets.paypal
  app.post(
    '/checkout/paypal/create-order',
    walletLimit(30),
    walletCall((w, body) => paypal.paypalCreateOrder(w, body.reApproval)),
  )
  app.get(
    '/checkout/paypal/get-order-information',
    walletLimit(60),
    walletCall((w, query) => paypal.paypalOrderInformation(w, query.paypalOrderId)),
  )
  app.post(
    '/checkout/paypal/update-shipping-options',
    walletLimit(60),
    walletCall((w, body) => paypal.paypalUpdateShipping(w, body.data)),
  )
}
