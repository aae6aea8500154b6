/**
 * How the provider payment methods join the checkout's payment seam (ADR 0070): the payment
 * methods' plugin calls `registerCheckoutMethods` once; each provider's file builds its `PaymentMethod`
 * from the app (app.payments, app.db…) or answers null when its provider is not configured.
 * A registered method is offered on a site only when the site lists it and the provider takes
 * the site's currency (`offeredPaymentMethods`), whatever else the method checks.
 */
import type { FastifyInstance } from 'fastify'
import { offeredPaymentMethods } from '../payments/methods.ts'
import type { ProviderConfigs } from '../../config/payments.ts'
import type { ProviderMethod } from '../payments/payments.types.ts'
import { amazonMethod } from './amazon/amazon.method.ts'
import { payaMethod } from './paya/paya.method.ts'
import { paypalMethod } from './paypal/paypal.method.ts'
import { sagepayMethod } from './card/card.method.ts'
import type { CheckoutMethodFactory } from './method-factory.ts'

const FACTORIES: Record<ProviderMethod, CheckoutMethodFactory> = {
  sagepay: sagepayMethod,
  paya: payaMethod,
  paypal: paypalMethod,
  amazon: amazonMethod,
}

export function registerCheckoutMethods(app: FastifyInstance, providers: ProviderConfigs): void {
  for (const [id, factory] of Object.entries(FACTORIES) as [ProviderMethod, CheckoutMethodFactory][]) {
    if (!providers[id] || !app.payments.adapters[id]) continue
    const method = factory(app)
    if (!method) continue
    if (method.id !== id) throw new Error(`checkout method ${method.id} registered as ${id}`)
    app.paymentMethods.register({
      ...method,
      available: (ctx) => offeredPaymentMethods(ctx.site, providers).includes(id) && method.available(ctx),
      parseDetails: (form, ctx) => method.parseDetails(form, ctx),
      settle: (ctx) => method.settle(ctx),
    })
  }
}
