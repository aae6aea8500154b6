/**
 * Placing an order (design checkout.md "Placing an order", ADR 0064). One transaction locks the
 * basket row (as the basket's `mutate()` does), answers the order already placed from it if there
 * is one, else re-prices the basket with the pricing engine, refuses what cannot be ordered,
 * writes the order, its lines (the engine's VAT), its payment transaction, the promotion
 * redemptions and the e-mail jobs, and freezes the basket. Every refusal throws inside the
 * transaction, so nothing of it is written. Knows nothing of HTTP.
 */
import { and, eq } from 'drizzle-orm'
import type { z } from 'zod'
import type { Db, Executor, Tx } from '../../db/client.ts'
import type { Cart } from '../../../shared/cart.ts'
import { fieldErrors } from '../../../shared/cart.schemas.ts'
import {
  CHECKOUT_TEXT,
  PROVIDER_FORM_FIELDS,
  checkoutAddressSchema,
  checkoutContactSchema,
  type OrderData,
  type OrderForm,
} from '../../../shared/checkout.ts'
import { CUSTOMER_TEXT, type AddressData, type ContactData } from '../../../shared/customer.ts'
import { formatMoney } from '../../../shared/money.ts'
import { promotionUses } from '../cart/cart.tables.ts'
import type { CartService } from '../cart/cart.service.ts'
import { CustomerNotFoundError, type CustomerService } from '../customers/customers.service.ts'
import { enqueueMail } from '../mail/mail.queue.ts'
import { acknowledgementMail, notificationMail } from '../orders/orders.mail.ts'
import { presentOrder } from '../orders/orders.presenter.ts'
import { orderPreviews, recordOrderBuilds, type LogoLoader } from '../builders/order-builds.ts'
import {
  orderItems,
  orders,
  orderTransactions,
  promotionRedemptions,
  type OrderAddress,
  type OrderRow,
} from '../orders/orders.tables.ts'
import type { Site } from '../sites/sites.service.ts'
import { claimAttemptForOrder, type PaymentService } from '../payments/payments.service.ts'
import { basketOrderRef } from '../payments/order-ref.ts'
import { placementVerdict, type PlacementRefusal } from '../orders/placement.invariant.ts'
import { zoneFor } from './delivery-zones.ts'
import type { OrderOwnerLinks } from '../account/order-owner.ts'
import { orderOwnerConfirmations } from '../account/account.tables.ts'
import type { PaymentMethod, PaymentMethodRegistry } from './payment-methods.ts'

/** Why nothing was ordered. */
export class CheckoutRefusal extends Error {
  constructor(
    readonly kind: 'invalid' | 'moved' | 'empty' | 'not_found',
    message: string,
    readonly errors: Record<string, string[]> = {},
    readonly cart: Cart | null = null,
    /** A payment taken for it was given back (or handed to a person to refund) */
    readonly paymentReturned = false,
  ) {
    super(message)
  }
}

/** What placement uses of the payments module to give money back. */
export type PaymentGiveBack = Pick<PaymentService, 'markVoiding' | 'voidUnclaimed' | 'get'>

const PURCHASE_ORDER = 'purchase_order'

/** The invariant's refusal as the shopper's answer (nothing was ordered). */
function refusalFor(refusal: PlacementRefusal, cart: Cart): CheckoutRefusal {
  switch (refusal) {
    case 'delivery_not_offered':
      return invalid({ 'shipping_address.country': [CUSTOMER_TEXT.countryNotAllowed] })
    case 'delivery_not_for_address':
      return new CheckoutRefusal('moved', CHECKOUT_TEXT.deliveryChanged, {}, cart)
    case 'payment_missing':
    case 'payment_not_confirmed':
      return invalid({ payment_method: [CHECKOUT_TEXT.paymentNotConfirmed] })
    case 'payment_currency_differs':
    case 'payment_amount_differs':
      return new CheckoutRefusal('moved', CHECKOUT_TEXT.totalChanged, {}, cart)
  }
}

/** A payment method's own answer (declined, 3-D Secure challenge, still unknown): sent as it is. */
export class PaymentRefusal extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
  ) {
    super(typeof body.message === 'string' ? body.message : 'payment not completed')
  }
}

const invalid = (errors: Record<string, string[]>) =>
  new CheckoutRefusal('invalid', Object.values(errors)[0]?.[0] ?? CHECKOUT_TEXT.somethingWrong, errors)

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

