/**
 * What the PayPal and Amazon Pay checkouts share (ADR 0073): their refusals, the basket being
 * checked out, whether the site offers the wallet to this shopper, and a new payment attempt for
 * the basket (capped per basket). Plain values in (`WalletContext`), plain results or domain
 * errors out (ADR 0240): no HTTP.
 */
import type { FastifyInstance } from 'fastify'
import type { Cart } from '../../../../shared/cart.ts'
import { CHECKOUT_TEXT, type OrderForm } from '../../../../shared/checkout.ts'
import { DomainError, invalidFields, notFound } from '../../../lib/domain-error.ts'
import { PaymentError } from '../../payments/payments.service.ts'
import type { Site } from '../../sites/sites.service.ts'
import { WALLET_TEXT, type WalletContext } from './wallet.shared.ts'

/**
 * Before placement: place this (rewritten, verified) form, or send the shopper to the provider's
 * own page to pay first (Amazon Pay); the order is placed when they come back.
 */
export type Prepared = { place: OrderForm } | { payAt: string }

/** Payment attempts one basket may make (every PayPal button click and Amazon submit is one). */
export const MAX_ATTEMPTS_PER_BASKET = 30

export const toMinor = (value: unknown) => Math.round(Number(value) * 100)

/**
 * The wallet flows' refusals (ADR 0240): domain errors with a code and a message, never a status;
 * plugins/error-handler.ts answers them.
 */
export const walletRefusal = {
  notFound,
  invalid: invalidFields,
  /** The payment method is not offered to this shopper on this site. */
  unavailable: () => invalidFields({ payment_method: [CHECKOUT_TEXT.methodUnavailable] }),
  /** The provider could not be asked, or did not do it: nothing was taken. */
  provider: (message: string, answer: Record<string, unknown> = {}) =>
    new DomainError('provider_unavailable', message, {}, answer),
}

export class WalletSteps {
  constructor(readonly app: FastifyInstance) {}

  ctx(w: WalletContext) {
    return { site: w.site, cartId: w.cartId, baseUrl: w.baseUrl, customerId: w.customerId }
  }

  offers(w: WalletContext, id: 'paypal' | 'amazon'): boolean {
    return !!this.app.paymentMethods.usable(w.site, w.customerId, id) && !!this.app.payments.adapters[id]
  }

  /** Refused unless the site offers the wallet to this shopper. */
  mustOffer(w: WalletContext, id: 'paypal' | 'amazon'): void {
    if (!this.offers(w, id)) throw walletRefusal.unavailable()
  }

  /** The basket being checked out; refused (`empty_basket`) when there is none. */
  async basket(w: WalletContext): Promise<{ cart: Cart; cartId: string }> {
    const ctx = this.ctx(w)
    const cart = await this.app.carts.get(ctx)
    if (!ctx.cartId || !cart.id || cart.items.length === 0)
      throw new DomainError('empty_basket', CHECKOUT_TEXT.emptyBasket)
    return { cart, cartId: cart.id }
  }

  async newAttempt(site: Site, cartId: string, method: 'paypal' | 'amazon', amount: number) {
    // A cap on tries per basket (design checkout.md: cap payment attempts per order).
    if ((await this.app.payments.forOrder(`basket:${cartId}`)).length >= MAX_ATTEMPTS_PER_BASKET)
      throw new DomainError('too_many_attempts', WALLET_TEXT.tooManyAttempts)
    try {
      return await this.app.payments.createAttempt({
        siteId: site.id,
        orderRef: `basket:${cartId}`,
        method,
        amountMinor: amount,
        currency: site.currency,
      })
    } catch (err) {
      if (err instanceof PaymentError && (err.code === 'already_paid' || err.code === 'unsettled'))
        throw new DomainError(
          'payment_in_progress',
          err.code === 'already_paid' ? WALLET_TEXT.alreadyPaid : WALLET_TEXT.confirming,
        )
      throw err
    }
  }
}
