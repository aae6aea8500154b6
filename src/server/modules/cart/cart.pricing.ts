/**
 * The pricing engine: one pure function from a cart's lines and the site's rules to every total
 * the basket, checkout and order placement show. Integer minor units throughout, ex VAT unless a
 * name says otherwise. VAT is worked out per line on the line's net amount (after its share of
 * any discount) and rounded half-up; the order's VAT is the sum of the lines' VAT plus the VAT on
 * delivery. Prices sent by a browser never reach this function: its inputs come from the catalogue.
 */
import { unitPriceFor, type Bracket } from '../../../shared/pricing.ts'
import { vatOn } from '../../../shared/vat.ts'

export interface PricingLineInput {
  id: number
  quantity: number
  /** The SKU's price brackets (unit price by quantity) */
  brackets: readonly Bracket[]
  /** A builder line's base unit price (its first selector's cost); replaces the brackets */
  basePrice?: number | null
  /** Per-unit costs of the chosen options (builder customisation) */
  optionCosts: readonly number[]
  /** Zero-rated when the cart claims VAT relief */
  vatReliefEligible: boolean
  /** Free gifts cost nothing and take no discount */
  isFreeGift: boolean
  /**
   * The quantity whose bracket prices this line, when it is priced together with others (a
   * numbered sign set, a workwear order in several sizes); default: its own quantity
   */
  bracketQuantity?: number
}

export interface PricingRate {
  id: number
  despatchType: string
  /** Minor units, ex VAT */
  price: number
  /** Goods total (ex VAT, after discount) from which the rate is free; null = never */
  freeOver: number | null
}

export interface PricingDiscount {
  /** Whole percent off the goods (0–100) */
  percentage: number
  /** Minor units off the goods, after the percentage */
  fixed: number
  freeDelivery: boolean
}

/** What a promotion takes off: the one code a basket may hold (ADR 0120), or none. */
export function promotionDiscount(promo: { kind: string; value: number } | null): PricingDiscount {
  const discount: PricingDiscount = { percentage: 0, fixed: 0, freeDelivery: false }
  if (!promo) return discount
  if (promo.kind === 'percentage') discount.percentage = int(promo.value)
  else if (promo.kind === 'fixed') discount.fixed = int(promo.value)
  else if (promo.kind === 'free_delivery') discount.freeDelivery = true
  return discount
}

export interface PricingRules {
  /** Standard VAT rate in percent (20) */
  vatRate: number
  applyVatRelief: boolean
  /** The delivery rates of the cart's shipping zone */
  rates: readonly PricingRate[]
  despatchType: string
  /** Minimum goods total (ex VAT, after discount) to check out; 0 = none */
  minimumOrderValue: number
  discount: PricingDiscount
}

export interface PricedLine {
  id: number
  quantity: number
  /** Unit price (bracket price or builder base), ex VAT, without options */
  unitPrice: number
  /** Sum of the option costs for one unit */
  optionsUnitCost: number
  /** (unitPrice + optionsUnitCost) × quantity: line_total_ex_discount_ex_tax */
  gross: number
  /** optionsUnitCost × quantity */
  customisation: number
  /** This line's share of the cart discount */
  discount: number
  /** gross - discount: line_total */
  net: number
  vatRate: number
  vat: number
}

export interface VatItem {
  /** Percent */
  rate: number
  /** Taxable amount ex VAT */
  net: number
  tax: number
}

export interface PricedCart {
  lines: PricedLine[]
  /** Goods before discount (items_total) */
  itemsTotal: number
  /** Number of lines (items_count) */
  itemsCount: number
  /** Sum of quantities (cart_total_items) */
  totalItems: number
  customisationTotal: number
  discount: number
  discountIncTax: number
  /** Goods after discount, ex VAT */
  goodsNet: number
  shipping: number
  shippingVat: number
  /** The rate in use (null when the zone has none) */
  selectedRateId: number | null
  /** goodsNet + shipping: cart_total_price */
  totalPrice: number
  tax: number
  totalPriceIncTax: number
  /** Left to spend for free delivery; null when the rate is never free or there is no rate */
  shortForFreeShipping: number | null
  shortForMinimumOrderValue: number
  vatItems: VatItem[]
}

const int = (n: number) => (Number.isFinite(n) ? Math.max(0, Math.floor(n)) : 0)

