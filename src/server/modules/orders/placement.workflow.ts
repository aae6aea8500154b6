/**
 * Placing an order: one workflow of named steps (design checkout.md "Placing an order", ADR 0064,
 * ADR 0170). Knows nothing of HTTP: a refusal is a domain error (placement.errors.ts) that the
 * error handler answers.
 *
 *   replay → botCheck → walletPayment → reprice → pay → write (… queue mails) → announce
 *
 * - replay: the order an earlier submit of this basket, or of this Idempotency-Key, placed is
 *   answered as it is. It runs before anything single-use (the bot-check token) so an honest
 *   retry gets its order.
 * - botCheck: the site's bot check verifies the submit's token.
 * - walletPayment: PayPal and Amazon Pay take (or start) the payment at the provider first, never
 *   inside the order transaction; Amazon may send the shopper to pay on its page instead (the
 *   order is placed on the way back). A wallet's refusal is a domain error like every other.
 * - reprice: the basket, the payment method, the contact and addresses, the delivery zone of
 *   the shipping address (the basket re-priced for it), the method's details; a method that
 *   authorises needs the re-priced total to be the one the shopper saw.
 * - pay: the provider authorises (or, for the reconciler, confirms a payment already taken).
 *   Compensation: when a later step refuses the order, this payment is given back (voided or
 *   refunded through the payments module) and the shopper is told so.
 * - write: the order's one transaction (placement.write.ts): lock, re-check, invariant, write,
 *   claim the attempt, and queue the order's e-mails in that same transaction.
 * - announce: other instances forget the ordered basket; the mail queue is kicked.
 *
 * ## An order is placed once
 *
 * 1. Replay: a submit that finds its basket's order (`orders.cart_ref`) or its Idempotency-Key's
 *    order (`orders.idempotency_key` per site) gets that order back, not a second one.
 * 2. Unique indexes back it whatever races: `orders_cart_ref` (one order per basket, deliberately
 *    not a foreign key the basket sweep could cascade), the idempotency key per site, and
 *    `payment_attempts` at most one successful attempt per order (orders.tables.ts,
 *    payments.tables.ts).
 * 3. The basket lock: the write step locks the basket row (`carts.lockForOrder`, SELECT … FOR
 *    UPDATE) and looks again for the basket's order under the lock, so a concurrent submit that
 *    got there first is answered, not doubled; the ordered basket is frozen (`markOrdered`).
 * 4. The claimed payment attempt: in the same transaction the order claims its paid attempt
 *    (`claimAttemptForOrder`, one conditional statement on the attempt row): an attempt belongs
 *    to one order, and an attempt being given back can no longer be claimed.
 *
 * What happens to money taken without an order (the browser never came back, or the order was
 * refused after the payment) is in unclaimed-payments.ts.
 */
import { and, eq } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import type { Cart } from '../../../shared/cart.ts'
import { CHECKOUT_TEXT, PROVIDER_FORM_FIELDS, type OrderForm } from '../../../shared/checkout.ts'
import { CUSTOMER_TEXT, type AddressData } from '../../../shared/customer.ts'
import { formatMoney } from '../../../shared/money.ts'
import type { DomainError } from '../../lib/domain-error.ts'
import type { LastOrder } from '../../lib/last-order.ts'
import type { CartService } from '../cart/cart.service.ts'
import type { PaymentMethod, PaymentMethodRegistry } from '../payments/payment-methods.ts'
import type { CustomerService } from '../customers/customers.service.ts'
import type { PaymentService } from '../payments/payments.service.ts'
import type { Site } from '../sites/sites.service.ts'
import type { OrdersService, Placed } from './orders.service.ts'
import { orders, type OrderRow } from './orders.tables.ts'
import { basketOf, orderDetails, type Details } from './placement.details.ts'
import { emptyBasket, invalid, moved, OrderRefused, paymentRefused } from './placement.errors.ts'
import { writeOrder, type RecordBuilds } from './placement.write.ts'
import { runSteps, type Step, type StepOutcome } from './workflow.ts'

const NEXT: StepOutcome = 'next'
/** The answer is known: the steps after this one do not run. */
const DONE: StepOutcome = 'done'

export type { Placed }

export interface PlaceInput {
  site: Site
  baseUrl: string
  /** The basket the session holds, and the session's last order (for a replay) */
  sessionCartId: string | null
  lastOrder: LastOrder | null
  customerId: number | null
  form: OrderForm
  idempotencyKey: string | null
  /** The shopper's browser, for a provider's checks (3-D Secure) */
  client?: { ip: string; userAgent: string; accept: string; language: string }
  /**
   * The reconciler places the order of a paid attempt whose browser never came back: the
   * method's `resume` details stand for parseDetails + authorise (the provider already said paid).
   */
  resumed?: { details: Record<string, unknown> }
}

