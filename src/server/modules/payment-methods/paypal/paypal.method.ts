/**
 * The PayPal checkout method (issue 14, PayPal/Amazon half; ADR 0073): built from app.payments
 * when the provider is configured. The routes and the work live in ../wallets/.
 */
import { paypalCheckoutMethod } from '../wallets/wallet.methods.ts'
import type { CheckoutMethodFactory } from '../method-factory.ts'

export const paypalMethod: CheckoutMethodFactory = (app) => paypalCheckoutMethod(app)
