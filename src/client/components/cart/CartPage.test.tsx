// @vitest-environment happy-dom
import { act } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Cart as CartData, CartItem } from '../../../shared/cart.ts'
import { makePage, mockMatchMedia, renderPage, testSite, type Rendered } from '../../test/render.tsx'
import Cart, { type CartPageProps } from '../../pages/Cart.tsx'

function item(over: Partial<CartItem> = {}): CartItem {
  return {
    id: 1,
    quantity: 2,
    minimumOrder: 1,
    parent: null,
    is_isolated_from_parent: false,
    IsFreeGift: false,
    sequence_id: null,
    printable_sign: null,
    unit_price: 1000,
    unit_price_inc_tax: 1200,
    line_total: 2000,
    line_total_inc_tax: 2400,
    line_tax: 400,
    line_total_ex_discount_ex_tax: 2000,
    vat_rate: 20,
    options: { price_ex_tax: 0, items: [] },
    product: {
      id: 5,
      sku: 'HSS-FS-1',
      product_code: 'FS-1',
      name: 'Fire exit sign',
      url: '/fire-exit',
      price: 1000,
      details: '',
      media: null,
      category: null,
    },
    FullURL: 'https://shop.example/fire-exit',
    category: null,
    work_wear_session: null,
    edit_url: null,
    work_wear_url: null,
    ...over,
  }
}

function cart(over: Partial<CartData> = {}): CartData {
  return {
    id: '00000000-0000-4000-8000-000000000001',
    items: [item()],
    promotionCodes: [],
    errors: { promotionCodes: [] },
    despatch_types: ['standard'],
    despatch_type: 'standard',
    cart_total_price: 2595,
    cart_total_price_inc_tax: 3114,
    cart_total_tax: 519,
    cart_total_shipping: 595,
    cart_total_shipping_inc_tax: 714,
    cart_total_discount: 0,
    cart_total_discount_inc_tax: 0,
    cart_total_items: 2,
    customer_id: null,
    shippingZone: 'UK Mainland',
    shippingRates: [],
    shortForFreeShipping: 8000,
    short_for_minimum_order_value: 0,
    minimum_order_value: 2000,
    items_total: 2000,
    items_count: 1,
    vat_items: [],
    customisation_total: 0,
    ApplyVATRelief: false,
    shared: false,
    ...over,
  }
}

const props = (over: Partial<CartPageProps> = {}): CartPageProps => ({
  basket: cart(),
  canSave: false,
  suggestions: [],
  content: { afterSummary: null, afterNavigation: null },
  ...over,
})

let rendered: Rendered | undefined
let container: HTMLElement
async function render(p: CartPageProps, extra = {}) {
  rendered = await renderPage(Cart as never, makePage('Cart', { ...p }, extra))
  container = rendered.container
}
const text = () => container.textContent ?? ''
const buttons = () => [...container.querySelectorAll('button')].map((b) => b.textContent?.trim())

beforeEach(() => mockMatchMedia(() => true))
afterEach(() => {
  rendered?.unmount()
  rendered = undefined
  vi.unstubAllGlobals()
  vi.useRealTimers()
})

/** Answers the basket's JSON calls with `answer` and records them. */
function stubCartApi(answer: CartData) {
  const calls: { url: string; body: unknown }[] = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      calls.push({ url: String(input), body: init?.body ? JSON.parse(String(init.body)) : null })
      return new Response(JSON.stringify(answer), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      })
    }),
  )
  return calls
}