/**
 * Instead of an order: the shopper pays on the provider's own page first (Amazon Pay), and the
 * order is placed when they come back. `payAt` is where the page sends them.
 */
export interface PayElsewhere {
  payAt: string
}

/** What only a browser's Complete Order brings: its bot-check token and its wallet. */
export interface BrowserSubmit {
  /** Verifies the submit's bot-check token; null when the site has no bot check. */
  botCheck: { field: string; verify: () => Promise<{ ok: true } | { ok: false; message: string }> } | null
  /**
   * PayPal and Amazon Pay: the form to place (rewritten, verified), or the provider's page to pay
   * at first. A wallet's refusal is a domain error it throws.
   */
  walletPayment: (form: OrderForm) => Promise<{ place: OrderForm } | PayElsewhere>
}

/** What placement uses of the payments module to give money back. */
export type PaymentGiveBack = Pick<PaymentService, 'markVoiding' | 'voidUnclaimed' | 'get'>

export interface PlacementDeps {
  db: Db
  carts: CartService
  customers: CustomerService
  orders: OrdersService
  methods: PaymentMethodRegistry
  /** The delivery zone serving an address on the site (the checkout's delivery rules), or null */
  zoneOf: (site: Site, country: string, postcode: string | null) => Promise<string | null>
  /** Told after an order was written (the app kicks the mail queue) */
  onPlaced?: (placed: Placed) => void
  /** Records a new order's builder lines (the builders module's, passed in by the app) */
  recordBuilds: RecordBuilds
}

/** One placement as its steps fill it in. */
export interface Placement {
  input: PlaceInput
  form: OrderForm
  cartId?: string
  method?: PaymentMethod
  details?: Details
  zone?: string
  /** The re-priced total the provider is asked for */
  amount?: number
  payment?: Record<string, unknown>
  /** The attempt whose money was (or may have been) taken for this order */
  paidAttempt: string | null
  placed?: Placed
  payAt?: string
}

export class OrderPlacement {
  constructor(private readonly deps: PlacementDeps) {}

  /** Gives back a payment whose order was refused (the app wires the payments module in). */
  payments: PaymentGiveBack | null = null
  /** Told when a refused order's payment was given back or handed to a person (the app logs it). */
  onGivenBack: (attemptId: string, resolution: string) => void = () => {}

  // --- the entries ---------------------------------------------------------------------

  /** The browser's Complete Order: every step. */
  async submit(input: PlaceInput, browser: BrowserSubmit): Promise<Placed | PayElsewhere> {
    const s = this.start(input)
    await runSteps(
      [
        this.replay(),
        this.botCheck(browser),
        this.walletPayment(browser),
        this.reprice(),
        this.pay(),
        this.write(),
        this.announce(),
      ],
      s,
    )
    return s.placed ?? { payAt: s.payAt! }
  }

  /**
   * A payment already started elsewhere: Amazon's result return (a replay first), or the
   * reconciler resuming a paid attempt (its payment first, so any refusal gives it back).
   */
  async place(input: PlaceInput): Promise<Placed> {
    const s = this.start(input)
    await runSteps(
      input.resumed
        ? [this.pay(), this.reprice(), this.write(), this.announce()]
        : [this.replay(), this.reprice(), this.pay(), this.write(), this.announce()],
      s,
    )
    return s.placed!
  }

  /**
   * The card's "pre-order" (§7 create-preorder-and-sagepay-session): everything placing would
   * check before the payment (basket, method, details, delivery for the address, the re-priced
   * total), nothing written but the basket's delivery zone.
   */
  async prepare(input: PlaceInput): Promise<{ cartRef: string; amount: number; details: Details }> {
    const s = this.start(input)
    await runSteps([this.reprice({ checkTotal: true })], s)
    return { cartRef: s.cartId!, amount: s.amount!, details: s.details! }
  }

  private start(input: PlaceInput): Placement {
    const resumed = input.resumed?.details.attemptId
    return { input, form: input.form, paidAttempt: typeof resumed === 'string' ? resumed : null }
  }

  // --- the steps -----------------------------------------------------------------------

  replay(): Step<Placement> {
    return {
      name: 'replay',
      run: async (s) => {
        const order = await this.earlierOrder(s.input)
        if (!order) return NEXT
        s.placed = await this.deps.orders.placed(this.deps.db, order, false)
        return DONE
      },
    }
  }

