/**
 * Placement's write step: the order's one transaction. It locks the basket row (as the basket's
 * `mutate()` does), answers the order a concurrent submit committed meanwhile, re-checks and
 * re-prices the basket for the delivery address's zone, makes a new guest's account, writes the
 * order, claims the paid attempt, asks the money invariant (placement.invariant.ts, ADR 0118),
 * writes the lines, the builds, the payment transaction and the promotion redemptions, freezes
 * the basket and queues the order's e-mails. Any refusal throws inside the transaction, so
 * nothing of it is written.
 */
import { vatNumberApplies } from '../../../shared/checkout-rules.ts'
import { and, eq } from 'drizzle-orm'
import type { Db, Tx } from '../../db/client.ts'
import { CHECKOUT_TEXT, type OrderForm } from '../../../shared/checkout.ts'
import { formatMoney } from '../../../shared/money.ts'
import { promotionUses, type CartItemRow } from '../cart/cart.tables.ts'
import type { CartService } from '../cart/cart.service.ts'
import type { PaymentMethod } from '../payments/payment-methods.ts'
import type { CustomerService } from '../customers/customers.service.ts'
import { claimAttemptForOrder } from '../payments/payments.service.ts'
import { basketOrderRef } from '../payments/order-ref.ts'
import type { Site } from '../sites/sites.service.ts'
import type { OrdersService, Placed } from './orders.service.ts'
import {
  orderItems,
  orderOwnerConfirmations,
  orders,
  orderTransactions,
  promotionRedemptions,
} from './orders.tables.ts'
import { orderAddress, type Details } from './placement.details.ts'
import { emptyBasket, invalid, moved, refusalFor } from './placement.errors.ts'
import { placementVerdict } from './placement.invariant.ts'

const PURCHASE_ORDER = 'purchase_order'

/** What the write step uses. */
export interface WriteDeps {
  db: Db
  carts: CartService
  customers: CustomerService
  orders: OrdersService
  recordBuilds: RecordBuilds
}

/**
 * Records the builder lines (signs, workwear) of a new order in its transaction: the builders
 * module does it (builders/order-builds.ts); the app passes it in, so orders need not import it.
 */
export type RecordBuilds = (
  tx: Tx,
  order: {
    siteId: number
    orderId: number
    items: readonly CartItemRow[]
    ordered: readonly { id: number; cartItemId: number | null }[]
  },
) => Promise<void>

/** What placement decided before the transaction. */
export interface OrderToWrite {
  site: Site
  baseUrl: string
  customerId: number | null
  form: OrderForm
  idempotencyKey: string | null
  cartId: string
  method: PaymentMethod
  details: Details
  /** The delivery zone of the shipping address */
  zone: string
  /** The payment method's details (`settle` records them) */
  payment: Record<string, unknown>
}

/** The order's transaction: lock, re-check and re-price, the invariant, then write. */
export async function writeOrder(deps: WriteDeps, p: OrderToWrite): Promise<Placed> {
  const { site, form, cartId, method, details } = p
  // The VAT number is kept only where the box is shown (the rule in checkout-rules.ts).
  const vatNumber = vatNumberApplies(details.shipping.country, method.id) ? form.VATNumber : null
  return deps.db.transaction(async (tx) => {
    const ctx = { site, cartId, baseUrl: p.baseUrl, customerId: p.customerId }
    const basket = await deps.carts.lockForOrder(tx, ctx, cartId, { shippingZone: p.zone })
    if (!basket) throw emptyBasket()
    // Under the lock: a concurrent submit that got here first has committed its order.
    const [existing] = await tx.select().from(orders).where(eq(orders.cartRef, cartId))
    if (existing) return deps.orders.placed(tx, existing, false)
    if (basket.row.kind !== 'session') throw emptyBasket()

    const { lines, priced, cart } = basket
    if (!lines.some((l) => !l.item.isFreeGift)) throw emptyBasket()
    for (const [i, line] of lines.entries()) {
      const name = line.productName || line.groupName
      if (!line.published || !line.groupPublished) throw invalid({ cart: [CHECKOUT_TEXT.unavailable(name)] })
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
      throw moved(CHECKOUT_TEXT.deliveryChanged, cart)
    const total = priced.totalPriceIncTax
    if (form.transactions[0]!.amount !== total || basket.promoErrors.length > 0)
      throw moved(CHECKOUT_TEXT.totalChanged, cart)

    let customerId = p.customerId
    let accountCreated = false
    if (customerId === null) {
      const guest = await deps.customers.guestFor(tx, site.id, details)
      customerId = guest.customerId
      accountCreated = guest.created
    }
    const rate = basket.rates.find((r) => r.id === priced.selectedRateId)
    const [order] = await tx
      .insert(orders)
      .values({
        siteId: site.id,
        cartRef: cartId,
        idempotencyKey: p.idempotencyKey,
        customerId,
        placedAsGuest: p.customerId === null,
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
        siteOrigin: p.baseUrl,
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
    await deps.recordBuilds(tx, {
      siteId: site.id,
      orderId: order!.id,
      items: lines.map((l) => l.item),
      ordered,
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
      .set({
        status: verdict.status,
        totalIncVat: verdict.amount,
        paymentAttemptId: claimed?.id ?? null,
        // Paid when the provider confirmed it now; a purchase order is unpaid until invoiced and
        // a pending payment until it settles (pending-orders.ts). ADR 0200.
        paymentStatus: verdict.status === 'placed' && claimed ? 'paid' : 'unpaid',
      })
      .where(eq(orders.id, order!.id))
      .returning()
    // The order's first timeline row, by whoever placed it (ADR 0200).
    await deps.orders.recordWritten(
      tx,
      final!,
      { kind: 'customer', name: `customer ${customerId}` },
      {
        paymentMethod: method.id,
        amountMinor: verdict.amount,
      },
    )
    await redeem(deps.carts, tx, site, cartId, order!.id, basket.row.promotionCodes ?? [])
    await deps.carts.markOrdered(tx, cartId)
    const placed = { ...(await deps.orders.placed(tx, final!, true)), accountCreated }
    // Queue mails, in this transaction: an order never exists without its e-mail jobs (the
    // outbox); a pending order's are queued when its payment settles (pending-orders.ts).
    if (final!.status === 'placed') await deps.orders.queueMails(tx, site, placed.order, p.baseUrl, final!)
    return placed
  })
}

/** The applied codes' uses become redemptions; the basket sweep can no longer give them back. */
async function redeem(
  carts: CartService,
  tx: Tx,
  site: Site,
  cartId: string,
  orderId: number,
  codes: string[],
) {
  const promos = await carts.promotionsFor(tx, site.id, codes)
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
