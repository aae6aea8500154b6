import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Cart } from '../../shared/cart.ts'
import type { SiteProps } from '../../shared/page-props.ts'
import { addToCartEvents } from './analytics.ts'

const cart = {
  items: [
    {
      product: { id: 5, sku: 'FS-1', name: 'Fire exit sign' },
      unit_price: 1250,
      IsFreeGift: false,
    },
  ],
} as unknown as Cart

const site = (adPixel: boolean) =>
  ({ currency: 'GBP', name: 'Harbour Safety Supplies', adPixel }) as unknown as SiteProps

afterEach(() => vi.unstubAllGlobals())

describe('add-to-cart events (spec §7)', () => {
  it('pushes the data layer event and the ad pixel AddToCart with sku, name, price, quantity, currency and brand', () => {
    const fbq = vi.fn()
    const win: Record<string, unknown> = { fbq }
    vi.stubGlobal('window', win)
    addToCartEvents([{ listing_id: 5, quantity: 3, category_id: 1 }], cart, site(true))
    const product = {
      sku: 'FS-1',
      name: 'Fire exit sign',
      price: 12.5,
      quantity: 3,
      currency: 'GBP',
      brand: 'Harbour Safety Supplies',
    }
    expect(win.dataLayer).toEqual([
      { event: 'add_to_cart', ecommerce: { currency: 'GBP', items: [product] } },
    ])
    expect(fbq).toHaveBeenCalledWith('track', 'AddToCart', {
      content_ids: ['FS-1'],
      content_name: 'Fire exit sign',
      content_type: 'product',
      contents: [
        {
          id: 'FS-1',
          name: 'Fire exit sign',
          brand: 'Harbour Safety Supplies',
          quantity: 3,
          item_price: 12.5,
        },
      ],
      value: 37.5,
      currency: 'GBP',
    })
  })

  it('leaves the pixel alone when the site does not turn it on', () => {
    const fbq = vi.fn()
    vi.stubGlobal('window', { fbq })
    addToCartEvents([{ listing_id: 5, quantity: 1, category_id: 1 }], cart, site(false))
    expect(fbq).not.toHaveBeenCalled()
  })
})