  botCheck(browser: BrowserSubmit): Step<Placement> {
    return {
      name: 'botCheck',
      run: async () => {
        if (!browser.botCheck) return NEXT
        const verdict = await browser.botCheck.verify()
        if (!verdict.ok) throw invalid({ [browser.botCheck.field]: [verdict.message] })
        return NEXT
      },
    }
  }

  walletPayment(browser: BrowserSubmit): Step<Placement> {
    return {
      name: 'walletPayment',
      run: async (s) => {
        const prepared = await browser.walletPayment(s.form)
        if ('payAt' in prepared) {
          s.payAt = prepared.payAt
          return DONE
        }
        s.form = prepared.place
        return NEXT
      },
    }
  }

  reprice(opts: { checkTotal?: boolean } = {}): Step<Placement> {
    return {
      name: 'reprice',
      run: async (s) => {
        const { site, customerId } = s.input
        const form = s.form
        const cartId = basketOf({ ...s.input, form })
        if (!cartId) throw emptyBasket()
        const methodId = form.payment_method ?? form.transactions[0]!.paymentProvider ?? ''
        const method = this.deps.methods.usable(site, customerId, methodId)
        if (!method) throw invalid({ payment_method: [CHECKOUT_TEXT.methodUnavailable] })
        const details = await orderDetails(this.deps.customers, { form, site, customerId })
        s.cartId = cartId
        s.method = method
        s.details = details
        s.zone = await this.deliveryZone(s.input, cartId, details.shipping)
        if (opts.checkTotal) {
          s.amount = (await this.currentBasket(s, cartId)).cart_total_price_inc_tax
          return NEXT
        }
        const payment = s.input.resumed
          ? ({ ok: true, details: s.input.resumed.details } as const)
          : method.parseDetails(
              {
                ...form.transactions[0]!,
                ...Object.fromEntries(
                  PROVIDER_FORM_FIELDS.filter((k) => form[k] !== undefined).map((k) => [k, form[k]]),
                ),
                PONumber: form.PONumber ?? form.transactions[0]!.paymentDetails.PONumber,
              },
              { site, customerId, contact: details.contact },
            )
        if (!payment.ok) throw invalid(payment.errors)
        s.payment = payment.details
        // A method that asks the provider first: nothing is taken for a total that moved.
        if (method.authorise && !s.input.resumed)
          s.amount = (await this.currentBasket(s, cartId)).cart_total_price_inc_tax
        return NEXT
      },
    }
  }

  pay(): Step<Placement> {
    return {
      name: 'pay',
      run: async (s) => {
        // The reconciler's payment was taken already (s.paidAttempt is its attempt).
        if (s.input.resumed || !s.method?.authorise) return NEXT
        const { input, details } = s
        const authorised = await s.method.authorise({
          site: input.site,
          customerId: input.customerId,
          contact: details!.contact,
          contactDetails: details!.contact,
          shipping: details!.shipping,
          billing: details!.billing,
          cartRef: s.cartId!,
          amount: s.amount!,
          currency: input.site.currency,
          details: s.payment!,
          baseUrl: input.baseUrl,
          client: input.client ?? { ip: '', userAgent: '', accept: '', language: '' },
          checkout: {
            // Single-use and provider fields are not kept: the reconciler needs the order's data.
            form: Object.fromEntries(
              Object.entries(s.form).filter(
                ([k]) =>
                  k !== 'g-recaptcha-response' && !(PROVIDER_FORM_FIELDS as readonly string[]).includes(k),
              ),
            ),
            customerId: input.customerId,
            idempotencyKey: input.idempotencyKey,
            baseUrl: input.baseUrl,
          },
        })
        if (!authorised.ok) throw paymentRefused(authorised)
        s.payment = authorised.details
        if (typeof authorised.details.attemptId === 'string') s.paidAttempt = authorised.details.attemptId
        return NEXT
      },
      compensate: (s, refusal) => this.giveBack(s, refusal),
    }
  }

  write(): Step<Placement> {
    return {
      name: 'write',
      run: async (s) => {
        s.placed = await writeOrder(
          {
            db: this.deps.db,
            carts: this.deps.carts,
            customers: this.deps.customers,
            orders: this.deps.orders,
            recordBuilds: this.deps.recordBuilds,
          },
          {
            site: s.input.site,
            baseUrl: s.input.baseUrl,
            customerId: s.input.customerId,
            form: s.form,
            idempotencyKey: s.input.idempotencyKey,
            cartId: s.cartId!,
            method: s.method!,
            details: s.details!,
            zone: s.zone!,
            payment: s.payment!,
          },
        )
        return NEXT
      },
    }
  }

