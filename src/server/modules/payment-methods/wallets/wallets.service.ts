/**
 * PayPal (Orders v2) and Amazon Pay (Checkout v2) at checkout (ADR 0073). Knows the browser's
 * session only through the small state in wallet.shared.ts; every id a browser sends is
 * checked against it (another browser's PayPal order or Amazon session is 404).
 *
 * PayPal: create-order (a new attempt and PayPal order for the basket's total, shipping options
 * from the site's rates, the buyer's address from PayPal) → the buyer approves in PayPal's
 * window → get-order-information imports the details read-only → at Complete Order the server
 * re-prices, makes the PayPal order's amount the basket's (PATCH), captures with a
 * PayPal-Request-Id, and only then places the order. A higher total than approved answers
 * PAYER_ACTION_REQUIRED: the shopper re-approves (create-order with reApproval, a new order).
 *
 * Amazon Pay: create-amazon-session signs the button payload (review return carries a state
 * tied to this session) → review return binds the checkout session to this browser → at
 * Complete Order the session gets its amount and result URL and the shopper goes to Amazon →
 * the result return completes the checkout session and places the order stored for it.
 */
import { randomBytes } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import type { Cart } from '../../../../shared/cart.ts'
import { CHECKOUT_TEXT, type OrderForm } from '../../../../shared/checkout.ts'
import { PaymentError } from '../../payments/payments.service.ts'
import type { PaypalOrder, PaypalShippingOption } from '../../payments/providers/paypal.ts'
import type { AmazonCheckoutSession } from '../../payments/providers/amazon.ts'
import type { Site } from '../../sites/sites.service.ts'
import type { Authorisation, AuthoriseContext } from '../../checkout/payment-methods.ts'
import { AMAZON_SESSION_ID, PAYPAL_ORDER_ID } from './wallet.methods.ts'
import {
  basketMoved,
  breakdownOf,
  formWithImported,
  isVerified,
  splitName,
  verifiedDetails,
  WALLET_TEXT,
  type ImportedDetails,
  type WalletContext,
} from './wallet.shared.ts'

/** What a wallet step answers: JSON with a status code. */
export interface WalletReply {
  status: number
  body: Record<string, unknown>
}

/** Before placement: place this (rewritten, verified) form, or answer without placing. */
export type Prepared = { place: OrderForm } | { reply: WalletReply }

/** Payment attempts one basket may make (every PayPal button click and Amazon submit is one). */
export const MAX_ATTEMPTS_PER_BASKET = 30

const toMinor = (value: unknown) => Math.round(Number(value) * 100)
const reply = (status: number, body: Record<string, unknown>): { reply: WalletReply } => ({
  reply: { status, body },
})
const notFound = () => reply(404, { message: 'Not Found' })
const invalid = (errors: Record<string, string[]>) =>
  reply(422, { message: Object.values(errors)[0]?.[0] ?? CHECKOUT_TEXT.somethingWrong, errors })

export class WalletCheckout {
  constructor(private readonly app: FastifyInstance) {}

  private ctx(w: WalletContext) {
    return { site: w.site, cartId: w.cartId, baseUrl: w.baseUrl, customerId: w.customerId }
  }

  private offers(w: WalletContext, id: 'paypal' | 'amazon'): boolean {
    return !!this.app.paymentMethods.usable(w.site, w.customerId, id) && !!this.app.payments.adapters[id]
  }

