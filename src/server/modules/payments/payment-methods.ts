/**
 * The payment-method seam (ADR 0065). Checkout and the orders placement workflow know payment methods only through this
 * interface; each method is registered once in a `PaymentMethodRegistry` (app.ts builds it and
 * registers purchase_order; modules/payment-methods/ registers sagepay, paya, paypal and amazon), and
 * a site offers the methods its `paymentMethods` setting lists, in that order, that are
 * registered and available to the shopper.
 *
 * Placing an order calls, in this order:
 *  1. `parseDetails(form, ctx)`: the method's part of the order form (§3 "Payment details by
 *     provider"), checked; errors are field messages (422, nothing written);
 *  2. `authorise(ctx)` (provider methods only) BEFORE the order transaction: the one step that may
 *     call the provider (through app.payments, which persists an attempt first). It answers the
 *     details `settle` records, or a refusal by code (`Authorisation`): `payment_declined` for a
 *     decline or a 3-D Secure challenge (`status: 'auth3DSCheckRequired'`), `payment_pending`
 *     while the provider's answer is unknown (the reconciler asks it), `payment_moved`,
 *     `payment_not_found`, `payment_invalid`; plugins/error-handler.ts answers each code;
 *  3. `settle(ctx)` INSIDE the order transaction, after the order row exists and the money
 *     invariant (orders/placement.invariant.ts) has compared the provider's confirmed amount with
 *     the re-priced basket: returns the transaction row to write. It must not call a provider over
 *     the network nor read outside the transaction (the basket row is locked). The order's state
 *     is the invariant's, never the method's.
 *
 * The provider fields of `/checkout/complete` (spec §7: card_identifier, save_card, saved_card,
 * threeDSSessionData, aCSResponse, orderID, amazonCheckoutSessionId, …) reach `parseDetails`
 * merged over `transactions[0]` (amount, paymentDetails, paymentProvider), see
 * `PROVIDER_FORM_FIELDS` in shared/checkout.ts.
 */
import type { PaymentRefusalCode } from '../../lib/domain-error.ts'
import type { Site } from '../sites/sites.service.ts'
import type { PaymentAttempt } from '../payments/payments.service.ts'
import type { CheckoutSnapshot } from '../payments/payments.tables.ts'
import type { AddressData, ContactData } from '../../../shared/customer.ts'

/** One option of step 1 (spec §3 Checkout state payment_methods). */
export interface PaymentMethodOption {
  id: string
  label: string
  img: string
  detail: string
}

export interface PaymentContext {
  site: Site
  /** The logged-in customer, or null for a guest */
  customerId: number | null
  /** The contact's names, for defaults such as the purchase-order number */
  contact: { firstName: string; lastName: string }
}

export type ParsedDetails =
  { ok: true; details: Record<string, unknown> } | { ok: false; errors: Record<string, string[]> }

export interface SettleContext {
  orderId: number
  orderNumber: number
  /** The amount to take, minor units, re-priced on the server */
  amount: number
  currency: string
  details: Record<string, unknown>
}

export interface Settlement {
  transaction: {
    paymentDetails: Record<string, unknown>
    amount: number
    message: string
    authCode: string
  }
}

/** What a provider method may use to authorise before the order is written. */
export interface AuthoriseContext extends PaymentContext {
  /** The basket's reference: the provider attempts of this checkout belong to it. */
  cartRef: string
  /** The amount to take, minor units: the basket's current re-priced total. */
  amount: number
  currency: string
  details: Record<string, unknown>
  shipping: AddressData
  billing: AddressData
  contactDetails: ContactData
  /** The shop's own origin for this request (return and notification URLs). */
  baseUrl: string
  /** The shopper's browser, as 3-D Secure asks for it. */
  client: { ip: string; userAgent: string; accept: string; language: string }
  /**
   * The checked order form and who submitted it: kept with the payment attempt (createAttempt's
   * or keepCheckout) BEFORE any call that may take the money, so the reconciler can place the
   * order if the browser never comes back (ADR 0071).
   */
  checkout: CheckoutSnapshot
}