describe('Cart page', () => {
  it('shows the lines with Item, Price Each, Qty and Total, share but not save for a visitor', async () => {
    await render(props())
    const heads = [...container.querySelectorAll('th')].map((th) => th.textContent)
    expect(heads).toEqual(['Item', 'Price Each', 'Qty', 'Total'])
    expect(buttons()).toContain('Share Basket')
    expect(buttons()).not.toContain('Save Basket')
    expect(container.querySelector('a[href="/checkout"]')?.textContent).toBe('Go To Checkout')
    expect(text()).toContain('Secure buying')
  })

  it("shows each line's product code as the product page's grid shows it, not the internal SKU", async () => {
    await render(props())
    expect(text()).toContain('Code: FS-1')
    expect(text()).not.toContain('HSS-FS-1')
  })

  it('words the minimum-order notice with the basket name and its spaces', async () => {
    await render(props({ basket: cart({ short_for_minimum_order_value: 922 }) }))
    expect(text()).toContain('to your basket to check out.')
  })

  it('hides share on a shared basket and shows save to a logged-in customer', async () => {
    await render(props({ basket: cart({ shared: true }), canSave: true }))
    expect(buttons()).not.toContain('Share Basket')
    expect(buttons()).toContain('Save Basket')
  })

  it.each([
    [8000, 'Spend another £80.00 (ex VAT) to qualify for free delivery.'],
    [0, 'Good news: your order qualifies for free delivery.'],
  ])('says how far free delivery is (%i left)', async (remaining, message) => {
    await render(props({ basket: cart({ shortForFreeShipping: remaining }) }))
    expect(container.querySelector('[data-testid="delivery-notice"]')?.textContent).toBe(message)
  })

  it('shows no delivery notice when the threshold is not set', async () => {
    await render(props({ basket: cart({ shortForFreeShipping: null }) }))
    expect(container.querySelector('[data-testid="delivery-notice"]')).toBeNull()
  })

  it('shows the free-delivery note only once nothing is left to spend for it', async () => {
    await render(props({ basket: cart({ shortForFreeShipping: 0 }) }))
    expect(container.querySelector('[data-testid="free-delivery-note"]')?.textContent).toBe(
      'Free delivery on this order.',
    )
    rendered?.unmount()
    await render(props({ basket: cart({ shortForFreeShipping: 1 }) }))
    expect(container.querySelector('[data-testid="free-delivery-note"]')).toBeNull()
    rendered?.unmount()
    await render(props({ basket: cart({ shortForFreeShipping: null }) }))
    expect(container.querySelector('[data-testid="free-delivery-note"]')).toBeNull()
  })

  it('shows no tree-planting notice unless the site turns it on', async () => {
    await render(props({ basket: cart({ items_total: 250_00 }) }))
    expect(container.querySelector('[data-testid="tree-planting-notice"]')).toBeNull()
  })

  it.each([
    [99_99, 'We plant a tree for every £100.00 you spend.'],
    [100_00, 'Thank you: this order will plant 1 tree.'],
    [250_00, 'Thank you: this order will plant 2 trees.'],
    [10_000_000_00, 'Thank you: this order will plant 500 trees.'],
  ])('plants one tree per £100 spent, at most 500 (%i spent)', async (spent, message) => {
    await render({
      ...props({ basket: cart({ items_total: spent }) }),
      site: { ...testSite, treePlanting: true },
    } as never)
    expect(container.querySelector('[data-testid="tree-planting-notice"]')?.textContent).toBe(message)
  })

  it('replaces the checkout buttons with the minimum-order notice while short of it', async () => {
    await render(props({ basket: cart({ short_for_minimum_order_value: 500 }) }))
    expect(container.querySelector('a[href="/checkout"]')).toBeNull()
    expect(container.querySelector('[data-testid="minimum-order-notice"]')?.textContent).toContain('£5.00')
    // It replaces the header's, the summary's and the navigation's buttons, but is said once.
    expect(container.querySelectorAll('[data-testid="minimum-order-notice"]')).toHaveLength(1)
    expect(text().match(/Our minimum order value is/g)).toHaveLength(1)
  })

  it('shows a discounted line as quantity × price each, the discount, and what is left, adding up', async () => {
    await render(
      props({
        basket: cart({
          items: [
            item({
              quantity: 2,
              unit_price: 529,
              line_total_ex_discount_ex_tax: 1058,
              line_total: 952,
            }),
          ],
          cart_total_discount: 106,
        }),
      }),
    )
    const line = container.querySelector('[data-testid="cart-line"]')!
    expect(line.querySelector('[data-testid="line-price"]')?.textContent).toBe('£5.29')
    const total = line.querySelector('[data-testid="line-total"]')!
    expect(total.textContent).toBe('£10.58Discount −£1.06£9.52 after discount')
  })

  it('shows an undiscounted line total alone', async () => {
    await render(props())
    const total = container.querySelector('[data-testid="line-total"]')!
    expect(total.textContent).toBe('£20.00')
    expect(total.querySelector('[data-testid="line-discount"]')).toBeNull()
  })

  it('announces a quantity change, the new line total and the header summary in a polite live region', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    await render(props())
    const region = container.querySelector('[data-testid="cart-announcement"]')!
    expect(region.getAttribute('role')).toBe('status')
    expect(region.textContent).toBe('')
    const calls = stubCartApi(
      cart({
        items: [item({ quantity: 3, line_total: 3000, line_total_ex_discount_ex_tax: 3000 })],
        cart_total_items: 3,
        cart_total_price_inc_tax: 4314,
      }),
    )
    await act(async () => {
      container
        .querySelector<HTMLButtonElement>('button[aria-label="Increase quantity for Fire exit sign"]')!
        .click()
    })
    await act(async () => {
      await vi.advanceTimersByTimeAsync(700)
    })
    await act(async () => {
      await vi.advanceTimersByTimeAsync(50)
    })
    expect(calls).toEqual([{ url: '/cart/update-items', body: { items: [{ id: 1, quantity: 3 }] } }])
    expect(region.textContent).toBe(
      'Fire exit sign: quantity 3, line total £30.00. Basket: 3 items, total £43.14.',
    )
  })

  it('announces a removed line and the new summary', async () => {
    await render(
      props({
        basket: cart({
          items: [item(), item({ id: 2, product: { ...item().product, name: 'Exit arrow' } })],
        }),
      }),
    )
    stubCartApi(cart({ items: [item()], cart_total_items: 2, cart_total_price_inc_tax: 3114 }))
    await act(async () => {
      container.querySelector<HTMLButtonElement>('button[aria-label="Remove Exit arrow"]')!.click()
    })
    await act(async () => new Promise((r) => setTimeout(r, 20)))
    expect(container.querySelector('[data-testid="cart-announcement"]')!.textContent).toBe(
      'Exit arrow removed. Basket: 2 items, total £31.14.',
    )
  })

  it('puts promo errors in a list inside the alert box, not a list that is itself the alert', async () => {
    await render(
      props({
        basket: cart({
          promotionCodes: ['OLD'],
          errors: {
            promotionCodes: [{ message: 'Promo code is not valid or applicable to your cart', code: 'OLD' }],
          },
        }),
      }),
    )
    const alert = container.querySelector('[data-testid="promo-error"]')!
    expect(alert.tagName).toBe('DIV')
    expect(alert.getAttribute('role')).toBe('alert')
    expect(alert.querySelectorAll('ul > li')).toHaveLength(1)
    expect(container.querySelector('ul[role="alert"], ol[role="alert"]')).toBeNull()
  })

  it('keeps a child line read-only and shows a free gift’s quantity only', async () => {
    await render(
      props({
        basket: cart({
          items: [item(), item({ id: 2, parent: 1 }), item({ id: 3, IsFreeGift: true, quantity: 1 })],
        }),
      }),
    )
    const lines = container.querySelectorAll('[data-testid="cart-line"]')
    expect(lines[0]!.querySelector('input')).not.toBeNull()
    expect(lines[1]!.querySelector('input')).toBeNull()
    expect(lines[2]!.querySelector('input')).toBeNull()
    expect(lines[2]!.textContent).toContain('Free gift')
  })

  it('links a printable sign to its editor and a workwear line to its builder', async () => {
    await render(
      props({
        basket: cart({
          items: [
            item({
              edit_url: '/design-a-sign?item_id=1',
              printable_sign: { url: '/design-a-sign', signReads: 'EXIT' },
            }),
            item({ id: 2, work_wear_url: '/custom-workwear/4?session_id=abc' }),
          ],
        }),
      }),
    )
    expect(container.querySelector('a[href="/design-a-sign?item_id=1"]')?.textContent).toBe('Edit sign')
    expect(container.querySelector('a[href="/custom-workwear/4?session_id=abc"]')).not.toBeNull()
    expect(text()).toContain('Sign reads: EXIT')
  })

  it('shows the empty basket, the supplied error and the suggested products', async () => {
    const tile = {
      kind: 'product' as const,
      id: 9,
      url: '/x',
      name: 'Suggested thing',
      short_description: '',
      media: [],
      prices: { min_price: 100 },
    }
    await render(props({ basket: cart({ id: null, items: [] }), suggestions: [tile] }), {
      flash: { cartError: 'This shared basket link is not valid or no longer exists.' },
    })
    expect(text()).toContain('No items in your shopping cart')
    expect(container.querySelector('[data-testid="cart-error"]')?.textContent).toBe(
      'This shared basket link is not valid or no longer exists.',
    )
    expect(container.querySelector('h2')?.textContent).toBe('Suggested products')
    expect(text()).toContain('Suggested thing')
  })

  it('shows an applied code with Remove, and standing promo errors as message - code', async () => {
    await render(
      props({
        basket: cart({
          promotionCodes: ['FREEGIFT'],
          errors: {
            promotionCodes: [
              { message: 'Promo code is not valid or applicable to your cart', code: 'FREEGIFT' },
            ],
          },
        }),
      }),
    )
    const promo = container.querySelector('[data-testid="promo-form"]')!
    expect(promo.textContent).toContain('FREEGIFT')
    expect([...promo.querySelectorAll('button')].map((b) => b.textContent)).toContain('Remove')
    expect(promo.querySelector('[data-testid="promo-error"]')?.textContent).toBe(
      'Promo code is not valid or applicable to your cart - FREEGIFT',
    )
  })

  it('uses the site’s cart name as the title and heading', async () => {
    const page = makePage('Cart', { ...props() })
    const site = { ...(page.props.site as object), cartName: 'Cart' }
    rendered = await renderPage(Cart as never, { ...page, props: { ...page.props, site } })
    container = rendered.container
    expect(container.querySelector('h1')?.textContent).toBe('Cart')
    expect(buttons()).toContain('Share Cart')
  })
})
