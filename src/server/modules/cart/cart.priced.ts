/**
 * A basket priced and presented: the pricing engine run on its lines with the site's VAT, the
 * basket's delivery zone and rates and its code in force; and the `Cart` the pages and the JSON
 * API show (lines with their builder extras, totals, delivery choices, VAT relief).
 */
import { promotionCodesInForce, type Cart, type CartItem, type PromoError } from '../../../shared/cart.ts'
import { imageUrl } from '../../../shared/images.ts'
import { vatOn } from '../../../shared/vat.ts'
import type { Executor } from '../../db/client.ts'
import { imagesOf } from '../catalog/category.presenter.ts'
import type { Site } from '../sites/sites.service.ts'
import { codeInForce, type CodeInForce } from './cart.codes.ts'
import { pricingLines, reliefApplies, resolveOptions } from './cart.price-inputs.ts'
import { priceCart, promotionDiscount, type PricedCart } from './cart.pricing.ts'
import type { BasketStore } from './cart.store.ts'
import type { CartItemRow, CartRow, DeliveryRateRow } from './cart.tables.ts'
import type { CartContext, LineRow } from './cart.types.ts'

export interface Priced {
  priced: PricedCart
  promoErrors: PromoError[]
  rates: DeliveryRateRow[]
}

/**
 * Prices a basket. `standing` is the code in force as the caller found it, or how to find it:
 * 'read' (store.db only: a hold that expired is taken again in a change of its own) or 'frozen'
 * (no hold: a copy, a saved basket, an ordered basket).
 */
export async function priceBasket(
  store: BasketStore,
  executor: Executor,
  site: Site,
  cart: CartRow,
  lines: LineRow[],
  standing: CodeInForce | 'read' | 'frozen',
): Promise<Priced> {
  const allRates = await store.caches.rates(executor, site.id)
  const zone = cart.shippingZone ?? allRates[0]?.zone ?? null
  const rates = allRates.filter((r) => r.zone === zone)
  const { promo, errors } =
    typeof standing === 'string' ? await codeInForce(store, executor, site, cart, lines, standing) : standing
  const promoErrors = [...errors]
  const discount = promotionDiscount(promo)
  const priced = priceCart(pricingLines(lines), {
    vatRate: site.settings.tax.rate,
    applyVatRelief: reliefApplies(site, cart, lines),
    rates: rates.map((r) => ({
      id: r.id,
      despatchType: r.despatchType,
      price: r.price,
      freeOver: r.freeOver,
    })),
    despatchType: cart.despatchType ?? rates[0]?.despatchType ?? '',
    minimumOrderValue: site.settings.minimumOrderValue,
    discount,
  })
  return { priced, promoErrors, rates }
}

/** The cart of a visitor who has no basket. */
export function emptyCart(ctx: CartContext): Cart {
  return {
    id: null,
    items: [],
    promotionCodes: [],
    errors: { promotionCodes: [] },
    despatch_types: [],
    despatch_type: '',
    cart_total_price: 0,
    cart_total_price_inc_tax: 0,
    cart_total_tax: 0,
    cart_total_shipping: 0,
    cart_total_shipping_inc_tax: 0,
    cart_total_discount: 0,
    cart_total_discount_inc_tax: 0,
    cart_total_items: 0,
    customer_id: ctx.customerId ?? null,
    shippingZone: '',
    shippingRates: [],
    shortForFreeShipping: null,
    short_for_minimum_order_value: 0,
    minimum_order_value: ctx.site.settings.minimumOrderValue,
    items_total: 0,
    items_count: 0,
    vat_items: [],
    customisation_total: 0,
    ApplyVATRelief: false,
    shared: false,
  }
}

