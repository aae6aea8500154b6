/**
 * Adding to the basket from the product page (price grids and the builder): POST /cart/add, then
 * the add-to-cart analytics events, the header summary update, and a visit to the basket page.
 */
import { router } from '@inertiajs/react'
import type { Cart } from '../../shared/cart.ts'
import type { SiteProps } from '../../shared/page-props.ts'
import type { BasketAddItem } from '../../shared/product.ts'
import { addToCartEvents } from './analytics.ts'
import { cartCall, messagesOf, publishCart } from './cart-api.ts'

export const ADD_TO_BASKET_URL = '/cart/add'
export const ADD_TO_BASKET_ERROR = 'Something went wrong when trying to add item(s) to basket.'

export interface AddToBasketHooks {
  /** The layout's error box (useMessages().pushError) */
  pushError: (message: string) => void
  onFinish?: () => void
  /** The site (currency, brand, ad pixel setting) for the analytics events */
  site?: SiteProps | null
  /** Go to the basket page after adding (default true) */
  visitBasket?: boolean
  /**
   * Send the items as the price grid's list of entries (spec §7 'Add from price grid'), one
   * `{ items }` entry per item, rather than as one `{ items }` object.
   */
  asEntries?: boolean
}

function failure(serverMessage: string | null | undefined): string {
  const detail = (serverMessage ?? '').trim()
  return detail ? `${ADD_TO_BASKET_ERROR} ${detail}` : ADD_TO_BASKET_ERROR
}

/**
 * Adds `items`. Resolves true when the server accepted them; on failure the error box shows the
 * spec's message followed by the server's.
 */
export async function addToBasket(items: BasketAddItem[], hooks: AddToBasketHooks): Promise<boolean> {
  if (items.length === 0) {
    hooks.onFinish?.()
    return false
  }
  try {
    const body = hooks.asEntries ? items.map((item) => ({ items: [item] })) : { items }
    const cart = await cartCall<Cart>('POST', ADD_TO_BASKET_URL, body)
    publishCart(cart)
    addToCartEvents(items, cart, hooks.site ?? null)
    if (hooks.visitBasket !== false) router.visit('/cart')
    return true
  } catch (err) {
    const fields = messagesOf(err)
    hooks.pushError(failure(fields.length ? fields.join(' ') : err instanceof Error ? err.message : null))
    return false
  } finally {
    hooks.onFinish?.()
  }
}