/**
 * The provider's verdict before the order is written: the details `settle` records, or a refusal
 * as a code (lib/domain-error.ts), the shopper's message and what else the page reads (the
 * method's status word, a retry flag, field errors, a 3-D Secure form). No HTTP status: the
 * error handler answers the code (ADR 0171, ADR 0240).
 */
export type Authorisation =
  | { ok: true; details: Record<string, unknown> }
  | { ok: false; code: PaymentRefusalCode; message: string; answer?: Record<string, unknown> }

/** The page's per-method set-up (script URL, merchant id, saved cards…): the client's `config`. */
export type ClientConfig = Record<string, unknown>

export interface PaymentMethod {
  /** The id of §2 step 1: purchase_order, sagepay, paya, paypal, amazon */
  readonly id: string
  /** Whether this shopper on this site may use it (beyond the site listing it) */
  available(ctx: Omit<PaymentContext, 'contact'>): boolean
  parseDetails(form: Record<string, unknown>, ctx: PaymentContext): ParsedDetails
  /** Provider methods: the network step before placement (see the top of this file). */
  authorise?(ctx: AuthoriseContext): Promise<Authorisation>
  settle(ctx: SettleContext): Promise<Settlement> | Settlement
  /**
   * The reconciler, for a paid attempt whose browser never came back: the details `settle`
   * records, made from the attempt alone (the provider already said it is paid).
   */
  resume?(attempt: PaymentAttempt): Promise<Record<string, unknown>>
  /** What the checkout page's component for this method needs (never a secret). */
  clientConfig?(ctx: Omit<PaymentContext, 'contact'>): Promise<ClientConfig> | ClientConfig
  /** Script, frame and connect origins the checkout page must allow for this method (its CSP). */
  readonly origins?: { script: string[]; frame: string[]; connect: string[] }
}

export class PaymentMethodRegistry {
  private readonly methods = new Map<string, PaymentMethod>()

  register(method: PaymentMethod): void {
    if (this.methods.has(method.id)) throw new Error(`payment method ${method.id} registered twice`)
    this.methods.set(method.id, method)
  }

  get(id: string): PaymentMethod | null {
    return this.methods.get(id) ?? null
  }

  /** The step-1 options of a site for this shopper: listed in its settings, registered, available. */
  optionsFor(site: Site, customerId: number | null): PaymentMethodOption[] {
    return site.settings.paymentMethods
      .filter((m) => this.methods.get(m.id)?.available({ site, customerId }))
      .map((m) => ({ id: m.id, label: m.label, img: m.img, detail: m.detail }))
  }

  /** The page set-up of every offered method that has one, by method id. */
  async clientConfigFor(site: Site, customerId: number | null): Promise<Record<string, ClientConfig>> {
    const out: Record<string, ClientConfig> = {}
    for (const o of this.optionsFor(site, customerId)) {
      const m = this.methods.get(o.id)
      if (m?.clientConfig) out[o.id] = await m.clientConfig({ site, customerId })
    }
    return out
  }

  /** Every registered method's origins (the checkout page's CSP), whatever the site. */
  origins(): { script: string[]; frame: string[]; connect: string[] } {
    const all = { script: new Set<string>(), frame: new Set<string>(), connect: new Set<string>() }
    for (const m of this.methods.values()) {
      for (const k of ['script', 'frame', 'connect'] as const)
        for (const o of m.origins?.[k] ?? []) all[k].add(o)
    }
    return { script: [...all.script], frame: [...all.frame], connect: [...all.connect] }
  }

  /** The method when the site offers it to this shopper, else null. */
  usable(site: Site, customerId: number | null, id: string): PaymentMethod | null {
    return this.optionsFor(site, customerId).some((o) => o.id === id) ? this.get(id) : null
  }
}
