/**
 * Amazon Pay (Checkout v2) at checkout (ADR 0073): create-amazon-session signs the button payload
 * (the review return carries a state tied to this session) → the review return binds the checkout
 * session to this browser → at Complete Order the session gets its amount and result URL and the
 * shopper goes to Amazon → the result return completes the checkout session and places the order
 * stored for it. Every session id a browser sends is checked against its session's.
 */
import { randomBytes } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { CHECKOUT_TEXT, type OrderForm } from '../../../../shared/checkout.ts'
import type { AmazonCheckoutSession } from './amazon.provider.ts'
import { DomainError, firstMessage } from '../../../lib/domain-error.ts'
import type { Authorisation, AuthoriseContext } from '../../payments/payment-methods.ts'
import { AMAZON_SESSION_ID } from '../wallets/wallet.methods.ts'
import {
  basketMoved,
  formWithImported,
  isVerified,
  splitName,
  verifiedDetails,
  WALLET_TEXT,
  type ImportedDetails,
  type WalletContext,
} from '../wallets/wallet.shared.ts'
import { walletRefusal, type Prepared, type WalletSteps } from '../wallets/wallet.steps.ts'

/** The Amazon checkout session a browser names is malformed, gone or no longer open. */
const sessionInvalid = () => walletRefusal.invalid({ amazonCheckoutSessionId: [WALLET_TEXT.amazonSession] })

export class AmazonCheckout {
  constructor(
    private readonly app: FastifyInstance,
    private readonly steps: WalletSteps,
  ) {}

  /** Amazon's authorise(): the checkout session was completed on the result return; nothing to call. */
  amazonAuthorise(ctx: AuthoriseContext): Promise<Authorisation> {
    const d = ctx.details
    const ok =
      isVerified(d) &&
      (d.attemptState === 'captured' || d.attemptState === 'authorised' || d.attemptState === 'pending')
    return Promise.resolve(
      ok
        ? { ok: true, details: d }
        : { ok: false, code: 'payment_invalid', message: WALLET_TEXT.amazonSession },
    )
  }

  /** POST /checkout/amazon/create-amazon-session: the signed button (GBP, en_GB, PayAndShip). */
  async amazonCreateSession(w: WalletContext) {
    this.steps.mustOffer(w, 'amazon')
    const basket = await this.steps.basket(w)
    const previous = w.session.amazon()
    const state =
      previous && previous.cartRef === basket.cartId && !previous.checkoutSessionId
        ? previous.state
        : randomBytes(16).toString('base64url')
    w.session.setAmazon({
      state,
      cartRef: basket.cartId,
      checkoutSessionId: null,
      deliveryViewed: false,
      attemptId: null,
      pending: null,
    })
    const base = w.baseUrl
    const config = this.app.payments.adapters.amazon!.buttonConfig(
      `${base}/checkout/amazon/review?state=${state}`,
      // Amazon offers the buyer only addresses the site delivers to.
      (await this.app.checkout.deliveryCountries(w.site)).map((c) => c.code),
    )
    return {
      ...config,
      estimatedOrderAmount: {
        amount: (basket.cart.cart_total_price_inc_tax / 100).toFixed(2),
        currencyCode: 'GBP',
      },
    }
  }

  /** The review return: Amazon sends the shopper back with the session it made; bind it here. */
  async amazonReview(w: WalletContext, query: Record<string, unknown>): Promise<string> {
    const s = w.session.amazon()
    const id = query.amazonCheckoutSessionId
    if (
      !s ||
      typeof query.state !== 'string' ||
      query.state !== s.state ||
      typeof id !== 'string' ||
      !AMAZON_SESSION_ID.test(id) ||
      s.cartRef !== w.cartId ||
      !this.steps.offers(w, 'amazon')
    )
      return '/checkout'
    w.session.setAmazon({ ...s, checkoutSessionId: id, deliveryViewed: false, pending: null })
    return `/checkout?amazonCheckoutSessionId=${encodeURIComponent(id)}`
  }

