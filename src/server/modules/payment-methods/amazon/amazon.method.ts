/**
 * Amazon Pay as a checkout payment method (ADR 0065 seam, ADR 0073): built from app.payments when
 * the provider is configured. The checkout session is completed on the result return
 * (amazon.checkout.ts); settle() only records what the server verified.
 */
import type { FastifyInstance } from 'fastify'
import type { PaymentMethod } from '../../payments/payment-methods.ts'
import type { CheckoutMethodFactory } from '../method-factory.ts'
import { originOf, walletMethod } from '../wallets/wallet.methods.ts'

/** Amazon Pay's UK checkout is GBP and en_GB only (§9): never on a USD site. */
export function amazonCheckoutMethod(app: FastifyInstance): PaymentMethod | null {
  const adapter = app.payments.adapters.amazon
  if (!adapter) return null
  const origin = originOf(adapter.config.scriptUrl)
  return {
    ...walletMethod('amazon', ({ site }) => site.currency === 'GBP'),
    authorise: (ctx) => app.wallets.amazon.amazonAuthorise(ctx),
    clientConfig: () => ({ scriptUrl: adapter.config.scriptUrl }),
    origins: { script: origin, frame: origin, connect: origin },
  }
}

export const amazonMethod: CheckoutMethodFactory = (app) => amazonCheckoutMethod(app)
