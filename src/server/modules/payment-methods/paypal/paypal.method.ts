/**
 * PayPal as a checkout payment method (ADR 0065 seam, ADR 0073), on every site that lists it (GBP
 * or USD): built from app.payments when the provider is configured. The money is taken before the
 * order transaction (paypal.checkout.ts); settle() only records what the server verified.
 */
import type { FastifyInstance } from 'fastify'
import type { PaymentMethod } from '../../payments/payment-methods.ts'
import type { CheckoutMethodFactory } from '../method-factory.ts'
import { originOf, walletMethod } from '../wallets/wallet.methods.ts'

/** PayPal: on every site that lists it (GBP or USD). */
export function paypalCheckoutMethod(app: FastifyInstance): PaymentMethod | null {
  const adapter = app.payments.adapters.paypal
  if (!adapter) return null
  const origin = originOf(adapter.config.sdkUrl)
  return {
    ...walletMethod('paypal', () => true),
    authorise: (ctx) => app.wallets.paypal.paypalAuthorise(ctx),
    // The JS SDK with credit and card funding disabled (§9), in the site's currency.
    clientConfig: ({ site }) => ({ sdkUrl: adapter.sdkScriptUrl(site.currency), loadTimeoutMs: 6000 }),
    origins: { script: origin, frame: origin, connect: origin },
  }
}

export const paypalMethod: CheckoutMethodFactory = (app) => paypalCheckoutMethod(app)
