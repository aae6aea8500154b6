/**
 * What the PayPal and Amazon Pay checkouts share (ADR 0073): the answers they give, the basket
 * being checked out, whether the site offers the wallet to this shopper, and a new payment
 * attempt for the basket (capped per basket). Plain values in (`WalletContext`), no HTTP.
 */
import type { FastifyInstance } from 'fastify'
import type { Cart } from '../../../../shared/cart.ts'
import { CHECKOUT_TEXT, type OrderForm } from '../../../../shared/checkout.ts'
import { PaymentError } from '../../payments/payments.service.ts'
import type { Site } from '../../sites/sites.service.ts'
import { WALLET_TEXT, type WalletContext } from './wallet.shared.ts'

/** What a wallet step answers: JSON with a status code. */
export interface WalletReply {
  status: number
  body: Record<string, unknown>
}

/** Before placement: place this (rewritten, verified) form, or answer without placing. */
export type Prepared = { place: OrderForm } | { reply: WalletReply }

/** Payment attempts one basket may make (every PayPal button click and Amazon submit is one). */
export const MAX_ATTEMPTS_PER_BASKET = 30

export const toMinor = (value: unknown) => Math.round(Number(value) * 100)
export const reply = (status: number, body: Record<string, unknown>): { reply: WalletReply } => ({
  reply: { status, body },
})
export const notFound = () => reply(404, { message: 'Not Found' })
export const invalid = (errors: Record<string, string[]>) =>
  reply(422, { message: Object.values(errors)[0]?.[0] ?? CHECKOUT_TEXT.somethingWrong, errors })

export class WalletSteps {
  constructor(readonly app: FastifyInstance) {}

  ctx(w: WalletContext) {
    return { site: w.site, cartId: w.cartId, baseUrl: w.baseUrl, customerId: w.customerId }
  }

  offers(w: WalletContext, id: 'paypal' | 'amazon'): boolean {
    return !!this.app.paymentMethods.usable(w.site, w.customerId, id) && !!this.app.payments.adapters[id]
  }

  /** The basket being checked out, or a reply saying why there is none. */
  async basket(w: WalletContext): Promise<{ cart: Cart; cartId: string } | { reply: WalletReply }> {
    const ctx = this.ctx(w)
    const cart = await this.app.carts.get(ctx)
    if (!ctx.cartId || !cart.id || cart.items.length === 0)
      return reply(422, {
        message: CHECKOUT_TEXT.emptyBasket,
        errors: { cart: [CHECKOUT_TEXT.emptyBasket] },
        redirect: '/cart',
      })
    return { cart, cartId: cart.id }
  }

  async newAttempt(site: Site, cartId: string, method: 'paypal' | 'amazon', amount: number) {
    // A cap on tries per basket (design checkout.md: cap payment attempts per order).
    if ((await this.app.payments.forOrder(`basket:${cartId}`)).length >= MAX_ATTEMPTS_PER_BASKET)
      return reply(429, { message: WALLET_TEXT.tooManyAttempts })
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
        return reply(409, {
          message: err.code === 'already_paid' ? WALLET_TEXT.alreadyPaid : WALLET_TEXT.confirming,
        })
      throw err
    }
  }
}