/** Spreads `amount` over `weights` in proportion, largest remainder first, so the parts sum exactly. */
export function allocate(amount: number, weights: readonly number[]): number[] {
  const total = weights.reduce((s, w) => s + w, 0)
  if (amount <= 0 || total <= 0) return weights.map(() => 0)
  const exact = weights.map((w) => (amount * w) / total)
  const parts = exact.map((e) => Math.floor(e))
  let left = amount - parts.reduce((s, p) => s + p, 0)
  const order = exact.map((e, i) => ({ i, r: e - Math.floor(e) })).sort((a, b) => b.r - a.r || a.i - b.i)
  for (const { i } of order) {
    if (left <= 0) break
    parts[i]! += 1
    left -= 1
  }
  return parts
}

export function priceCart(lines: readonly PricingLineInput[], rules: PricingRules): PricedCart {
  const base = lines.map((line) => {
    const quantity = int(line.quantity)
    const unitPrice = line.isFreeGift
      ? 0
      : line.basePrice !== null && line.basePrice !== undefined
        ? int(line.basePrice)
        : int(
            unitPriceFor(
              line.brackets,
              line.bracketQuantity !== undefined ? int(line.bracketQuantity) : quantity,
            ),
          )
    const optionsUnitCost = line.isFreeGift ? 0 : line.optionCosts.reduce((s, c) => s + int(c), 0)
    return {
      line,
      quantity,
      unitPrice,
      optionsUnitCost,
      gross: (unitPrice + optionsUnitCost) * quantity,
      customisation: optionsUnitCost * quantity,
    }
  })
  const itemsTotal = base.reduce((s, l) => s + l.gross, 0)

  // Discount: the percentage first, then a fixed amount off what is left; never below zero goods.
  const pct = Math.min(100, int(rules.discount.percentage))
  const pctDiscount = Math.floor((itemsTotal * pct) / 100 + 0.5)
  const discount = Math.min(
    itemsTotal,
    pctDiscount + Math.min(int(rules.discount.fixed), itemsTotal - pctDiscount),
  )
  const shares = allocate(
    discount,
    base.map((l) => l.gross),
  )

  const priced: PricedLine[] = base.map((l, i) => {
    const vatRate = rules.applyVatRelief && l.line.vatReliefEligible ? 0 : rules.vatRate
    const lineDiscount = shares[i]!
    const net = l.gross - lineDiscount
    return {
      id: l.line.id,
      quantity: l.quantity,
      unitPrice: l.unitPrice,
      optionsUnitCost: l.optionsUnitCost,
      gross: l.gross,
      customisation: l.customisation,
      discount: lineDiscount,
      net,
      vatRate,
      vat: vatOn(net, vatRate),
    }
  })
  const goodsNet = itemsTotal - discount
  const discountIncTax = discount + priced.reduce((s, l) => s + (vatOn(l.gross, l.vatRate) - l.vat), 0)

  const rate = rules.rates.find((r) => r.despatchType === rules.despatchType) ?? rules.rates[0] ?? null
  const hasGoods = priced.some((l) => l.quantity > 0)
  let shipping = 0
  if (rate && hasGoods && !rules.discount.freeDelivery) {
    const free = rate.freeOver !== null && goodsNet >= rate.freeOver
    shipping = free ? 0 : int(rate.price)
  }
  const shippingVat = vatOn(shipping, rules.vatRate)
  const shortForFreeShipping =
    rate && rate.freeOver !== null
      ? rules.discount.freeDelivery
        ? 0
        : Math.max(0, rate.freeOver - goodsNet)
      : null

  const byRate = new Map<number, VatItem>()
  const add = (rateValue: number, net: number, tax: number) => {
    const item = byRate.get(rateValue) ?? { rate: rateValue, net: 0, tax: 0 }
    item.net += net
    item.tax += tax
    byRate.set(rateValue, item)
  }
  for (const l of priced) if (l.quantity > 0) add(l.vatRate, l.net, l.vat)
  if (shipping > 0) add(rules.vatRate, shipping, shippingVat)
  const vatItems = [...byRate.values()].sort((a, b) => b.rate - a.rate)

  const tax = priced.reduce((s, l) => s + l.vat, 0) + shippingVat
  const totalPrice = goodsNet + shipping
  const minimum = int(rules.minimumOrderValue)
  return {
    lines: priced,
    itemsTotal,
    itemsCount: priced.length,
    totalItems: priced.reduce((s, l) => s + l.quantity, 0),
    customisationTotal: priced.reduce((s, l) => s + l.customisation, 0),
    discount,
    discountIncTax,
    goodsNet,
    shipping,
    shippingVat,
    selectedRateId: rate?.id ?? null,
    totalPrice,
    tax,
    totalPriceIncTax: totalPrice + tax,
    shortForFreeShipping,
    shortForMinimumOrderValue: minimum > 0 && hasGoods ? Math.max(0, minimum - goodsNet) : 0,
    vatItems,
  }
}