/** What the session remembers of the order it placed last. */
export interface LastOrder {
  orderId: number
  orderNumber: number
  cartRef: string
}

export interface Placed {
  order: OrderData
  /** false when an earlier submit already placed it (a replay) */
  created: boolean
  placedAsGuest: boolean
  cartRef: string
  /** The order's customer */
  customerId: number | null
  /** The account was made by this very submit (a new guest), never an existing one (ADR 0063) */
  accountCreated: boolean
}

export interface Details {
  contact: ContactData
  shipping: AddressData
  billing: AddressData
  /** Entered (not chosen from the address book): what a guest account is made from */
  billingSeparate: boolean
}

export class CheckoutService {
  constructor(
    private readonly db: Db,
    private readonly carts: CartService,
    private readonly customers: CustomerService,
    readonly payments: PaymentMethodRegistry,
    private readonly onPlaced: (order: OrderData) => void = () => {},
    /** Reads a workwear logo for an ordered line's preview (the app passes the upload store's) */
    private readonly loadLogo: LogoLoader = async () => null,
  ) {}

  /** Signs the link that lets an account's owner confirm a guest order placed with its e-mail. */
  ownerLinks: OrderOwnerLinks | null = null
  /** Gives back a payment whose order was refused (the payments module sets it at start-up). */
  paymentService: PaymentGiveBack | null = null
  /** Told when a refused order's payment was given back or handed to a person (the app logs it). */
  onGivenBack: (attemptId: string, resolution: string) => void = () => {}

  /** The basket a submit is about: the page's basket if the session holds it (or just ordered it). */
  basketOf(input: Pick<PlaceInput, 'form' | 'sessionCartId' | 'lastOrder'>): string | null {
    const asked = input.form.cart_id ?? null
    if (asked && (asked === input.sessionCartId || asked === input.lastOrder?.cartRef)) return asked
    return input.sessionCartId ?? (asked && asked === input.lastOrder?.cartRef ? asked : null)
  }

  /**
   * The order an earlier submit of this basket (or with this Idempotency-Key) placed: checked
   * before anything single-use (the bot-check token) so an honest retry gets its order.
   */
  async replay(input: PlaceInput): Promise<Placed | null> {
    const cartId = this.basketOf(input)
    if (input.idempotencyKey) {
      const [byKey] = await this.db
        .select()
        .from(orders)
        .where(and(eq(orders.siteId, input.site.id), eq(orders.idempotencyKey, input.idempotencyKey)))
      if (byKey) {
        if (byKey.cartRef !== cartId) throw invalid({ form: [CHECKOUT_TEXT.idempotencyReused] })
        return this.placed(this.db, byKey, false)
      }
    }
    if (!cartId) return null
    const [existing] = await this.db
      .select()
      .from(orders)
      .where(and(eq(orders.cartRef, cartId), eq(orders.siteId, input.site.id)))
    return existing ? this.placed(this.db, existing, false) : null
  }

