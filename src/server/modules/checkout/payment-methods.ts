/**
 * The payment-method seam (ADR 0065). Checkout knows payment methods only through this
 * interface; each method is registered once in a `PaymentMethodRegistry` (app.ts builds it and
 * registers purchase_order; the payments module registers sagepay, paya, paypal and amazon), and
 * a site offers the methods its `paymentMethods` setting lists, in that order, that are
 * registered and available to the shopper.
 *
 * Placing an order calls, in this order:
 *  1. `parseDetails(form, ctx)`: the method's part of the order form (§3 "Payment details by
 *     provider"), checked; errors are field messages (422, nothing written);
 *  2. `settle(ctx)` INSIDE the order transaction, after the order row exists: returns the order's
 *     state and the transaction row to write. It must not call a provider over the network (the
 *     basket row is locked): a provider method authorises before placement (its own pre-order /
 *     session calls, persisted attempts, see payments.md §7) and `settle` only records the
 *     verified result, or answers `pending_payment` for a flow that completes later.
 */
import type { Site } from '../sites/sites.service.ts'
import type { OrderStatus } from '../orders/orders.tables.ts'

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
  status: OrderStatus
  transaction: {
    paymentDetails: Record<string, unknown>
    amount: number
    message: string
    authCode: string
  }
}

export interface PaymentMethod {
  /** The id of §2 step 1: purchase_order, sagepay, paya, paypal, amazon */
  readonly id: string
  /** Whether this shopper on this site may use it (beyond the site listing it) */
  available(ctx: Omit<PaymentContext, 'contact'>): boolean
  parseDetails(form: Record<string, unknown>, ctx: PaymentContext): ParsedDetails
  settle(ctx: SettleContext): Promise<Settlement> | Settlement
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

  /** The method when the site offers it to this shopper, else null. */
  usable(site: Site, customerId: number | null, id: string): PaymentMethod | null {
    return this.optionsFor(site, customerId).some((o) => o.id === id) ? this.get(id) : null
  }
}

export const PO_NUMBER_MAX = 50

/** Purchase order: no money moves now; the order is placed and invoiced (§3, §4, §5). */
export const purchaseOrder: PaymentMethod = {
  id: 'purchase_order',
  available: ({ site, customerId }) =>
    site.settings.purchaseOrderAccess === 'everyone' || customerId !== null,
  parseDetails(form, ctx) {
    const details = (form.paymentDetails ?? {}) as Record<string, unknown>
    const given = [form.PONumber, details.PONumber].filter((v) => v !== undefined && v !== null)
    if (given.some((v) => typeof v !== 'string'))
      return { ok: false, errors: { PONumber: ['The PO number must be text.'] } }
    const raw = (given as string[]).find((v) => v.trim()) ?? ''
    const entered = raw.trim()
    if (entered.length > PO_NUMBER_MAX)
      return { ok: false, errors: { PONumber: [`Please enter no more than ${PO_NUMBER_MAX} characters.`] } }
    // Blank is allowed: then the first and last name joined with one space (checkout.md).
    const PONumber =
      entered ||
      `${ctx.contact.firstName.trim()} ${ctx.contact.lastName.trim()}`.trim().slice(0, PO_NUMBER_MAX)
    return { ok: true, details: { PONumber } }
  },
  settle({ amount, details }) {
    return {
      status: 'placed',
      transaction: { paymentDetails: { PONumber: details.PONumber }, amount, message: '', authCode: 'empty' },
    }
  },
}
