/**
 * What the integration API reads of orders (ADR 0220): the change feed of a site's orders on the
 * feed cursor of admin.feed.ts (orders' change_seq and change_xid are kept by the order
 * lifecycle), and one order with everything an ERP needs. Reads only; every change goes through
 * the lifecycle service (`app.orderLifecycle`).
 */
import { and, asc, eq, inArray, type SQL } from 'drizzle-orm'
import type { Db, Executor } from '../../db/client.ts'
import { DomainError } from '../../lib/domain-error.ts'
import { orderBuilderLines, orderWorkwearDesigns } from '../builders/builders.tables.ts'
import {
  invoices,
  orderItems,
  orders,
  orderTransactions,
  shipmentLines,
  shipments,
  type OrderRow,
} from '../orders/orders.tables.ts'
import { decodeCursor, feedPage, feedWindow } from './admin.feed.ts'

const iso = (d: Date | null) => (d ? d.toISOString() : null)

/** The short form of an order, as the feed lists it. */
function summary(o: OrderRow) {
  return {
    number: o.orderNumber,
    status: o.status,
    version: o.version,
    paymentStatus: o.paymentStatus,
    fulfilmentStatus: o.fulfilmentStatus,
    maginusStatus: o.maginusStatus,
    erpRef: o.erpRef,
    erpAcknowledgedAt: iso(o.erpAcknowledgedAt),
    currency: o.currency,
    totalIncVat: o.totalIncVat,
    orderDate: o.orderDate.toISOString(),
    updatedAt: o.updatedAt.toISOString(),
  }
}

export async function ordersFeed(
  db: Db,
  siteId: number,
  query: { after?: string; status?: string[]; limit: number },
) {
  const after = query.after ? decodeCursor(query.after) : null
  const filters: (SQL | undefined)[] = [
    eq(orders.siteId, siteId),
    feedWindow(orders.changeXid, orders.changeSeq, after),
    query.status?.length ? inArray(orders.status, query.status as OrderRow['status'][]) : undefined,
  ]
  const rows = await db
    .select()
    .from(orders)
    .where(and(...filters))
    .orderBy(asc(orders.changeXid), asc(orders.changeSeq))
    .limit(query.limit)
  return {
    orders: rows.map(summary),
    ...feedPage(
      rows,
      (r) => ({ xid: String(r.changeXid), seq: Number(r.changeSeq) }),
      query.after,
      query.limit,
    ),
  }
}

const notFound = (n: number) => new DomainError('order_not_found', `There is no order ${n}.`)

/** One order of the site, in full; another site's order is not found. */
export async function orderDetail(db: Executor, siteId: number, orderNumber: number) {
  const [o] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.siteId, siteId), eq(orders.orderNumber, orderNumber)))
  if (!o) throw notFound(orderNumber)
  const [items, builder, workwear, payments, sent, invoice] = await Promise.all([
    db.select().from(orderItems).where(eq(orderItems.orderId, o.id)).orderBy(asc(orderItems.id)),
    db.select().from(orderBuilderLines).where(eq(orderBuilderLines.orderId, o.id)),
    db.select().from(orderWorkwearDesigns).where(eq(orderWorkwearDesigns.orderId, o.id)),
    db
      .select()
      .from(orderTransactions)
      .where(eq(orderTransactions.orderId, o.id))
      .orderBy(asc(orderTransactions.id)),
    db.select().from(shipments).where(eq(shipments.orderId, o.id)).orderBy(asc(shipments.id)),
    db
      .select({
        invoiceNumber: invoices.invoiceNumber,
        invoiceDate: invoices.invoiceDate,
        amount: invoices.amount,
      })
      .from(invoices)
      .where(eq(invoices.orderId, o.id)),
  ])
  const lines = sent.length
    ? await db
        .select()
        .from(shipmentLines)
        .where(
          inArray(
            shipmentLines.shipmentId,
            sent.map((s) => s.id),
          ),
        )
    : []
  const designOf = new Map(builder.map((b) => [b.orderItemId, b]))
  const incVat = (net: number, rate: number) => net + Math.round((net * rate) / 100)
  return {
    ...summary(o),
    placedAsGuest: o.placedAsGuest,
    customerId: o.customerId,
    paymentMethod: o.paymentMethod,
    poNumber: o.poNumber,
    vatNumber: o.vatNumber,
    notes: o.notes,
    holdReason: o.holdReason,
    cancelReason: o.cancelReason,
    contact: o.contact,
    shippingAddress: o.shippingAddress,
    billingAddress: o.billingAddress,
    delivery: {
      despatchType: o.despatchType,
      name: o.deliveryName,
      netMinor: o.shippingNet,
      vatMinor: o.shippingVat,
      incVatMinor: o.shippingNet + o.shippingVat,
    },
    promotion: { codes: o.promotionCodes, discountExVatMinor: o.discount },
    vatRelief: {
      applied: o.applyVatRelief,
      declaration: (o.vatReliefDeclaration ?? null) as Record<string, unknown> | null,
    },
    totals: {
      goodsNetMinor: o.goodsNet,
      customisationChargeMinor: o.customisationCharge,
      shippingNetMinor: o.shippingNet,
      vatMinor: o.vat,
      discountMinor: o.discount,
      totalIncVatMinor: o.totalIncVat,
      refundedMinor: o.refundedMinor,
    },
    lines: items.map((i) => {
      const design = designOf.get(i.id)
      return {
        lineId: i.id,
        sku: i.sku,
        name: i.name,
        quantity: i.quantity,
        isFreeGift: i.isFreeGift,
        vatRate: i.vatRate,
        unitPriceExVat: i.unitPrice,
        unitPriceIncVat: incVat(i.unitPrice, i.vatRate),
        lineTotalExVat: i.lineTotal,
        lineVat: i.vat,
        lineTotalIncVat: i.lineTotal + i.vat,
        lineTotalBeforeDiscountExVat: i.lineTotalExDiscountExTax,
        options: i.options,
        design: design
          ? {
              sign: (design.printableSign ?? null) as Record<string, unknown> | null,
              workwear: (design.workWearSession ?? null) as Record<string, unknown> | null,
              previewSvg: design.previewSvg,
              previewAlt: design.previewAlt,
            }
          : null,
      }
    }),
    workwearDesigns: workwear.map((w) => ({
      sessionId: w.sessionId,
      design: w.design as unknown as Record<string, unknown>,
      logoKey: w.logoKey,
    })),
    payments: payments.map((p) => ({
      provider: p.paymentProvider,
      amountMinor: p.amount,
      authCode: p.authCode,
      message: p.message,
      at: p.createdAt.toISOString(),
    })),
    shipments: sent.map((s) => ({
      shipmentRef: s.shipmentRef,
      carrier: s.carrier,
      trackingNumber: s.trackingNumber,
      trackingUrl: s.trackingUrl,
      shippedAt: s.shippedAt.toISOString(),
      lines: lines
        .filter((l) => l.shipmentId === s.id)
        .map((l) => ({ lineId: l.orderLineId, quantity: l.quantity })),
    })),
    invoice: invoice[0]
      ? {
          invoiceNumber: invoice[0].invoiceNumber,
          invoiceDate: invoice[0].invoiceDate.toISOString(),
          amountMinor: invoice[0].amount,
        }
      : null,
  }
}