  /**
   * Places the order, once. The steps: the method's details are checked; the delivery zone is
   * taken from the order's shipping address; the provider is asked (authorise) after a re-price;
   * then one transaction locks the basket, re-prices it for that zone, claims the payment and
   * asks the money invariant (`orders/placement.invariant.ts`) whether the order may be written.
   * Whenever nothing is ordered after money was (or may have been) taken, the payment is given
   * back through its provider (`giveBack`) and the shopper is told so.
   */
  async place(input: PlaceInput): Promise<Placed> {
    const { site, form } = input
    // The reconciler resumes a payment already taken: any refusal gives it back.
    let paidAttempt: string | null =
      typeof input.resumed?.details.attemptId === 'string' ? input.resumed.details.attemptId : null
    try {
      const cartId = this.basketOf(input)
      if (!cartId) throw new CheckoutRefusal('empty', CHECKOUT_TEXT.emptyBasket)
      const methodId = form.payment_method ?? form.transactions[0]!.paymentProvider ?? ''
      const method = this.payments.usable(site, input.customerId, methodId)
      if (!method) throw invalid({ payment_method: [CHECKOUT_TEXT.methodUnavailable] })
      const details = await this.details(input)
      const zone = await this.deliveryZone(input, cartId, details.shipping)
      const providerFields = Object.fromEntries(
        PROVIDER_FORM_FIELDS.filter((k) => form[k] !== undefined).map((k) => [k, form[k]]),
      )
      const payment:
        { ok: true; details: Record<string, unknown> } | { ok: false; errors: Record<string, string[]> } =
        input.resumed
          ? { ok: true, details: input.resumed.details }
          : method.parseDetails(
              {
                ...form.transactions[0]!,
                ...providerFields,
                PONumber: form.PONumber ?? form.transactions[0]!.paymentDetails.PONumber,
              },
              { site, customerId: input.customerId, contact: details.contact },
            )
      if (!payment.ok) throw invalid(payment.errors)
      if (method.authorise && !input.resumed) {
        // The provider is asked before the order transaction; first the basket is re-priced so
        // that nothing is taken for a total that moved.
        const current = await this.currentBasket(input, cartId)
        const authorised = await method.authorise({
          site,
          customerId: input.customerId,
          contact: details.contact,
          contactDetails: details.contact,
          shipping: details.shipping,
          billing: details.billing,
          cartRef: cartId,
          amount: current.cart_total_price_inc_tax,
          currency: site.currency,
          details: payment.details,
          baseUrl: input.baseUrl,
          client: input.client ?? { ip: '', userAgent: '', accept: '', language: '' },
          checkout: {
            // Single-use and provider fields are not kept: the reconciler needs the order's data.
            form: Object.fromEntries(
              Object.entries(form).filter(
                ([k]) =>
                  k !== 'g-recaptcha-response' && !(PROVIDER_FORM_FIELDS as readonly string[]).includes(k),
              ),
            ),
            customerId: input.customerId,
            idempotencyKey: input.idempotencyKey,
            baseUrl: input.baseUrl,
          },
        })
        if (!authorised.ok) throw new PaymentRefusal(authorised.status, authorised.body)
        payment.details = authorised.details
        if (typeof authorised.details.attemptId === 'string') paidAttempt = authorised.details.attemptId
      }
      const result = await this.write(input, { cartId, method, details, zone, payment: payment.details })
      // Other instances forget the basket too: their header and Cart page must not show it any more.
      this.carts.basketChanged(site.id, cartId)
      if (result.created) this.onPlaced(result.order)
      return result
    } catch (err) {
      if (paidAttempt && err instanceof CheckoutRefusal) throw await this.giveBack(site, paidAttempt, err)
      throw err
    }
  }

