/**
 * PayPal (Orders v2) at checkout (ADR 0073): create-order (a new attempt and PayPal order for the
 * basket's total, shipping options from the site's rates, the buyer's address from PayPal) → the
 * buyer approves in PayPal's window → get-order-information imports the details read-only → at
 * Complete Order the server re-prices, makes the PayPal order's amount the basket's (PATCH),
 * captures with a PayPal-Request-Id, and only then places the order. A higher total than approved
 * answers PAYER_ACTION_REQUIRED: the shopper re-approves (create-order with reApproval, a new
 * order). Every PayPal order id a browser sends is checked against its session's.
 */
import type { FastifyInstance } from 'fastify'
import type { Cart } from '../../../../shared/cart.ts'
import { CHECKOUT_TEXT, type OrderForm } from '../../../../shared/checkout.ts'
import type { PaypalOrder, PaypalShippingOption } from './paypal.provider.ts'
import type { Authorisation, AuthoriseContext } from '../../payments/payment-methods.ts'
import { PAYPAL_ORDER_ID } from '../wallets/wallet.methods.ts'
import {
  breakdownOf,
  formWithImported,
  isVerified,
  splitName,
  verifiedDetails,
  WALLET_TEXT,
  type ImportedDetails,
  type WalletContext,
} from '../wallets/wallet.shared.ts'
import { toMinor, walletRefusal, type Prepared, type WalletSteps } from '../wallets/wallet.steps.ts'

/** A PayPal refusal at Complete Order: declined, or the buyer must approve again (ADR 0240). */
const declined = (message: string, status: string, extra: Record<string, unknown> = {}): Authorisation => ({
  ok: false,
  code: 'payment_declined',
  message,
  answer: { status, ...extra, errors: { paypal: [message] } },
})

/** PayPal has not said yet what it took: the page asks again (the reconciler asks PayPal). */
const UNKNOWN: Authorisation = {
  ok: false,
  code: 'payment_pending',
  message: WALLET_TEXT.confirming,
  answer: { status: 'paymentUnknown' },
}

export class PaypalCheckout {
  constructor(
    private readonly app: FastifyInstance,
    private readonly steps: WalletSteps,
  ) {}

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

