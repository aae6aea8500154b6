/**
 * Reads of a customer's orders and invoices (the account area shows them). Every query takes the
 * owning customer's id and the site: another customer's order or invoice is simply not found
 * (the routes answer 404).
 * Only placed orders are listed, in whatever state they reached after (held, shipped, cancelled:
 * order.state.ts ACCOUNT_STATES; pending or failed payments are not orders yet), and
 * an order placed without logging in only once the account's owner confirmed it (ADR 0066, 0145):
 * an e-mail typed at checkout links an order to its account for the back office, nothing more.
 */
import { and, asc, count, desc, eq, exists, inArray, or } from 'drizzle-orm'
import { QueryBuilder } from 'drizzle-orm/pg-core'
import type { Db, Executor } from '../../db/client.ts'
import {
  orderStatusText,
  type AccountOrder,
  type AccountOrderLine,
  type InvoiceSummary,
  type InvoiceView,
  type OrderSummary,
  type ReorderState,
} from '../../../shared/account.ts'
import { orderTotalLines, type TotalsOptions } from '../../../shared/order-totals.ts'
import { normaliseBrackets, unitPriceFor } from '../../../shared/pricing.ts'
import { categories, productGroups, products } from '../catalog/catalog.tables.ts'
import {
  invoices,
  orderItems,
  orderOwnerConfirmations,
  orders,
  type InvoiceRow,
  type OrderItemRow,
  type OrderRow,
} from './orders.tables.ts'
import { ACCOUNT_STATES, INVOICEABLE_STATES } from './order.state.ts'
import { orderRefunds, orderShipments } from './orders.account-history.ts'

const currencyOf = (c: string): 'GBP' | 'USD' => (c === 'USD' ? 'USD' : 'GBP')

const qb = new QueryBuilder()

/** The order is the account's own: placed logged in, or placed as a guest and confirmed by it. */
function shownInAccount(customerId: number) {
  return or(
    eq(orders.placedAsGuest, false),
    exists(
      qb
        .select({ one: orderOwnerConfirmations.orderId })
        .from(orderOwnerConfirmations)
        .where(
          and(
            eq(orderOwnerConfirmations.orderId, orders.id),
            eq(orderOwnerConfirmations.customerId, customerId),
          ),
        ),
    ),
  )
}

function ownOrders(siteId: number, customerId: number) {
  return and(
    eq(orders.siteId, siteId),
    eq(orders.customerId, customerId),
    inArray(orders.status, [...ACCOUNT_STATES]),
    shownInAccount(customerId),
  )
}

function summary(order: OrderRow, itemCount: number): OrderSummary {
  return {
    id: order.id,
    OrderNumber: order.orderNumber,
    orderDate: order.orderDate.toISOString(),
    maginus_status: order.maginusStatus,
    statusText: orderStatusText(order.maginusStatus),
    total: order.totalIncVat,
    itemCount,
    currency: currencyOf(order.currency),
  }
}

/** The customer's placed orders, newest first (spec §4 Account). */
export async function listOrders(db: Executor, siteId: number, customerId: number): Promise<OrderSummary[]> {
  const rows = await db
    .select()
    .from(orders)
    .where(ownOrders(siteId, customerId))
    .orderBy(desc(orders.orderDate), desc(orders.id))
    .limit(200)
  if (rows.length === 0) return []
  const counts = await db
    .select({ orderId: orderItems.orderId, n: count() })
    .from(orderItems)
    .where(
      and(
        inArray(
          orderItems.orderId,
          rows.map((r) => r.id),
        ),
        eq(orderItems.isFreeGift, false),
      ),
    )
    .groupBy(orderItems.orderId)
  const byOrder = new Map(counts.map((c) => [c.orderId, Number(c.n)]))
  return rows.map((r) => summary(r, byOrder.get(r.id) ?? 0))
}

/** One of the customer's orders with its lines, or null. */
export async function findOrder(
  db: Executor,
  siteId: number,
  customerId: number,
  orderNumber: number,
): Promise<{ order: OrderRow; items: OrderItemRow[] } | null> {
  const [order] = await db
    .select()
    .from(orders)
    .where(and(ownOrders(siteId, customerId), eq(orders.orderNumber, orderNumber)))
  if (!order) return null
  const items = await db
    .select()
    .from(orderItems)
    .where(eq(orderItems.orderId, order.id))
    .orderBy(asc(orderItems.id))
  return { order, items }
}

export interface ReorderInfo {
  state: ReorderState
  productId: number
  categoryId: number | null
  unitPrice: number | null
  url: string | null
  minimumOrder: number
}

/**
 * What each ordered line would be today (spec §4): a published product (and group) priced above
 * 0 can be added again at today's price; an unpublished one links to its category ('View
 * Product'); a product no longer in the catalogue, a free gift or a line drawn in a builder
 * (sign, set or workwear: its design is not re-made) is 'Currently Unavailable For ReOrder'.
 */