  /** The order's transaction: lock, re-price for the address's zone, the invariant, then write. */
  private async write(
    input: PlaceInput,
    p: {
      cartId: string
      method: PaymentMethod
      details: Details
      zone: string
      payment: Record<string, unknown>
    },
  ): Promise<Placed> {
    const { site, form } = input
    const { cartId, method, details } = p
    // The VAT number is kept only where the box is shown: shipping to IE, not PayPal or Amazon.
    const vatNumber =
      details.shipping.country === 'IE' && method.id !== 'paypal' && method.id !== 'amazon'
        ? form.VATNumber
        : null
    return this.db.transaction(async (tx) => {
      const ctx = { site, cartId, baseUrl: input.baseUrl, customerId: input.customerId }
      const basket = await this.carts.lockForOrder(tx, ctx, cartId, { shippingZone: p.zone })
      if (!basket) throw new CheckoutRefusal('empty', CHECKOUT_TEXT.emptyBasket)
      // Under the lock: a concurrent submit that got here first has committed its order.
      const [existing] = await tx.select().from(orders).where(eq(orders.cartRef, cartId))
      if (existing) return this.placed(tx, existing, false)
      if (basket.row.kind !== 'session') throw new CheckoutRefusal('empty', CHECKOUT_TEXT.emptyBasket)

      const { lines, priced, cart } = basket
      if (!lines.some((l) => !l.item.isFreeGift))
        throw new CheckoutRefusal('empty', CHECKOUT_TEXT.emptyBasket)
      for (const [i, line] of lines.entries()) {
        const name = line.productName || line.groupName
        if (!line.published || !line.groupPublished)
          throw invalid({ cart: [CHECKOUT_TEXT.unavailable(name)] })
        if (!line.item.isFreeGift && !(priced.lines[i]!.gross > 0))
          throw invalid({ cart: [CHECKOUT_TEXT.notPriced(name)] })
      }
      if (priced.shortForMinimumOrderValue > 0) {
        const money = (n: number) => formatMoney(n, site.currency)
        throw invalid({
          cart: [
            CHECKOUT_TEXT.minimumOrder(
              money(site.settings.minimumOrderValue),
              money(priced.shortForMinimumOrderValue),
            ),
          ],
        })
      }
      if (priced.selectedRateId === null || form.delivery_option !== priced.selectedRateId)
        throw new CheckoutRefusal('moved', CHECKOUT_TEXT.deliveryChanged, {}, cart)
      const total = priced.totalPriceIncTax
      if (form.transactions[0]!.amount !== total || basket.promoErrors.length > 0)
        throw new CheckoutRefusal('moved', CHECKOUT_TEXT.totalChanged, {}, cart)

      let customerId = input.customerId
      let accountCreated = false
      if (customerId === null) {
        const guest = await this.customers.guestFor(tx, site.id, details)
        customerId = guest.customerId
        accountCreated = guest.created
      }
      const rate = basket.rates.find((r) => r.id === priced.selectedRateId)
      const [order] = await tx
        .insert(orders)
        .values({
          siteId: site.id,
          cartRef: cartId,
          idempotencyKey: input.idempotencyKey,
          customerId,
          placedAsGuest: input.customerId === null,
          status: 'pending_payment',
          currency: site.currency,
          paymentMethod: method.id,
          poNumber: typeof p.payment.PONumber === 'string' ? p.payment.PONumber : null,
          vatNumber,
          notes: form.Notes,
          contact: {
            first_name: details.contact.firstName,
            last_name: details.contact.lastName,
            email: details.contact.email,
            phone: details.contact.phone,
            company: details.contact.company,
          },
          shippingAddress: orderAddress(details.shipping),
          billingAddress: orderAddress(details.billing),
          despatchType: rate?.despatchType ?? '',
          deliveryName: rate?.name ?? '',
          promotionCodes: basket.row.promotionCodes ?? [],
          // Zero-rated only under a declaration the basket still qualifies for; it is kept with the order.
          applyVatRelief: cart.ApplyVATRelief,
          vatReliefDeclaration: cart.ApplyVATRelief ? basket.row.vatReliefDeclaration : null,
          goodsNet: priced.goodsNet,
          shippingNet: priced.shipping,
          shippingVat: priced.shippingVat,
          vat: priced.tax,
          discount: priced.discount,
          customisationCharge: priced.customisationTotal,
          totalIncVat: total,
          siteOrigin: input.baseUrl,
        })
        .returning()
      // The account this very order created is the orderer's: its first order needs no
      // confirming by the address's owner (ADR 0145 covers orders matched to an existing account).
      if (accountCreated)
        await tx.insert(orderOwnerConfirmations).values({ orderId: order!.id, customerId: customerId! })
      // Every method but the purchase order claims its paid attempt: one statement on its row.
      const attemptId = p.payment.attemptId
      const claimed =
        method.id === PURCHASE_ORDER
          ? null
          : typeof attemptId === 'string'
            ? await claimAttemptForOrder(tx, attemptId, basketOrderRef(cartId), order!.orderNumber)
            : null
      // The money invariant, in one place (ADR 0118).
      const verdict = placementVerdict({
        total,
        currency: site.currency,
        delivery: {
          addressZone: p.zone,
          pricedZone: basket.rates[0]?.zone ?? null,
          rateId: priced.selectedRateId,
        },
        payment:
          method.id === PURCHASE_ORDER
            ? { kind: 'purchase_order' }
            : {
                kind: 'provider',
                attempt: claimed
                  ? {
                      state: claimed.state,
                      confirmed:
                        claimed.confirmedAmountMinor !== null && claimed.confirmedCurrency !== null
                          ? { amountMinor: claimed.confirmedAmountMinor, currency: claimed.confirmedCurrency }
                          : null,
                    }
                  : null,
              },
      })
      if (!verdict.ok) throw refusalFor(verdict.refusal, cart)
      const ordered = await tx
        .insert(orderItems)
        .values(
          cart.items.map((item, i) => {
            const pl = priced.lines[i]!
            const line = lines[i]!
            return {
              orderId: order!.id,
              cartItemId: line.item.id,
              parentCartItemId: line.item.parentId,
              sku: item.product.sku,
              name: item.product.name,
              product: {
                id: item.product.id,
                sku: item.product.sku,
                name: item.product.name,
                price: item.product.price,
                status: 'published' as const,
                category_id: item.product.category?.id ?? null,
                category: item.product.category,
                details: item.product.details,
              },
              quantity: item.quantity,
              unitPrice: item.unit_price,
              lineTotal: pl.net,
              lineTotalExDiscountExTax: pl.gross,
              vatRate: pl.vatRate,
              vat: pl.vat,
              isFreeGift: item.IsFreeGift,
              builderId: line.item.options.length ? line.item.categoryId : null,
              sequenceId: item.sequence_id,
              options: item.options.items,
            }
          }),
        )
        .returning({ id: orderItems.id, cartItemId: orderItems.cartItemId })
      await recordOrderBuilds(tx, {
        siteId: site.id,
        orderId: order!.id,
        items: lines.map((l) => l.item),
        ordered,
        loadLogo: this.loadLogo,
      })
      const settled = await method.settle({
        orderId: order!.id,
        orderNumber: order!.orderNumber,
        amount: verdict.amount,
        currency: site.currency,
        details: p.payment,
      })
      await tx.insert(orderTransactions).values({
        orderId: order!.id,
        paymentProvider: method.id,
        ...settled.transaction,
        amount: verdict.amount,
      })
      const [final] = await tx
        .update(orders)
        .set({ status: verdict.status, totalIncVat: verdict.amount, paymentAttemptId: claimed?.id ?? null })
        .where(eq(orders.id, order!.id))
        .returning()
      await this.redeem(tx, site, cartId, order!.id, basket.row.promotionCodes ?? [])
      await this.carts.markOrdered(tx, cartId)
      const placed = { ...(await this.placed(tx, final!, true)), accountCreated }
      if (final!.status === 'placed') await this.queueMails(tx, site, placed.order, input.baseUrl, final!)
      return placed
    })
  }

