/**
 * The Amazon Pay checkout method (issue 14, PayPal/Amazon half; ADR 0073): built from
 * app.payments when the provider is configured. The routes and the work live in ../wallets/.
 */
import { amazonCheckoutMethod } from '../wallets/wallet.methods.ts'
import type { CheckoutMethodFactory } from '../method-factory.ts'

export const amazonMethod: CheckoutMethodFactory = (app) => amazonCheckoutMethod(app)
