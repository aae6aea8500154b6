/**
 * PayPal and Amazon Pay at checkout (ADR 0073): the wallet flows of paypal/paypal.checkout.ts and
 * amazon/amazon.checkout.ts over their shared steps (wallet.steps.ts), and the one entry the
 * checkout's Complete Order calls (`prepare`). Knows the browser's session only through the
 * plain `WalletContext` (wallet.shared.ts); the routes make it from the request.
 */
import type { FastifyInstance } from 'fastify'
import { CHECKOUT_TEXT, type OrderForm } from '../../../../shared/checkout.ts'
import { AmazonCheckout } from '../amazon/amazon.checkout.ts'
import { PaypalCheckout } from '../paypal/paypal.checkout.ts'
import type { WalletContext } from './wallet.shared.ts'
import { invalid, WalletSteps, type Prepared } from './wallet.steps.ts'

export { type Prepared } from './wallet.steps.ts'

export class WalletCheckout {
  readonly paypal: PaypalCheckout
  readonly amazon: AmazonCheckout
  private readonly steps: WalletSteps

  constructor(app: FastifyInstance) {
    this.steps = new WalletSteps(app)
    this.paypal = new PaypalCheckout(app, this.steps)
    this.amazon = new AmazonCheckout(app, this.steps)
  }

  /** /checkout/complete: PayPal and Amazon take their payment first; other methods pass through. */
  async prepare(w: WalletContext, form: OrderForm, idempotencyKey: string | null): Promise<Prepared> {
    const method = form.payment_method ?? form.transactions[0]!.paymentProvider
    if (method !== 'paypal' && method !== 'amazon') return { place: form }
    if (!this.steps.offers(w, method)) return invalid({ payment_method: [CHECKOUT_TEXT.methodUnavailable] })
    return method === 'paypal'
      ? this.paypal.paypalPrepare(w, form)
      : this.amazon.amazonPrepare(w, form, idempotencyKey)
  }
}