  /**
   * Nothing was ordered after the payment was (or may have been) taken: the attempt is marked so
   * no order can claim it, and its money given back through the provider (or left for a person
   * where the provider cannot). Answers the refusal the shopper sees, saying what became of it.
   */
  private async giveBack(site: Site, attemptId: string, refusal: CheckoutRefusal): Promise<CheckoutRefusal> {
    const payments = this.paymentService
    if (!payments || !(await payments.markVoiding(attemptId, `order not placed: ${refusal.message}`)))
      return refusal
    const after = await payments.voidUnclaimed(attemptId, `order not placed: ${refusal.message}`).catch(
      // The provider could not be asked now: the attempt stays voiding and the reconciler retries.
      () => null,
    )
    const paid = after ?? (await payments.get(attemptId))
    const amount = formatMoney(paid?.confirmedAmountMinor ?? paid?.amountMinor ?? 0, site.currency)
    const said =
      after?.resolution === 'needs_attention'
        ? CHECKOUT_TEXT.paymentToRefund(amount)
        : CHECKOUT_TEXT.paymentReturned(amount)
    this.onGivenBack(attemptId, after?.resolution ?? 'voiding')
    return new CheckoutRefusal(refusal.kind, `${refusal.message} ${said}`, refusal.errors, refusal.cart, true)
  }

  /** The site's delivery zones (the names its delivery rates are grouped by). */
  private async zones(site: Site): Promise<string[]> {
    return [...new Set((await this.carts.rates(this.db, site.id)).map((r) => r.zone))]
  }

  /** The site's countries it delivers to (a delivery rate's zone serves them): all it offers. */
  async deliveryCountries(site: Site): Promise<Site['settings']['countries']> {
    const zones = await this.zones(site)
    return site.settings.countries.filter((c) => zoneFor(zones, c.code, null) !== null)
  }

  /**
   * The delivery zone of the order's shipping address (the site must deliver there). A basket
   * priced for another zone is re-priced for this one first: the shopper then sees the honest
   * delivery and total (a 409 with the basket) before anything is taken.
   */
  async deliveryZone(
    input: Pick<PlaceInput, 'site' | 'baseUrl' | 'customerId'>,
    cartId: string,
    shipping: AddressData,
  ): Promise<string> {
    const zone = zoneFor(await this.zones(input.site), shipping.country, shipping.postcode)
    if (!zone) throw invalid({ 'shipping_address.country': [CUSTOMER_TEXT.countryNotAllowed] })
    const ctx = { site: input.site, cartId, baseUrl: input.baseUrl, customerId: input.customerId }
    const current = await this.carts.get(ctx)
    if (current.id && current.shippingZone !== zone) await this.carts.updateCart(ctx, { shippingZone: zone })
    return zone
  }

