/**
 * PayPal and Amazon Pay at checkout (ADR 0073): the wallet flows of paypal/paypal.checkout.ts and
 * amazon/amazon.checkout.ts over their shared steps (wallet.steps.ts), and the one entry the
 * checkout's Complete Order calls (`prepare`). Knows the browser's session only through the
 * plain `WalletContext` (wallet.shared.ts); the routes make it from the request. Answers plain
 * results; refuses with domain errors (ADR 0240).
 */
import type { FastifyInstance } from 'fastify'
import type { OrderForm } from '../../../../shared/checkout.ts'
import { AmazonCheckout } from '../amazon/amazon.checkout.ts'
import { PaypalCheckout } from '../paypal/paypal.checkout.ts'
import type { WalletContext } from './wallet.shared.ts'
import { WalletSteps, type Prepared } from './wallet.steps.ts'

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

  /**
   * /checkout/complete: PayPal and Amazon take their payment first; other methods pass through.
   * A refusal is a domain error (wallet.steps.ts `walletRefusal`).
   */
  async prepare(w: WalletContext, form: OrderForm, idempotencyKey: string | null): Promise<Prepared> {
    const method = form.payment_method ?? form.transactions[0]!.paymentProvider
    if (method !== 'paypal' && method !== 'amazon') return { place: form }
    this.steps.mustOffer(w, method)
    return method === 'paypal'
      ? this.paypal.paypalPrepare(w, form)
      : this.amazon.amazonPrepare(w, form, idempotencyKey)
  }
}
