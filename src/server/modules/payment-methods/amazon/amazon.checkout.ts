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
import {
  invalid,
  notFound,
  reply,
  type Prepared,
  type WalletReply,
  type WalletSteps,
} from '../wallets/wallet.steps.ts'

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
        : { ok: false, status: 422, body: { message: WALLET_TEXT.amazonSession } },
    )
  }

  /** POST /checkout/amazon/create-amazon-session: the signed button (GBP, en_GB, PayAndShip). */
  async amazonCreateSession(w: WalletContext): Promise<WalletReply> {
    if (!this.steps.offers(w, 'amazon'))
      return {
        status: 422,
        body: {
          message: CHECKOUT_TEXT.methodUnavailable,
          errors: { payment_method: [CHECKOUT_TEXT.methodUnavailable] },
        },
      }
    const basket = await this.steps.basket(w)
    if ('reply' in basket) return basket.reply
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
      status: 200,
      body: {
        ...config,
        estimatedOrderAmount: {
          amount: (basket.cart.cart_total_price_inc_tax / 100).toFixed(2),
          currencyCode: 'GBP',
        },
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

  private async amazonLookup(w: WalletContext, id: string) {
    try {
      return await this.app.payments.adapters.amazon!.getCheckoutSession(id)
    } catch (err) {
      w.log.warn({ err }, 'Amazon checkout session lookup failed')
      return undefined
    }
  }

  /** The bound session's buyer, address and payment descriptor (§3 amazonOrderData). */
  async amazonSessionInformation(w: WalletContext, id: unknown): Promise<WalletReply> {
    if (typeof id !== 'string' || !AMAZON_SESSION_ID.test(id))
      return {
        status: 422,
        body: {
          message: WALLET_TEXT.amazonSession,
          errors: { amazonCheckoutSessionId: [WALLET_TEXT.amazonSession] },
        },
      }
    const own = this.ownAmazon(w, id)
    if (!own || !this.steps.offers(w, 'amazon')) return { status: 404, body: { message: 'Not Found' } }
    const session = await this.amazonLookup(w, id)
    if (session === undefined) return { status: 502, body: { message: CHECKOUT_TEXT.unknownError } }
    const imported = session && session.statusDetails.state === 'Open' ? this.amazonImported(session) : null
    if (!session || !imported) {
      w.session.setAmazon({ ...own, checkoutSessionId: null })
      return {
        status: 422,
        body: {
          message: WALLET_TEXT.amazonSession,
          errors: { amazonCheckoutSessionId: [WALLET_TEXT.amazonSession] },
        },
      }
    }
    return {
      status: 200,
      body: {
        amazonOrderData: {
          amazonCheckoutSessionId: id,
          paymentDescriptor: session.paymentPreferences?.[0]?.paymentDescriptor ?? '',
          hasViewedDeliveryOptions: own.deliveryViewed,
        },
        contact: imported.contact,
        shipping_address: imported.shipping,
        billing_address: imported.shipping,
      },
    }
  }

  /** The Amazon delivery-viewed notice: the next load of checkout jumps to step 3 (§4). */
  deliveryViewed(w: WalletContext, id: unknown): WalletReply {
    if (typeof id !== 'string' || !AMAZON_SESSION_ID.test(id))
      return {
        status: 422,
        body: {
          message: WALLET_TEXT.amazonSession,
          errors: { amazonCheckoutSessionId: [WALLET_TEXT.amazonSession] },
        },
      }
    const own = this.ownAmazon(w, id)
    if (!own || !this.steps.offers(w, 'amazon')) return { status: 404, body: { message: 'Not Found' } }
    w.session.setAmazon({ ...own, deliveryViewed: true })
    return { status: 200, body: { hasViewedDeliveryOptions: true } }
  }

  /** Complete Order with Amazon Pay: set the amount and result URL, then off to Amazon. */
  async amazonPrepare(w: WalletContext, form: OrderForm, idempotencyKey: string | null): Promise<Prepared> {
    const data = form.transactions[0]!.paymentDetails.amazonOrderData as Record<string, unknown> | undefined
    const id = form.amazonCheckoutSessionId ?? data?.amazonCheckoutSessionId
    if (typeof id !== 'string' || !AMAZON_SESSION_ID.test(id))
      return invalid({ amazonCheckoutSessionId: [WALLET_TEXT.amazonSession] })
    const own = this.ownAmazon(w, id)
    if (!own) return notFound()
    const session = await this.amazonLookup(w, id)
    if (session === undefined) return reply(502, { message: CHECKOUT_TEXT.unknownError })
    const imported = session && session.statusDetails.state === 'Open' ? this.amazonImported(session) : null
    if (!session || !imported) return invalid({ amazonCheckoutSessionId: [WALLET_TEXT.amazonSession] })
    const basket = await this.steps.basket(w)
    if ('reply' in basket) return basket
    if (basketMoved(form, basket.cart))
      return reply(409, {
        message: CHECKOUT_TEXT.totalChanged,
        warning: CHECKOUT_TEXT.totalChanged,
        cart: basket.cart,
      })
    const checked = formWithImported(form, w.site, imported, {})
    if (!checked.ok) return invalid(checked.errors)
    const attempt = await this.steps.newAttempt(
      w.site,
      basket.cartId,
      'amazon',
      basket.cart.cart_total_price_inc_tax,
    )
    if ('reply' in attempt) return attempt
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
      return reply(502, { message: WALLET_TEXT.amazonDeclined })
    }
    w.session.setAmazon({
      ...own,
      attemptId: attempt.id,
      pending: { form: { ...form, 'g-recaptcha-response': undefined }, idempotencyKey },
    })
    // Not `redirect`: the page follows that inside the shop; the component leaves for Amazon.
    return reply(200, { status: 'amazonRedirect', amazonPayRedirectUrl: action.url })
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
    const session = await this.amazonLookup(w, id)
    const imported = session ? this.amazonImported(session) : null
    if (!imported) return { error: WALLET_TEXT.amazonSession }
    const ready = formWithImported(form, w.site, imported, details)
    if (!ready.ok) return { error: Object.values(ready.errors)[0]?.[0] ?? CHECKOUT_TEXT.somethingWrong }
    return { place: ready.form, idempotencyKey: s.pending.idempotencyKey }
  }

  forgetAmazon(w: WalletContext): void {
    w.session.setAmazon(null)
  }
}