  private ownAmazon(w: WalletContext, id: unknown) {
    const s = w.session.amazon()
    return s && typeof id === 'string' && s.checkoutSessionId === id && s.cartRef === w.cartId ? s : null
  }

  /** A checkout session id from the browser; refused when malformed. */
  private sessionIdOf(value: unknown): string {
    if (typeof value !== 'string' || !AMAZON_SESSION_ID.test(value)) throw sessionInvalid()
    return value
  }

  /** This browser's bound Amazon session; not found when it is someone else's (or Amazon is not offered). */
  private owned(w: WalletContext, id: string) {
    const own = this.ownAmazon(w, id)
    if (!own || !this.steps.offers(w, 'amazon')) throw walletRefusal.notFound()
    return own
  }

  private amazonImported(session: AmazonCheckoutSession): ImportedDetails | null {
    const a = session.shippingAddress
    const buyer = session.buyer
    if (!a || !buyer) return null
    const names = splitName(buyer.name ?? a.name ?? '')
    return {
      contact: {
        ...names,
        email: buyer.email ?? '',
        phone: buyer.phoneNumber ?? a.phoneNumber ?? '',
        company: '',
      },
      shipping: {
        company: '',
        address1: a.addressLine1 ?? '',
        address2: [a.addressLine2, a.addressLine3].filter(Boolean).join(', '),
        town: a.city ?? '',
        county: a.county ?? a.stateOrRegion ?? '',
        postcode: a.postalCode ?? '',
        country: (a.countryCode ?? '').toUpperCase(),
      },
    }
  }

  /** Amazon's checkout session, read again (null: Amazon does not know it); refused when Amazon cannot be asked. */
  private async amazonLookup(w: WalletContext, id: string) {
    try {
      return await this.app.payments.adapters.amazon!.getCheckoutSession(id)
    } catch (err) {
      w.log.warn({ err }, 'Amazon checkout session lookup failed')
      throw walletRefusal.provider(CHECKOUT_TEXT.unknownError)
    }
  }

  /** The bound session's buyer, address and payment descriptor (§3 amazonOrderData). */
  async amazonSessionInformation(w: WalletContext, sessionId: unknown) {
    const id = this.sessionIdOf(sessionId)
    const own = this.owned(w, id)
    const session = await this.amazonLookup(w, id)
    const imported = session && session.statusDetails.state === 'Open' ? this.amazonImported(session) : null
    if (!session || !imported) {
      w.session.setAmazon({ ...own, checkoutSessionId: null })
      throw sessionInvalid()
    }
    return {
      amazonOrderData: {
        amazonCheckoutSessionId: id,
        paymentDescriptor: session.paymentPreferences?.[0]?.paymentDescriptor ?? '',
        hasViewedDeliveryOptions: own.deliveryViewed,
      },
      contact: imported.contact,
      shipping_address: imported.shipping,
      billing_address: imported.shipping,
    }
  }

  /** The Amazon delivery-viewed notice: the next load of checkout jumps to step 3 (§4). */
  deliveryViewed(w: WalletContext, sessionId: unknown): { hasViewedDeliveryOptions: true } {
    const own = this.owned(w, this.sessionIdOf(sessionId))
    w.session.setAmazon({ ...own, deliveryViewed: true })
    return { hasViewedDeliveryOptions: true }
  }