/** The priced basket as the pages and the JSON API show it. */
export function presentBasket(
  ctx: CartContext,
  cart: CartRow,
  lines: LineRow[],
  { priced, rates, promoErrors }: Priced,
): Cart {
  const items: CartItem[] = lines.map((l, i) => {
    const p = priced.lines[i]!
    const { options } = resolveOptions(l.categoryBuilder, l.item.options)
    const unit = p.unitPrice + p.optionsUnitCost
    const image = imagesOf(l.groupMedia)[0]
    const url = l.groupUrl
    const signPage = l.item.printableSign ? signPageOf(l) : null
    return {
      id: l.item.id,
      quantity: l.item.quantity,
      minimumOrder: l.minimumOrder,
      parent: l.item.parentId,
      is_isolated_from_parent: l.item.isIsolatedFromParent,
      IsFreeGift: l.item.isFreeGift,
      sequence_id: l.item.sequenceId,
      printable_sign:
        l.item.printableSign && signPage !== null
          ? { url: signPage, signReads: l.item.printableSign.signReads ?? '' }
          : null,
      unit_price: unit,
      unit_price_inc_tax: unit + vatOn(unit, p.vatRate),
      line_total: p.net,
      line_total_inc_tax: p.net + p.vat,
      line_tax: p.vat,
      line_total_ex_discount_ex_tax: p.gross,
      vat_rate: p.vatRate,
      options: {
        price_ex_tax: p.optionsUnitCost,
        items: options.map((o) => ({ id: o.id, title: o.title, name: o.name, cost: o.cost })),
      },
      product: {
        id: l.item.productId,
        sku: l.sku,
        product_code: l.productCode || l.sku,
        name: l.productName || l.groupName,
        url,
        price: p.unitPrice,
        details: l.description,
        media: image ? imageUrl(image.file_location, { w: 120, h: 120, fit: 'contain' }) : null,
        category:
          l.item.categoryId && l.categoryUrl
            ? { id: l.item.categoryId, name: l.categoryName ?? '', url: l.categoryUrl }
            : null,
      },
      FullURL: `${ctx.baseUrl}${url}`,
      category: l.categoryUrl ? { url: l.categoryUrl } : null,
      work_wear_session: l.item.workWearSession,
      edit_url: signPage !== null ? withQuery(signPage, 'item_id', String(l.item.id)) : null,
      work_wear_url: l.item.workWearSession
        ? withQuery(
            `/custom-workwear/${l.item.workWearSession.builder_json.cat_id}`,
            'session_id',
            l.item.workWearSession.id,
          )
        : null,
      ...builderExtras(l.item),
    }
  })
  const despatchType = rates.find((r) => r.id === priced.selectedRateId)?.despatchType ?? ''
  return {
    id: cart.id,
    items,
    promotionCodes: promotionCodesInForce(cart.promotionCodes),
    errors: { promotionCodes: promoErrors },
    despatch_types: [...new Set(rates.map((r) => r.despatchType))],
    despatch_type: despatchType,
    cart_total_price: priced.totalPrice,
    cart_total_price_inc_tax: priced.totalPriceIncTax,
    cart_total_tax: priced.tax,
    cart_total_shipping: priced.shipping,
    cart_total_shipping_inc_tax: priced.shipping + priced.shippingVat,
    cart_total_discount: priced.discount,
    cart_total_discount_inc_tax: priced.discountIncTax,
    cart_total_items: priced.totalItems,
    customer_id: cart.customerId,
    shippingZone: rates[0]?.zone ?? cart.shippingZone ?? '',
    shippingRates: rates.map((r) => ({
      id: r.id,
      name: r.name,
      price: r.id === priced.selectedRateId ? priced.shipping : r.price,
      selected: r.id === priced.selectedRateId,
      despatch_type: r.despatchType,
    })),
    shortForFreeShipping: priced.lines.length ? priced.shortForFreeShipping : null,
    short_for_minimum_order_value: priced.shortForMinimumOrderValue,
    minimum_order_value: ctx.site.settings.minimumOrderValue,
    items_total: priced.itemsTotal,
    items_count: priced.itemsCount,
    vat_items: priced.vatItems,
    customisation_total: priced.customisationTotal,
    ApplyVATRelief: reliefApplies(ctx.site, cart, lines),
    show_vat_relief:
      ctx.site.settings.tax.rate > 0 && lines.some((l) => l.vatReliefEligible && !l.item.isFreeGift),
    vat_relief_declaration: cart.vatReliefDeclaration
      ? { name: cart.vatReliefDeclaration.name, condition: cart.vatReliefDeclaration.condition }
      : null,
    shared: cart.shared,
  }
}

/**
 * What the builders add to a presented line: a sign's preview, PDF proof and number; a workwear
 * line's garment, colour, size, customisation and preview.
 */
function builderExtras(item: CartItemRow): Partial<CartItem> {
  const extras: Partial<CartItem> = {}
  if (item.printableSign?.design) {
    extras.sign_preview_url = `/design-a-sign/preview/${item.id}.svg`
    extras.sign_proof_url = `/design-a-sign/proof/${item.id}.pdf`
    extras.sequence_label = item.printableSign.design.numberLabel ?? null
    extras.sign_details = `${item.printableSign.design.sizeLabel}, ${item.printableSign.design.material}`
  }
  const ww = item.workWearSession
  if (ww) {
    extras.work_wear = {
      garment: ww.builder_json.garment ?? '',
      colour: ww.builder_json.colour ?? '',
      size: ww.builder_json.size ?? '',
      customisation: ww.builder_json.customisation ?? [],
      preview_url: `/custom-workwear/preview/${ww.id}.svg`,
    }
  }
  return extras
}

/**
 * The page a sign line is edited on, from the shop's own routes (ADR 0121): a designed sign's
 * designer for the line's category, otherwise the product's page (spec §2: "the item url"). An
 * address stored on the line (older lines kept the one the browser sent) is never used.
 */
function signPageOf(l: LineRow): string {
  if (l.item.printableSign?.design && l.item.categoryId !== null) return `/design-a-sign/${l.item.categoryId}`
  return l.groupUrl
}

function withQuery(url: string, key: string, value: string): string {
  return `${url}${url.includes('?') ? '&' : '?'}${key}=${encodeURIComponent(value)}`
}
