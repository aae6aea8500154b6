/** An order row and its lines in the shape of spec §3 Order (what pages and e-mails read). */
import type { OrderData } from '../../../shared/checkout.ts'
import type { TotalsOptions } from '../../../shared/order-totals.ts'
import type { Site } from '../sites/sites.service.ts'
import type { OrderItemRow, OrderRow, OrderTransactionRow } from './orders.tables.ts'

/** The site's tax wording for an order's totals (a site that charges no tax shows no tax line). */
export function siteTotalsOptions(site: Site, deliveryName = ''): TotalsOptions {
  return { taxName: site.settings.tax.name, chargesTax: site.settings.tax.rate > 0, deliveryName }
}

export function presentOrder(
  order: OrderRow,
  items: OrderItemRow[],
  transactions: OrderTransactionRow[],
  /** Builder lines' previews by order item id (builders/order-builds.ts) */
  previews: ReadonlyMap<number, { url: string; alt: string }> = new Map(),
): OrderData {
  const shippingIncVat = order.shippingNet + order.shippingVat
  const idByCartItem = new Map(items.map((i) => [i.cartItemId, i.id]))
  return {
    id: order.id,
    OrderNumber: order.orderNumber,
    orderDate: order.orderDate.toISOString(),
    OrderSource: order.orderSource,
    Notes: order.notes,
    status: order.status,
    maginus_status: order.maginusStatus,
    currency: order.currency === 'USD' ? 'USD' : 'GBP',
    contactDetails: { ...order.contact },
    shippingAddress: { ...order.shippingAddress },
    billingAddress: { ...order.billingAddress },
    VATNumber: order.vatNumber,
    transactions: transactions.map((t) => ({
      paymentProvider: t.paymentProvider,
      paymentDetails: t.paymentDetails,
      amount: t.amount,
      message: t.message,
      authCode: t.authCode,
    })),
    items: items.map((i) => ({
      sku: i.sku,
      name: i.name,
      product: i.product,
      quantity: i.quantity,
      line_item_cost: i.unitPrice,
      line_total: i.lineTotal,
      line_total_ex_discount_ex_tax: i.lineTotalExDiscountExTax,
      line_vat: i.vat,
      builder_id: i.builderId,
      sequence_id: i.sequenceId,
      options: { items: i.options },
      parent: i.parentCartItemId !== null ? (idByCartItem.get(i.parentCartItemId) ?? null) : null,
      IsFreeGift: i.isFreeGift,
      preview: previews.get(i.id) ?? null,
    })),
    totalCost: order.goodsNet,
    // Everything charged that is not delivery: goods after discount with their VAT.
    totalCostIncTax: order.totalIncVat - shippingIncVat,
    totalShippingCost: shippingIncVat,
    totalDiscountCost: order.discount,
    totalTax: order.vat,
    CustomisationCharge: order.customisationCharge,
    promotionCodes: order.promotionCodes,
    deliveryName: order.deliveryName,
  }
}