  /**
   * The card's "pre-order" (§7 create-preorder-and-sagepay-session): everything placing would
   * check before the payment (basket, method, details, delivery for the address, the re-priced
   * total), nothing written but the basket's delivery zone.
   */
  async prepare(input: PlaceInput): Promise<{ cartRef: string; amount: number; details: Details }> {
    const cartId = this.basketOf(input)
    if (!cartId) throw new CheckoutRefusal('empty', CHECKOUT_TEXT.emptyBasket)
    const methodId = input.form.payment_method ?? input.form.transactions[0]!.paymentProvider ?? ''
    if (!this.payments.usable(input.site, input.customerId, methodId))
      throw invalid({ payment_method: [CHECKOUT_TEXT.methodUnavailable] })
    const details = await this.details(input)
    await this.deliveryZone(input, cartId, details.shipping)
    const current = await this.currentBasket(input, cartId)
    return { cartRef: cartId, amount: current.cart_total_price_inc_tax, details }
  }

  /** The basket priced now; refused (409, nothing taken) when it is not what the shopper saw. */
  private async currentBasket(input: PlaceInput, cartId: string): Promise<Cart> {
    const ctx = { site: input.site, cartId, baseUrl: input.baseUrl, customerId: input.customerId }
    const current = await this.carts.get(ctx)
    if (current.items.length === 0) throw new CheckoutRefusal('empty', CHECKOUT_TEXT.emptyBasket)
    const rate = current.shippingRates.find((r) => r.selected)
    if (!rate || rate.id !== input.form.delivery_option)
      throw new CheckoutRefusal('moved', CHECKOUT_TEXT.deliveryChanged, {}, current)
    // A listed code that gives nothing fails placement: refuse before the money is taken.
    if (
      current.cart_total_price_inc_tax !== input.form.transactions[0]!.amount ||
      current.errors.promotionCodes.length > 0
    )
      throw new CheckoutRefusal('moved', CHECKOUT_TEXT.totalChanged, {}, current)
    return current
  }

  /** The applied codes' uses become redemptions; the basket sweep can no longer give them back. */
  private async redeem(tx: Tx, site: Site, cartId: string, orderId: number, codes: string[]) {
    const promos = await this.carts.promotionsFor(tx, site.id, codes)
    for (const promo of promos) {
      await tx
        .insert(promotionRedemptions)
        .values({ promotionId: promo.id, orderId, code: promo.code })
        .onConflictDoNothing()
      await tx
        .delete(promotionUses)
        .where(and(eq(promotionUses.promotionId, promo.id), eq(promotionUses.cartId, cartId)))
    }
  }

  async queueMails(tx: Tx, site: Site, order: OrderData, baseUrl: string, row: OrderRow) {
    const to = site.settings.orderNotificationEmail || site.settings.contactEmail
    // A guest order linked to an account by its e-mail: the owner confirms it from this mail
    // (ADR 0145), unless it is already the account's (the account was made by this order).
    const confirmed =
      row.placedAsGuest &&
      (await tx.select().from(orderOwnerConfirmations).where(eq(orderOwnerConfirmations.orderId, row.id)))
        .length > 0
    const confirmOwnerUrl = confirmed ? null : (this.ownerLinks?.url(baseUrl, row) ?? null)
    await enqueueMail(tx, [
      {
        dedupeKey: `order:${order.id}:acknowledgement`,
        message: acknowledgementMail(site, order, baseUrl, { confirmOwnerUrl }),
      },
      ...(to
        ? [
            {
              dedupeKey: `order:${order.id}:notification`,
              message: notificationMail(site, order, to, baseUrl),
            },
          ]
        : []),
    ])
  }

  async placed(executor: Executor, order: OrderRow, created: boolean): Promise<Placed> {
    return {
      order: await this.present(executor, order),
      created,
      placedAsGuest: order.placedAsGuest,
      cartRef: order.cartRef,
      customerId: order.customerId,
      accountCreated: false,
    }
  }