  /** The basket being checked out, or a reply saying why there is none. */
  private async basket(w: WalletContext): Promise<{ cart: Cart; cartId: string } | { reply: WalletReply }> {
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

  private async newAttempt(site: Site, cartId: string, method: 'paypal' | 'amazon', amount: number) {
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

  // --- PayPal --------------------------------------------------------------------------

  private shippingOptions(cart: Cart): PaypalShippingOption[] {
    // PayPal shows at most 10 options; the selected one is always among them.
    const rates = [...cart.shippingRates].sort((a, b) => Number(b.selected) - Number(a.selected)).slice(0, 10)
    return rates.map((r) => ({
      id: String(r.id),
      label: r.name.slice(0, 127) || `Delivery ${r.id}`,
      type: 'SHIPPING',
      selected: r.selected,
      amountMinor: r.price,
    }))
  }

  /** POST checkout/paypal/create-order: a PayPal order for the basket as it is now. */
  async paypalCreateOrder(w: WalletContext, reApproval: boolean): Promise<WalletReply> {
    if (!this.offers(w, 'paypal'))
      return {
        status: 422,
        body: {
          message: CHECKOUT_TEXT.methodUnavailable,
          errors: { payment_method: [CHECKOUT_TEXT.methodUnavailable] },
        },
      }
    const basket = await this.basket(w)
    if ('reply' in basket) return basket.reply
    const { cart, cartId } = basket
    if (!cart.shippingRates.some((r) => r.selected) || cart.cart_total_price_inc_tax <= 0)
      return {
        status: 422,
        body: {
          message: CHECKOUT_TEXT.deliveryChanged,
          errors: { delivery_option: [CHECKOUT_TEXT.deliveryChanged] },
        },
      }
    const attempt = await this.newAttempt(w.site, cartId, 'paypal', cart.cart_total_price_inc_tax)
    if ('reply' in attempt) return attempt.reply
    const base = w.baseUrl
    const b = breakdownOf(cart)
    const result = await this.app.payments.paypalCreateOrder(attempt.id, {
      itemTotalMinor: b.itemTotalMinor,
      shippingMinor: b.shippingMinor,
      taxTotalMinor: b.taxTotalMinor,
      discountMinor: 0,
      shippingOptions: this.shippingOptions(cart),
      brandName: w.site.name,
      locale: w.site.currency === 'USD' ? 'en-US' : 'en-GB',
      returnUrl: `${base}/checkout?paypal=approved`,
      cancelUrl: `${base}/checkout?paypal=cancelled`,
      // The buyer's address comes from PayPal and is shown read-only (§4).
      shippingPreference: 'GET_FROM_FILE',
    })
    if (!('orderId' in result)) {
      w.log.warn({ attempt: result.id, code: result.lastCode }, 'PayPal order not created')
      return { status: 502, body: { message: WALLET_TEXT.paypalOpen } }
    }
    w.session.setPaypal({
      orderId: result.orderId,
      attemptId: attempt.id,
      cartRef: cartId,
      captureSeq: 0,
      reApproval,
    })
    return { status: 200, body: { result: { id: result.orderId, status: 'CREATED' }, reApproval } }
  }

  /** The session's PayPal order when `orderId` is it (else null: someone else's, or none). */
  private ownPaypal(w: WalletContext, orderId: unknown) {
    const s = w.session.paypal()
    return s && typeof orderId === 'string' && s.orderId === orderId && s.cartRef === w.cartId ? s : null
  }

  private paypalImported(order: PaypalOrder, form?: OrderForm): ImportedDetails | null {
    const unit = order.purchase_units?.[0]
    const a = unit?.shipping?.address
    if (!a || !order.payer) return null
    const payer = order.payer as PaypalOrder['payer'] & {
      phone?: { phone_number?: { national_number?: string } }
    }
    const fullName = unit?.shipping?.name?.full_name
    const names =
      payer?.name?.given_name || payer?.name?.surname
        ? { firstName: payer.name.given_name ?? '', lastName: payer.name.surname ?? '' }
        : splitName(fullName ?? '')
    const formPhone = (form?.contact as Record<string, unknown> | null | undefined)?.phone
    return {
      contact: {
        ...names,
        email: payer?.email_address ?? '',
        // PayPal shares the phone only when the merchant asks for it; else the shopper types it.
        phone:
          payer?.phone?.phone_number?.national_number ?? (typeof formPhone === 'string' ? formPhone : ''),
        company: '',
      },
      shipping: {
        company: '',
        address1: a.address_line_1 ?? '',
        address2: a.address_line_2 ?? '',
        town: a.admin_area_2 ?? '',
        county: a.admin_area_1 ?? '',
        postcode: a.postal_code ?? '',
        country: (a.country_code ?? '').toUpperCase(),
      },
    }
  }

  private selectedOption(order: PaypalOrder): number | null {
    const options = (order.purchase_units?.[0]?.shipping?.options ?? []) as {
      id?: string
      selected?: boolean
    }[]
    const id = Number(options.find((o) => o.selected)?.id)
    return Number.isSafeInteger(id) && id > 0 ? id : null
  }

  /** GET checkout/paypal/get-order-information: the approved order's buyer and address (read-only). */
  async paypalOrderInformation(w: WalletContext, orderId: unknown): Promise<WalletReply> {
    if (typeof orderId !== 'string' || !PAYPAL_ORDER_ID.test(orderId))
      return {
        status: 422,
        body: { message: WALLET_TEXT.paypalAddress, errors: { paypalOrderId: [WALLET_TEXT.paypalAddress] } },
      }
    const own = this.ownPaypal(w, orderId)
    if (!own || !this.offers(w, 'paypal')) return { status: 404, body: { message: 'Not Found' } }
    let order: PaypalOrder | null
    try {
      order = await this.app.payments.adapters.paypal!.getOrder(orderId)
    } catch (err) {
      w.log.warn({ err }, 'PayPal order lookup failed')
      return { status: 502, body: { message: WALLET_TEXT.paypalAddress } }
    }
    const imported = order && order.status !== 'CREATED' ? this.paypalImported(order) : null
    if (!order || !imported)
      return {
        status: 422,
        body: { message: WALLET_TEXT.paypalAddress, errors: { paypalOrderId: [WALLET_TEXT.paypalAddress] } },
      }
    return {
      status: 200,
      body: {
        orderID: order.id,
        status: order.status,
        contact: imported.contact,
        shipping_address: imported.shipping,
        billing_address: imported.shipping,
        delivery_option: this.selectedOption(order),
        reApprovalRequired: own.reApproval,
      },
    }
  }

  /**
   * POST checkout/paypal/update-shipping-options: the buyer picked a delivery option (in PayPal's
   * window or at step 3); the basket takes it and the PayPal order's amount follows.
   */
  async paypalUpdateShipping(w: WalletContext, data: unknown): Promise<WalletReply> {
    const d = (typeof data === 'object' && data !== null ? data : {}) as Record<string, unknown>
    const orderId = d.orderID ?? d.paypalOrderId
    const option = d.selectedShippingOption as Record<string, unknown> | undefined
    const rateId = Number(option?.id ?? d.shippingOptionId)
    const bad = (field: string) => ({
      status: 422,
      body: { message: WALLET_TEXT.paypalShipping, errors: { [field]: [WALLET_TEXT.paypalShipping] } },
    })
    if (typeof orderId !== 'string' || !PAYPAL_ORDER_ID.test(orderId)) return bad('data.orderID')
    if (!Number.isSafeInteger(rateId) || rateId <= 0) return bad('data.selectedShippingOption')
    const own = this.ownPaypal(w, orderId)
    if (!own || !this.offers(w, 'paypal')) return { status: 404, body: { message: 'Not Found' } }
    const ctx = this.ctx(w)
    const before = await this.app.carts.get(ctx)
    const rate = before.shippingRates.find((r) => r.id === rateId)
    if (!rate) return bad('data.selectedShippingOption')
    const cart = rate.selected
      ? before
      : (await this.app.carts.updateCart(ctx, { despatch_type: rate.despatch_type })).cart
    const b = breakdownOf(cart)
    const patched = await this.app.payments.adapters
      .paypal!.updateShippingOptions(orderId, w.site.currency, b, this.shippingOptions(cart))
      .catch((err: unknown) => {
        w.log.warn({ err }, 'PayPal shipping update failed')
        return { ok: false as const, issue: 'network' }
      })
    if (!patched.ok) return { status: 502, body: { message: WALLET_TEXT.paypalShipping, cart } }
    return { status: 200, body: { cart, shippingRates: cart.shippingRates } }
  }

  /**
   * Complete Order with PayPal, before placement: the order id must be this browser's; the
   * buyer's details come from PayPal. The capture itself is the method's authorise() step
   * (paypalAuthorise), after the checkout has re-priced the basket.
   */
  private async paypalPrepare(w: WalletContext, form: OrderForm): Promise<Prepared> {
    const details = form.transactions[0]!.paymentDetails
    const orderId = form.orderID ?? details.orderID
    if (typeof orderId !== 'string' || !PAYPAL_ORDER_ID.test(orderId))
      return invalid({ orderID: [WALLET_TEXT.paypalAddress] })
    let own = this.ownPaypal(w, orderId)
    if (!own) return notFound()
    const attempt = await this.app.payments.get(own.attemptId)
    if (!attempt) return notFound()
    if (attempt.state === 'requires_action' && attempt.nextAction?.type === 'paypalRestart') {
      // The buyer chose another funding source after a decline: a new capture request.
      own = { ...own, captureSeq: own.captureSeq + 1 }
      w.session.setPaypal(own)
    }
    let order: PaypalOrder | null
    try {
      order = await this.app.payments.adapters.paypal!.getOrder(orderId)
    } catch (err) {
      w.log.warn({ err }, 'PayPal order lookup failed')
      return reply(502, { message: WALLET_TEXT.paypalAddress })
    }
    const imported = order ? this.paypalImported(order, form) : null
    if (!order || !imported) return invalid({ orderID: [WALLET_TEXT.paypalAddress] })
    const ready = formWithImported(
      form,
      w.site,
      imported,
      verifiedDetails({
        orderID: orderId,
        reApprovalRequired:
          own.reApproval || details.reApprovalRequired === true || form.paypalReApproval === true,
        attemptId: attempt.id,
        captureSeq: own.captureSeq,
      }),
    )
    return ready.ok ? { place: ready.form } : invalid(ready.errors)
  }

  /**
   * PayPal's authorise() (ADR 0070): the basket is re-priced and equal to what the shopper saw.
   * Make the PayPal order's amount the basket's, then capture (PayPal-Request-Id per attempt
   * and funding try, so a retried Complete Order never captures twice).
   */
  async paypalAuthorise(ctx: AuthoriseContext): Promise<Authorisation> {
    const d = ctx.details
    if (!isVerified(d) || typeof d.attemptId !== 'string' || typeof d.orderID !== 'string')
      return { ok: false, status: 422, body: { message: WALLET_TEXT.paypalAddress } }
    const adapter = this.app.payments.adapters.paypal!
    let attempt = await this.app.payments.get(d.attemptId)
    if (!attempt || attempt.providerRefs.paypalOrderId !== d.orderID)
      return { ok: false, status: 404, body: { message: 'Not Found' } }
    // A capture whose answer was lost: PayPal is asked what it took before anything else, so a
    // capture for an older total is placed or given back, never patched over.
    if (attempt.state === 'unknown') attempt = await this.app.payments.reconcile(attempt.id)
    if (attempt.state !== 'captured' && attempt.state !== 'authorised' && attempt.state !== 'pending') {
      let order: PaypalOrder | null
      try {
        order = await adapter.getOrder(d.orderID)
      } catch {
        return { ok: false, status: 202, body: { message: WALLET_TEXT.confirming, status: 'paymentUnknown' } }
      }
      const value = order?.purchase_units?.[0]?.amount?.value
      if (order && toMinor(value) !== ctx.amount) {
        // The total changed since approval (another delivery option at step 3): PayPal asks the
        // buyer again if it is more than they approved (PAYER_ACTION_REQUIRED).
        const cart = await this.app.carts.get({
          site: ctx.site,
          cartId: ctx.cartRef,
          baseUrl: ctx.baseUrl,
          customerId: ctx.customerId,
        })
        const patched = await adapter
          .updateShippingOptions(d.orderID, ctx.site.currency, breakdownOf(cart), this.shippingOptions(cart))
          .catch(() => ({ ok: false as const, issue: 'network' }))
        if (!patched.ok) return { ok: false, status: 422, body: { message: WALLET_TEXT.paypalShipping } }
      }
      const seq = typeof d.captureSeq === 'number' ? d.captureSeq : 0
      // Kept before the capture: if the answer is lost and the browser leaves, the reconciler places it.
      await this.app.payments.keepCheckout(attempt.id, ctx.checkout)
      attempt = await this.app.payments.paypalCapture(attempt.id, 'CAPTURE', seq)
      const action = attempt.nextAction
      if (attempt.state === 'requires_action' && action?.type === 'paypalRestart')
        return {
          ok: false,
          status: 402,
          body: {
            message: WALLET_TEXT.paypalDeclined,
            status: 'paypalRestart',
            errors: { paypal: [WALLET_TEXT.paypalDeclined] },
          },
        }
      if (attempt.state === 'requires_action' && action?.type === 'redirect')
        return {
          ok: false,
          status: 402,
          body: {
            message: WALLET_TEXT.paypalReApproval,
            status: 'paypalReApprovalRequired',
            reApprovalRequired: true,
            errors: { paypal: [WALLET_TEXT.paypalReApproval] },
          },
        }
      if (attempt.state === 'unknown')
        return { ok: false, status: 202, body: { message: WALLET_TEXT.confirming, status: 'paymentUnknown' } }
      if (attempt.state !== 'captured' && attempt.state !== 'authorised' && attempt.state !== 'pending')
        return {
          ok: false,
          status: 402,
          body: {
            message: WALLET_TEXT.paypalDeclined,
            status: 'paypalDeclined',
            errors: { paypal: [WALLET_TEXT.paypalDeclined] },
          },
        }
    }
    return {
      ok: true,
      details: verifiedDetails({
        ...d,
        attemptState: attempt.state,
        captureId: attempt.providerRefs.paypalCaptureId ?? null,
      }),
    }
  }

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

  // --- Amazon Pay ----------------------------------------------------------------------

  /** POST /checkout/amazon/create-amazon-session: the signed button (GBP, en_GB, PayAndShip). */
  async amazonCreateSession(w: WalletContext): Promise<WalletReply> {
    if (!this.offers(w, 'amazon'))
      return {
        status: 422,
        body: {
          message: CHECKOUT_TEXT.methodUnavailable,
          errors: { payment_method: [CHECKOUT_TEXT.methodUnavailable] },
        },
      }
    const basket = await this.basket(w)
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
      !this.offers(w, 'amazon')
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
    if (!own || !this.offers(w, 'amazon')) return { status: 404, body: { message: 'Not Found' } }
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
    if (!own || !this.offers(w, 'amazon')) return { status: 404, body: { message: 'Not Found' } }
    w.session.setAmazon({ ...own, deliveryViewed: true })
    return { status: 200, body: { hasViewedDeliveryOptions: true } }
  }

  /** Complete Order with Amazon Pay: set the amount and result URL, then off to Amazon. */
  private async amazonPrepare(
    w: WalletContext,
    form: OrderForm,
    idempotencyKey: string | null,
  ): Promise<Prepared> {
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
    const basket = await this.basket(w)
    if ('reply' in basket) return basket
    if (basketMoved(form, basket.cart))
      return reply(409, {
        message: CHECKOUT_TEXT.totalChanged,
        warning: CHECKOUT_TEXT.totalChanged,
        cart: basket.cart,
      })
    const checked = formWithImported(form, w.site, imported, {})
    if (!checked.ok) return invalid(checked.errors)
    const attempt = await this.newAttempt(
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

  forgetPaypal(w: WalletContext): void {
    w.session.setPaypal(null)
  }

  /** /checkout/complete: PayPal and Amazon take their payment first; other methods pass through. */
  async prepare(w: WalletContext, form: OrderForm, idempotencyKey: string | null): Promise<Prepared> {
    const method = form.payment_method ?? form.transactions[0]!.paymentProvider
    if (method !== 'paypal' && method !== 'amazon') return { place: form }
    if (!this.offers(w, method)) return invalid({ payment_method: [CHECKOUT_TEXT.methodUnavailable] })
    return method === 'paypal' ? this.paypalPrepare(w, form) : this.amazonPrepare(w, form, idempotencyKey)
  }
}
