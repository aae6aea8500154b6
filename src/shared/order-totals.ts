/**
 * An order's totals as shown: one convention per set of lines (ADR 0146). Every line is ex tax,
 * then the tax, then the total, so the lines add up exactly to what was charged:
 *
 *   Goods (ex VAT)      goods before any discount, customisation included (the item lines' sum)
 *   Discount (ex VAT)   minus the discount, when there is one
 *   Delivery (ex VAT)   delivery without its VAT
 *   VAT                 all VAT: goods after discount (zero-rated lines under VAT relief) and delivery
 *   Total               what the customer paid
 *
 * Stored orders satisfy total = goods after discount + delivery ex VAT + VAT (the orders_total
 * check), so these lines sum to the total. Every e-mail, page and PDF that shows an order's
 * totals takes them from here. Pure; integer minor units.
 */
import type { OrderData } from './checkout.ts'

export interface OrderTotalsInput {
  /** Goods after discount, ex tax, customisation included (orders.goods_net, totalCost) */
  goodsNet: number
  /** The discount, ex tax (orders.discount, totalDiscountCost) */
  discount: number
  /** Delivery ex tax (orders.shipping_net) */
  shippingNet: number
  /** All tax: goods and delivery (orders.vat, totalTax) */
  tax: number
  /** What was charged (orders.total_inc_vat) */
  total: number
}

export interface TotalsOptions {
  /** The site's tax name ('VAT', 'Sales tax') */
  taxName?: string
  /** False for a site that charges no tax: no tax line (unless an order has tax) and no '(ex …)' */
  chargesTax?: boolean
  /** The delivery rate's name, shown after 'Delivery' */
  deliveryName?: string
}

export type TotalLineKind = 'goods' | 'discount' | 'delivery' | 'tax' | 'total'

export interface TotalLine {
  kind: TotalLineKind
  label: string
  /** Minor units; the discount is negative */
  amount: number
}

export interface OrderTotals {
  /** The lines that add up to the total, in order */
  lines: TotalLine[]
  total: TotalLine
}

/** The lines of an order's totals and its total; `lines` sum to `total.amount`. */
export function orderTotalLines(input: OrderTotalsInput, options: TotalsOptions = {}): OrderTotals {
  const taxName = options.taxName || 'VAT'
  const chargesTax = options.chargesTax ?? true
  const ex = chargesTax ? ` (ex ${taxName})` : ''
  const delivery = options.deliveryName
    ? `Delivery (${options.deliveryName}${chargesTax ? `, ex ${taxName}` : ''})`
    : `Delivery${ex}`
  const lines: TotalLine[] = [{ kind: 'goods', label: `Goods${ex}`, amount: input.goodsNet + input.discount }]
  if (input.discount !== 0) lines.push({ kind: 'discount', label: `Discount${ex}`, amount: -input.discount })
  lines.push({ kind: 'delivery', label: delivery, amount: input.shippingNet })
  if (chargesTax || input.tax !== 0) lines.push({ kind: 'tax', label: taxName, amount: input.tax })
  return { lines, total: { kind: 'total', label: 'Total', amount: input.total } }
}

/**
 * The totals of an order as pages and e-mails receive it (spec §3 Order). Its delivery is shown
 * inc VAT there (totalShippingCost); ex VAT it is what was charged less goods and VAT.
 */
export function orderDataTotals(
  order: Pick<
    OrderData,
    'totalCost' | 'totalDiscountCost' | 'totalTax' | 'totalCostIncTax' | 'totalShippingCost'
  >,
): OrderTotalsInput {
  const total = order.totalCostIncTax + order.totalShippingCost
  return {
    goodsNet: order.totalCost,
    discount: order.totalDiscountCost,
    shippingNet: total - order.totalCost - order.totalTax,
    tax: order.totalTax,
    total,
  }
}
