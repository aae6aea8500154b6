/**
 * The provider payment methods in the app, one folder each (card, paya, paypal, amazon; purchase
 * order has no provider and is registered where the registry is built): each method joins the
 * checkout's seam (`app.paymentMethods`) when its provider is configured, and its routes are
 * added. Registered after the payments plugin, whose `app.payments` and `app.paymentProviders`
 * the methods use; the payments domain itself imports nothing of this one.
 */
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { sagepayRoutes } from './card/card.method.ts'
import { threeDSReturnRoutes } from './card/three-ds-return.routes.ts'
import { payaRoutes } from './paya/paya.method.ts'
import type { MethodPayments } from './method-payments.ts'
import { registerCheckoutMethods } from './register.ts'
import { walletsPlugin } from './wallets/wallets.routes.ts'

declare module 'fastify' {
  interface FastifyInstance {
    /** The payments service with the providers' clients (made by the payments plugin). */
    payments: MethodPayments
  }
}

export const paymentMethodsPlugin = fp(
  async (app: FastifyInstance) => {
    registerCheckoutMethods(app, app.paymentProviders)
    await app.register(threeDSReturnRoutes)
    if (app.paymentMethods.get('sagepay')) await app.register(sagepayRoutes)
    if (app.paymentMethods.get('paya')) await app.register(payaRoutes)
    await app.register(walletsPlugin)
  },
  { name: 'shop-payment-methods', dependencies: ['shop-payments'] },
)
