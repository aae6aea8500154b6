/**
 * Add-to-cart analytics (spec §7): an event in the data layer on every add, carrying sku, name,
 * price, quantity, currency and brand, and the ad pixel's AddToCart call when the site turns it on.
 * Prices come from the cart the server answered, never from the page.
 */
import type { Cart } from '../../shared/cart.ts'
import type { SiteProps } from '../../shared/page-props.ts'
import type { BasketAddItem } from '../../shared/product.ts'

export interface AddToCartProduct {
  sku: string
  name: string
  /** Unit price ex VAT in major units (12.5 = £12.50) */
  price: number
  quantity: number
  currency: string
  brand: string
}

declare global {
  interface Window {
    dataLayer?: unknown[]
    fbq?: (...args: unknown[]) => void
  }
}

export function addToCartProducts(
  items: BasketAddItem[],
  cart: Cart,
  site: SiteProps | null,
): AddToCartProduct[] {
  const currency = site?.currency ?? 'GBP'
  const brand = site?.name ?? ''
  const out: AddToCartProduct[] = []
  for (const item of items) {
    const line = [...cart.items].reverse().find((l) => l.product.id === item.listing_id && !l.IsFreeGift)
    if (!line) continue
    out.push({
      sku: line.product.sku,
      name: line.product.name,
      price: line.unit_price / 100,
      quantity: item.quantity,
      currency,
      brand,
    })
  }
  return out
}

export function addToCartEvents(items: BasketAddItem[], cart: Cart, site: SiteProps | null): void {
  if (typeof window === 'undefined') return
  const products = addToCartProducts(items, cart, site)
  if (products.length === 0) return
  window.dataLayer = window.dataLayer ?? []
  window.dataLayer.push({
    event: 'add_to_cart',
    ecommerce: { currency: products[0]!.currency, items: products },
  })
  if (site?.adPixel && typeof window.fbq === 'function') {
    window.fbq('track', 'AddToCart', {
      content_ids: products.map((p) => p.sku),
      content_name: products.map((p) => p.name).join(', '),
      content_type: 'product',
      contents: products.map((p) => ({
        id: p.sku,
        name: p.name,
        brand: p.brand,
        quantity: p.quantity,
        item_price: p.price,
      })),
      value: Math.round(products.reduce((s, p) => s + p.price * p.quantity, 0) * 100) / 100,
      currency: products[0]!.currency,
    })
  }
}