  announce(): Step<Placement> {
    return {
      name: 'announce',
      run: (s) => {
        // Other instances forget the basket too: their header and Cart page must not show it any more.
        this.deps.carts.basketChanged(s.input.site.id, s.cartId!)
        if (s.placed!.created) this.deps.onPlaced?.(s.placed!)
        return NEXT
      },
    }
  }

  // --- what the steps share --------------------------------------------------------------

  /** The order an earlier submit with this Idempotency-Key, or of this basket, placed. */
  private async earlierOrder(input: PlaceInput): Promise<OrderRow | null> {
    const { db } = this.deps
    const cartId = basketOf(input)
    if (input.idempotencyKey) {
      const [byKey] = await db
        .select()
        .from(orders)
        .where(and(eq(orders.siteId, input.site.id), eq(orders.idempotencyKey, input.idempotencyKey)))
      if (byKey) {
        // One key, one basket: a key reused for another basket places nothing.
        if (byKey.cartRef !== cartId) throw invalid({ form: [CHECKOUT_TEXT.idempotencyReused] })
        return byKey
      }
    }
    if (!cartId) return null
    const [existing] = await db
      .select()
      .from(orders)
      .where(and(eq(orders.cartRef, cartId), eq(orders.siteId, input.site.id)))
    return existing ?? null
  }

  /**
   * Nothing was ordered after the payment was (or may have been) taken: the attempt is marked so
   * no order can claim it, and its money given back through the provider (or left for a person
   * where the provider cannot). Answers the refusal the shopper sees, saying what became of it.
   */
  private async giveBack(s: Placement, refusal: DomainError): Promise<DomainError> {
    const attemptId = s.paidAttempt
    const payments = this.payments
    if (
      !attemptId ||
      !payments ||
      !(await payments.markVoiding(attemptId, `order not placed: ${refusal.message}`))
    )
      return refusal
    const after = await payments.voidUnclaimed(attemptId, `order not placed: ${refusal.message}`).catch(
      // The provider could not be asked now: the attempt stays voiding and the reconciler retries.
      () => null,
    )
    const paid = after ?? (await payments.get(attemptId))
    const amount = formatMoney(paid?.confirmedAmountMinor ?? paid?.amountMinor ?? 0, s.input.site.currency)
    const said =
      after?.resolution === 'needs_attention'
        ? CHECKOUT_TEXT.paymentToRefund(amount)
        : CHECKOUT_TEXT.paymentReturned(amount)
    this.onGivenBack(attemptId, after?.resolution ?? 'voiding')
    const cart = refusal instanceof OrderRefused ? refusal.cart : null
    return new OrderRefused(
      refusal.code,
      `${refusal.message} ${said}`,
      refusal.fields,
      cart,
      true,
      refusal.answer,
    )
  }

  /**
   * The delivery zone of the order's shipping address (the site must deliver there). A basket
   * priced for another zone is re-priced for this one first: the shopper then sees the honest
   * delivery and total (a moved basket) before anything is taken.
   */
  private async deliveryZone(input: PlaceInput, cartId: string, shipping: AddressData): Promise<string> {
    const zone = await this.deps.zoneOf(input.site, shipping.country, shipping.postcode)
    if (!zone) throw invalid({ 'shipping_address.country': [CUSTOMER_TEXT.countryNotAllowed] })
    const ctx = { site: input.site, cartId, baseUrl: input.baseUrl, customerId: input.customerId }
    const current = await this.deps.carts.get(ctx)
    if (current.id && current.shippingZone !== zone)
      await this.deps.carts.updateCart(ctx, { shippingZone: zone })
    return zone
  }

  /** The basket priced now; refused (moved, nothing taken) when it is not what the shopper saw. */
  private async currentBasket(s: Placement, cartId: string): Promise<Cart> {
    const { input, form } = s
    const ctx = { site: input.site, cartId, baseUrl: input.baseUrl, customerId: input.customerId }
    const current = await this.deps.carts.get(ctx)
    if (current.items.length === 0) throw emptyBasket()
    const rate = current.shippingRates.find((r) => r.selected)
    if (!rate || rate.id !== form.delivery_option) throw moved(CHECKOUT_TEXT.deliveryChanged, current)
    // A listed code that gives nothing fails placement: refuse before the money is taken.
    if (
      current.cart_total_price_inc_tax !== form.transactions[0]!.amount ||
      current.errors.promotionCodes.length > 0
    )
      throw moved(CHECKOUT_TEXT.totalChanged, current)
    return current
  }
}