export async function reorderInfo(
  db: Executor,
  siteId: number,
  items: OrderItemRow[],
): Promise<Map<number, ReorderInfo>> {
  const ids = [...new Set(items.map((i) => i.product.id).filter((id) => Number.isInteger(id)))]
  const found = ids.length
    ? await db
        .select({
          id: products.id,
          published: products.published,
          groupPublished: productGroups.published,
          priceList: products.priceList,
          minimumOrder: products.minimumOrder,
          groupUrl: productGroups.url,
          categoryId: productGroups.categoryId,
          categoryUrl: categories.url,
          categoryPublished: categories.published,
        })
        .from(products)
        .innerJoin(productGroups, eq(productGroups.id, products.groupId))
        .leftJoin(categories, eq(categories.id, productGroups.categoryId))
        .where(and(inArray(products.id, ids), eq(products.siteId, siteId)))
    : []
  const byId = new Map(found.map((p) => [p.id, p]))
  const out = new Map<number, ReorderInfo>()
  for (const item of items) {
    const p = byId.get(item.product.id)
    const built = item.isFreeGift || item.sequenceId !== null || item.options.length > 0
    if (!p || built) {
      out.set(item.id, {
        state: 'missing',
        productId: item.product.id,
        categoryId: null,
        unitPrice: null,
        url: null,
        minimumOrder: 1,
      })
      continue
    }
    const quantity = Math.max(item.quantity, p.minimumOrder, 1)
    const price = unitPriceFor(normaliseBrackets(p.priceList), quantity)
    const published = p.published && p.groupPublished
    const categoryUrl = p.categoryUrl ?? item.product.category?.url ?? null
    if (published && price > 0) {
      out.set(item.id, {
        state: 'available',
        productId: p.id,
        categoryId: p.categoryId,
        unitPrice: price,
        url: p.groupUrl,
        minimumOrder: Math.max(1, p.minimumOrder),
      })
    } else if (!published) {
      out.set(item.id, {
        state: 'unpublished',
        productId: p.id,
        categoryId: p.categoryId,
        unitPrice: null,
        url: categoryUrl,
        minimumOrder: Math.max(1, p.minimumOrder),
      })
    } else {
      // Published but priced at 0 today: nothing sensible to add.
      out.set(item.id, {
        state: 'missing',
        productId: p.id,
        categoryId: null,
        unitPrice: null,
        url: null,
        minimumOrder: 1,
      })
    }
  }
  return out
}

function optionNames(item: OrderItemRow): string[] {
  return item.options.map((o) => `${o.title}: ${o.name}`)
}

export async function presentAccountOrder(
  db: Executor,
  siteId: number,
  order: OrderRow,
  items: OrderItemRow[],
  /** The site's tax wording (siteTotalsOptions) */
  totalsOptions: TotalsOptions = {},
): Promise<AccountOrder> {
  const [info, shipped, refunds] = await Promise.all([
    reorderInfo(db, siteId, items),
    orderShipments(db, order.id),
    orderRefunds(db, order.id),
  ])
  const [invoice] = await db
    .select({ n: invoices.invoiceNumber })
    .from(invoices)
    .where(eq(invoices.orderId, order.id))
  const lines: AccountOrderLine[] = items.map((i) => {
    const r = info.get(i.id)!
    return {
      id: i.id,
      sku: i.sku,
      name: i.name,
      quantity: i.quantity,
      line_item_cost: i.unitPrice,
      line_total: i.lineTotal,
      line_total_ex_discount: i.lineTotalExDiscountExTax,
      options: optionNames(i),
      reorder: r.state,
      todayUnitPrice: r.unitPrice,
      url: r.url,
      minimumOrder: r.minimumOrder,
    }
  })
  return {
    ...summary(order, items.filter((i) => !i.isFreeGift).length),
    lines,
    shipments: shipped,
    refunds,
    goodsNet: order.goodsNet,
    shipping: order.shippingNet + order.shippingVat,
    vat: order.vat,
    discount: order.discount,
    totals: orderTotalLines(
      {
        goodsNet: order.goodsNet,
        discount: order.discount,
        shippingNet: order.shippingNet,
        tax: order.vat,
        total: order.totalIncVat,
      },
      { ...totalsOptions, deliveryName: order.deliveryName },
    ),
    deliveryName: order.deliveryName,
    poNumber: order.poNumber,
    paymentMethod: order.paymentMethod,
    shippingAddress: { ...order.shippingAddress },
    billingAddress: { ...order.billingAddress },
    contact: { ...order.contact },
    Notes: order.notes,
    invoiceNumber: invoice?.n ?? null,
  }
}

// --- invoices ---------------------------------------------------------------------------------

/** The customer's invoices (joined to their orders): of orders the account shows, only. */
function ownInvoices(siteId: number, customerId: number) {
  return and(
    eq(invoices.siteId, siteId),
    eq(invoices.customerId, customerId),
    eq(orders.customerId, customerId),
    shownInAccount(customerId),
  )
}