  async present(executor: Executor, order: OrderRow): Promise<OrderData> {
    const [items, transactions, previews] = await Promise.all([
      executor.select().from(orderItems).where(eq(orderItems.orderId, order.id)).orderBy(orderItems.id),
      executor
        .select()
        .from(orderTransactions)
        .where(eq(orderTransactions.orderId, order.id))
        .orderBy(orderTransactions.id),
      orderPreviews(executor, order.id),
    ])
    return presentOrder(order, items, transactions, previews)
  }

  /** An order by number, for the session that placed it or its logged-in owner; else null. */
  async visibleOrder(
    site: Site,
    orderNumber: number,
    viewer: { lastOrder: LastOrder | null; customerId: number | null },
  ): Promise<OrderRow | null> {
    if (!Number.isSafeInteger(orderNumber) || orderNumber <= 0) return null
    const [order] = await this.db
      .select()
      .from(orders)
      .where(and(eq(orders.orderNumber, orderNumber), eq(orders.siteId, site.id)))
    if (!order) return null
    const mine =
      viewer.lastOrder?.orderId === order.id ||
      (viewer.customerId !== null && order.customerId === viewer.customerId && !order.placedAsGuest)
    return mine ? order : null
  }

  // --- the form's contact and addresses ------------------------------------------------

  private async details(input: PlaceInput): Promise<Details> {
    const { form, site, customerId } = input
    const errors: Record<string, string[]> = {}
    const parse = <S extends z.ZodType>(schema: S, value: unknown, prefix: string): z.output<S> | null => {
      const r = schema.safeParse(value ?? {})
      if (r.success) return r.data
      for (const [k, v] of Object.entries(fieldErrors(r.error))) errors[`${prefix}.${k}`] = v
      return null
    }
    const savedOnly = (id: number | null | undefined) => {
      // Saved entries belong to logged-in customers; any id from a guest is someone else's.
      if (id && customerId === null) throw new CheckoutRefusal('not_found', 'Not Found')
      return id ?? null
    }
    try {
      const contactId = savedOnly(form.customer_contact_id)
      const shippingId = savedOnly(form.customer_shipping_address_id)
      const billingId = form.showingBillingAddress ? savedOnly(form.customer_billing_address_id) : null
      const contact = contactId
        ? fromContactRow(await this.customers.contact(customerId!, contactId))
        : parse(checkoutContactSchema, form.contact, 'contact')
      const shipping = shippingId
        ? fromAddressRow(await this.customers.address(customerId!, 'shipping', shippingId))
        : parse(checkoutAddressSchema('shipping'), form.shipping_address, 'shipping_address')
      let billing: AddressData | null = shipping
      if (form.showingBillingAddress) {
        billing = billingId
          ? fromAddressRow(await this.customers.address(customerId!, 'billing', billingId))
          : parse(checkoutAddressSchema('billing'), form.billing_address, 'billing_address')
      }
      // The country is accepted only if in the site's list (§5), whatever else is wrong.
      const countries = new Set(site.settings.countries.map((c) => c.code))
      const countryOf = (a: AddressData | null, raw: unknown) =>
        a?.country ??
        String((raw as Record<string, unknown> | null)?.country ?? '')
          .trim()
          .toUpperCase()
      const shippingCountry = countryOf(shipping, form.shipping_address)
      if (shippingCountry && !countries.has(shippingCountry))
        errors['shipping_address.country'] = [CHECKOUT_TEXT.countryInvalid]
      const billingCountry = form.showingBillingAddress ? countryOf(billing, form.billing_address) : ''
      if (billingCountry && !countries.has(billingCountry))
        errors['billing_address.country'] = [CHECKOUT_TEXT.countryInvalid]
      if (Object.keys(errors).length || !contact || !shipping || !billing) throw invalid(errors)
      return { contact, shipping, billing, billingSeparate: form.showingBillingAddress }
    } catch (err) {
      if (err instanceof CustomerNotFoundError) throw new CheckoutRefusal('not_found', 'Not Found')
      throw err
    }
  }
}

function orderAddress(a: AddressData): OrderAddress {
  return {
    company: a.company,
    address1: a.address1,
    address2: a.address2,
    town: a.town,
    county: a.county,
    postcode: a.postcode,
    country: a.country,
  }
}

function fromContactRow(r: ContactData & object): ContactData {
  return { firstName: r.firstName, lastName: r.lastName, email: r.email, phone: r.phone, company: r.company }
}

function fromAddressRow(r: AddressData & object): AddressData {
  return orderAddress(r)
}

export type { PaymentMethod }