  /**
   * POST checkout/paypal/create-order: a PayPal order for the basket as it is now. `reApproval`
   * (true or false, as JSON or text) says it is the re-approval of a higher total.
   */
  async paypalCreateOrder(
    w: WalletContext,
    reApprovalField: unknown,
  ): Promise<{ result: { id: string; status: 'CREATED' }; reApproval: boolean }> {
    const r = reApprovalField
    if (r !== undefined && r !== null && typeof r !== 'boolean' && r !== 'true' && r !== 'false')
      throw walletRefusal.invalid({ reApproval: [WALLET_TEXT.reApprovalField] })
    const reApproval = r === true || r === 'true'
    this.steps.mustOffer(w, 'paypal')
    const { cart, cartId } = await this.steps.basket(w)
    if (!cart.shippingRates.some((r) => r.selected) || cart.cart_total_price_inc_tax <= 0)
      throw walletRefusal.invalid({ delivery_option: [CHECKOUT_TEXT.deliveryChanged] })
    const attempt = await this.steps.newAttempt(w.site, cartId, 'paypal', cart.cart_total_price_inc_tax)
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
      throw walletRefusal.provider(WALLET_TEXT.paypalOpen)
    }
    w.session.setPaypal({
      orderId: result.orderId,
      attemptId: attempt.id,
      cartRef: cartId,
      captureSeq: 0,
      reApproval,
    })
    return { result: { id: result.orderId, status: 'CREATED' }, reApproval }
  }

  /** The session's PayPal order when `orderId` is it (else null: someone else's, or none). */
  private ownPaypal(w: WalletContext, orderId: unknown) {
    const s = w.session.paypal()
    return s && typeof orderId === 'string' && s.orderId === orderId && s.cartRef === w.cartId ? s : null
  }

  /** A PayPal order id from the browser; refused with `message` under `field` when malformed. */
  private orderIdOf(value: unknown, field: string, message: string): string {
    if (typeof value !== 'string' || !PAYPAL_ORDER_ID.test(value))
      throw walletRefusal.invalid({ [field]: [message] })
    return value
  }

  /** This browser's PayPal order; not found when it is someone else's (or PayPal is not offered). */
  private owned(w: WalletContext, orderId: string) {
    const own = this.ownPaypal(w, orderId)
    if (!own || !this.steps.offers(w, 'paypal')) throw walletRefusal.notFound()
    return own
  }

  /** PayPal's order, read again; refused when PayPal cannot be asked now. */
  private async readOrder(w: WalletContext, orderId: string): Promise<PaypalOrder | null> {
    try {
      return await this.app.payments.adapters.paypal!.getOrder(orderId)
    } catch (err) {
      w.log.warn({ err }, 'PayPal order lookup failed')
      throw walletRefusal.provider(WALLET_TEXT.paypalAddress)
    }
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
  async paypalOrderInformation(w: WalletContext, paypalOrderId: unknown) {
    const orderId = this.orderIdOf(paypalOrderId, 'paypalOrderId', WALLET_TEXT.paypalAddress)
    const own = this.owned(w, orderId)
    const order = await this.readOrder(w, orderId)
    const imported = order && order.status !== 'CREATED' ? this.paypalImported(order) : null
    if (!order || !imported) throw walletRefusal.invalid({ paypalOrderId: [WALLET_TEXT.paypalAddress] })
    return {
      orderID: order.id,
      status: order.status,
      contact: imported.contact,
      shipping_address: imported.shipping,
      billing_address: imported.shipping,
      delivery_option: this.selectedOption(order),
      reApprovalRequired: own.reApproval,
    }
  }

  /**
   * POST checkout/paypal/update-shipping-options: the buyer picked a delivery option (in PayPal's
   * window or at step 3); the basket takes it and the PayPal order's amount follows.
   */
  async paypalUpdateShipping(
    w: WalletContext,
    data: unknown,
  ): Promise<{ cart: Cart; shippingRates: Cart['shippingRates'] }> {
    const d = (typeof data === 'object' && data !== null ? data : {}) as Record<string, unknown>
    const option = d.selectedShippingOption as Record<string, unknown> | undefined
    const rateId = Number(option?.id ?? d.shippingOptionId)
    const badOption = () =>
      walletRefusal.invalid({ 'data.selectedShippingOption': [WALLET_TEXT.paypalShipping] })
    const orderId = this.orderIdOf(d.orderID ?? d.paypalOrderId, 'data.orderID', WALLET_TEXT.paypalShipping)
    if (!Number.isSafeInteger(rateId) || rateId <= 0) throw badOption()
    this.owned(w, orderId)
    const ctx = this.steps.ctx(w)
    const before = await this.app.carts.get(ctx)
    const rate = before.shippingRates.find((r) => r.id === rateId)
    if (!rate) throw badOption()
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
    if (!patched.ok) throw walletRefusal.provider(WALLET_TEXT.paypalShipping, { cart })
    return { cart, shippingRates: cart.shippingRates }
  }

  /**
   * Complete Order with PayPal, before placement: the order id must be this browser's; the
   * buyer's details come from PayPal. The capture itself is the method's authorise() step
   * (paypalAuthorise), after the checkout has re-priced the basket.
   */
  async paypalPrepare(w: WalletContext, form: OrderForm): Promise<Prepared> {
    const details = form.transactions[0]!.paymentDetails
    const orderId = this.orderIdOf(form.orderID ?? details.orderID, 'orderID', WALLET_TEXT.paypalAddress)
    let own = this.owned(w, orderId)
    const attempt = await this.app.payments.get(own.attemptId)
    if (!attempt) throw walletRefusal.notFound()
    if (attempt.state === 'requires_action' && attempt.nextAction?.type === 'paypalRestart') {
      // The buyer chose another funding source after a decline: a new capture request.
      own = { ...own, captureSeq: own.captureSeq + 1 }
      w.session.setPaypal(own)
    }
    const order = await this.readOrder(w, orderId)
    const imported = order ? this.paypalImported(order, form) : null
    if (!order || !imported) throw walletRefusal.invalid({ orderID: [WALLET_TEXT.paypalAddress] })
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
    if (!ready.ok) throw walletRefusal.invalid(ready.errors)
    return { place: ready.form }
  }

  /**
   * PayPal's authorise() (ADR 0070): the basket is re-priced and equal to what the shopper saw.
   * Make the PayPal order's amount the basket's, then capture (PayPal-Request-Id per attempt
   * and funding try, so a retried Complete Order never captures twice).
   */
  async paypalAuthorise(ctx: AuthoriseContext): Promise<Authorisation> {
    const d = ctx.details
    if (!isVerified(d) || typeof d.attemptId !== 'string' || typeof d.orderID !== 'string')
      return { ok: false, code: 'payment_invalid', message: WALLET_TEXT.paypalAddress }
    const adapter = this.app.payments.adapters.paypal!
    let attempt = await this.app.payments.get(d.attemptId)
    if (!attempt || attempt.providerRefs.paypalOrderId !== d.orderID)
      return { ok: false, code: 'payment_not_found', message: 'Not Found' }
    // A capture whose answer was lost: PayPal is asked what it took before anything else, so a
    // capture for an older total is placed or given back, never patched over.
    if (attempt.state === 'unknown') attempt = await this.app.payments.reconcile(attempt.id)
    if (attempt.state !== 'captured' && attempt.state !== 'authorised' && attempt.state !== 'pending') {
      let order: PaypalOrder | null
      try {
        order = await adapter.getOrder(d.orderID)
      } catch {
        return UNKNOWN
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
        if (!patched.ok) return { ok: false, code: 'payment_invalid', message: WALLET_TEXT.paypalShipping }
      }
      const seq = typeof d.captureSeq === 'number' ? d.captureSeq : 0
      // Kept before the capture: if the answer is lost and the browser leaves, the reconciler places it.
      await this.app.payments.keepCheckout(attempt.id, ctx.checkout)
      attempt = await this.app.payments.paypalCapture(attempt.id, 'CAPTURE', seq)
      const action = attempt.nextAction
      if (attempt.state === 'requires_action' && action?.type === 'paypalRestart')
        return declined(WALLET_TEXT.paypalDeclined, 'paypalRestart')
      if (attempt.state === 'requires_action' && action?.type === 'redirect')
        return declined(WALLET_TEXT.paypalReApproval, 'paypalReApprovalRequired', {
          reApprovalRequired: true,
        })
      if (attempt.state === 'unknown') return UNKNOWN
      if (attempt.state !== 'captured' && attempt.state !== 'authorised' && attempt.state !== 'pending')
        return declined(WALLET_TEXT.paypalDeclined, 'paypalDeclined')
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

  forgetPaypal(w: WalletContext): void {
    w.session.setPaypal(null)
  }
}