  /** Complete Order with Amazon Pay: set the amount and result URL, then off to Amazon. */
  async amazonPrepare(w: WalletContext, form: OrderForm, idempotencyKey: string | null): Promise<Prepared> {
    const data = form.transactions[0]!.paymentDetails.amazonOrderData as Record<string, unknown> | undefined
    const id = this.sessionIdOf(form.amazonCheckoutSessionId ?? data?.amazonCheckoutSessionId)
    const own = this.owned(w, id)
    const session = await this.amazonLookup(w, id)
    const imported = session && session.statusDetails.state === 'Open' ? this.amazonImported(session) : null
    if (!session || !imported) throw sessionInvalid()
    const basket = await this.steps.basket(w)
    if (basketMoved(form, basket.cart))
      throw new DomainError('basket_moved', CHECKOUT_TEXT.totalChanged, {}, { cart: basket.cart })
    const checked = formWithImported(form, w.site, imported, {})
    if (!checked.ok) throw walletRefusal.invalid(checked.errors)
    const attempt = await this.steps.newAttempt(
      w.site,
      basket.cartId,
      'amazon',
      basket.cart.cart_total_price_inc_tax,
    )
    await this.app.payments.amazonAttachSession(attempt.id, id)
    // Kept before the shopper goes to Amazon: if they never come back, the reconciler places it.
    await this.app.payments.keepCheckout(attempt.id, {
      form: { ...checked.form, 'g-recaptcha-response': undefined },
      customerId: w.customerId,
      idempotencyKey,
      baseUrl: w.baseUrl,
    })
    const prepared = await this.app.payments.amazonPrepare(attempt.id, {
      resultReturnUrl: `${w.baseUrl}/checkout/amazon/result?state=${own.state}`,
      merchantReferenceId: `basket-${basket.cartId}`,
      storeName: w.site.name,
    })
    const action = prepared.nextAction
    if (prepared.state !== 'requires_action' || action?.type !== 'redirect') {
      w.log.warn({ attempt: prepared.id, code: prepared.lastCode }, 'Amazon session not prepared')
      throw walletRefusal.provider(WALLET_TEXT.amazonDeclined)
    }
    w.session.setAmazon({
      ...own,
      attemptId: attempt.id,
      pending: { form: { ...form, 'g-recaptcha-response': undefined }, idempotencyKey },
    })
    return { payAt: action.url }
  }

  /**
   * The result return from Amazon: complete the checkout session, then place the order the
   * shopper submitted. Answers what to place, or where to send the browser with a message.
   */
  async amazonResult(
    w: WalletContext,
    query: Record<string, unknown>,
  ): Promise<{ place: OrderForm; idempotencyKey: string | null } | { error: string }> {
    const s = w.session.amazon()
    const id = query.amazonCheckoutSessionId
    if (
      !s ||
      query.state !== s.state ||
      typeof id !== 'string' ||
      s.checkoutSessionId !== id ||
      !s.attemptId ||
      !s.pending
    )
      return { error: WALLET_TEXT.amazonSession }
    let attempt = await this.app.payments.get(s.attemptId)
    if (!attempt) return { error: WALLET_TEXT.amazonSession }
    if (attempt.state === 'requires_action') attempt = await this.app.payments.amazonComplete(attempt.id)
    if (attempt.state === 'unknown') return { error: WALLET_TEXT.confirming }
    if (attempt.state !== 'captured' && attempt.state !== 'authorised' && attempt.state !== 'pending') {
      w.session.setAmazon({ ...s, checkoutSessionId: null, attemptId: null, pending: null })
      return {
        error:
          attempt.lastCode === 'amazon_BuyerCanceled'
            ? WALLET_TEXT.amazonCanceled
            : WALLET_TEXT.amazonDeclined,
      }
    }
    const form = s.pending.form
    const data = form.transactions[0]!.paymentDetails.amazonOrderData as Record<string, unknown>
    const details = verifiedDetails({
      amazonOrderData: {
        amazonCheckoutSessionId: id,
        paymentDescriptor:
          typeof data?.paymentDescriptor === 'string' ? data.paymentDescriptor.slice(0, 100) : '',
        hasViewedDeliveryOptions: s.deliveryViewed,
      },
      attemptId: attempt.id,
      attemptState: attempt.state,
      chargeId: attempt.providerRefs.amazonChargeId ?? null,
      chargePermissionId: attempt.providerRefs.amazonChargePermissionId ?? null,
    })
    const session = await this.amazonLookup(w, id).catch(() => null)
    const imported = session ? this.amazonImported(session) : null
    if (!imported) return { error: WALLET_TEXT.amazonSession }
    const ready = formWithImported(form, w.site, imported, details)
    if (!ready.ok) return { error: firstMessage(ready.errors) }
    return { place: ready.form, idempotencyKey: s.pending.idempotencyKey }
  }

  forgetAmazon(w: WalletContext): void {
    w.session.setAmazon(null)
  }
}