export async function listInvoices(
  db: Executor,
  siteId: number,
  customerId: number,
): Promise<InvoiceSummary[]> {
  const rows = await db
    .select({ invoice: invoices, orderNumber: orders.orderNumber })
    .from(invoices)
    .innerJoin(orders, eq(orders.id, invoices.orderId))
    .where(ownInvoices(siteId, customerId))
    .orderBy(desc(invoices.invoiceDate), desc(invoices.id))
    .limit(500)
  return rows.map((r) => invoiceSummary(r.invoice, r.orderNumber))
}

function invoiceSummary(row: InvoiceRow, orderNumber: number): InvoiceSummary {
  return {
    Invoice_Number: row.invoiceNumber,
    Invoice_Date: row.invoiceDate.toISOString(),
    Invoice_Amount: row.amount,
    OrderNumber: orderNumber,
    currency: currencyOf(row.currency),
  }
}

export async function findInvoice(
  db: Executor,
  siteId: number,
  customerId: number,
  invoiceNumber: number,
  /** The site's tax wording (siteTotalsOptions) */
  totalsOptions: TotalsOptions = {},
): Promise<InvoiceView | null> {
  const [row] = await db
    .select({ invoice: invoices, orderNumber: orders.orderNumber })
    .from(invoices)
    .innerJoin(orders, eq(orders.id, invoices.orderId))
    .where(and(ownInvoices(siteId, customerId), eq(invoices.invoiceNumber, invoiceNumber)))
  if (!row) return null
  const inv = row.invoice
  return {
    ...invoiceSummary(inv, row.orderNumber),
    lines: inv.lines,
    goodsNet: inv.goodsNet,
    shippingNet: inv.shippingNet,
    vat: inv.vat,
    // The invoice bills its lines after discount: goods after discount, no discount line.
    totals: orderTotalLines(
      { goodsNet: inv.goodsNet, discount: 0, shippingNet: inv.shippingNet, tax: inv.vat, total: inv.amount },
      totalsOptions,
    ),
    billingAddress: { ...inv.billingAddress },
    pdfUrl: `/customer/invoices/${inv.invoiceNumber}/pdf`,
  }
}

/**
 * What an invoice copies from its order: the site, customer, currency, totals, billing address
 * and lines as they were ordered (its number, date and amount are the caller's).
 */
export async function invoiceOf(tx: Executor, order: OrderRow & { customerId: number }) {
  const items = await tx
    .select()
    .from(orderItems)
    .where(eq(orderItems.orderId, order.id))
    .orderBy(asc(orderItems.id))
  return {
    siteId: order.siteId,
    orderId: order.id,
    customerId: order.customerId,
    currency: order.currency,
    goodsNet: order.goodsNet,
    shippingNet: order.shippingNet,
    vat: order.vat,
    billingAddress: order.billingAddress,
    lines: items.map((i) => ({
      sku: i.sku,
      name: i.name,
      quantity: i.quantity,
      unitPrice: i.unitPrice,
      lineTotal: i.lineTotal,
      vat: i.vat,
    })),
  }
}

/**
 * The back office's call: makes the invoice of a placed order (once; a second call returns the
 * first invoice). Throws when the order does not exist, is not placed or has no customer.
 */
export async function createInvoiceFromOrder(
  db: Db,
  orderNumber: number,
  invoiceDate?: Date,
): Promise<{ invoiceNumber: number; created: boolean }> {
  return db.transaction(async (tx) => {
    const [order] = await tx.select().from(orders).where(eq(orders.orderNumber, orderNumber)).for('update')
    if (!order) throw new Error(`no order ${orderNumber}`)
    if (!INVOICEABLE_STATES.includes(order.status))
      throw new Error(`order ${orderNumber} cannot be invoiced (${order.status})`)
    if (order.customerId === null) throw new Error(`order ${orderNumber} has no customer`)
    const [existing] = await tx
      .select({ n: invoices.invoiceNumber })
      .from(invoices)
      .where(eq(invoices.orderId, order.id))
    if (existing) return { invoiceNumber: existing.n, created: false }
    const [row] = await tx
      .insert(invoices)
      .values({
        ...(await invoiceOf(tx, { ...order, customerId: order.customerId })),
        ...(invoiceDate ? { invoiceDate } : {}),
        amount: order.totalIncVat,
      })
      .returning({ n: invoices.invoiceNumber })
    return { invoiceNumber: row!.n, created: true }
  })
}

// --- counts (the account home's tiles) ------------------------------------------------------

/** How many orders and invoices the account shows. */
export async function orderCounts(
  db: Executor,
  siteId: number,
  customerId: number,
): Promise<{ orders: number; invoices: number }> {
  const [[o], [i]] = await Promise.all([
    db.select({ n: count() }).from(orders).where(ownOrders(siteId, customerId)),
    db
      .select({ n: count() })
      .from(invoices)
      .innerJoin(orders, eq(orders.id, invoices.orderId))
      .where(ownInvoices(siteId, customerId)),
  ])
  return { orders: Number(o!.n), invoices: Number(i!.n) }
}
