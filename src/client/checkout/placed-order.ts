/**
 * An order placed from this tab's basket (session storage): Back from Order Complete restores
 * the checkout page from the history, which then says the order was placed instead of offering
 * the paid basket again.
 */
const PLACED_KEY = 'checkout.placed'

/** An order placed from this basket (kept for the tab's session): what Back to the checkout shows. */
export interface PlacedOrder {
  cartId: string
  url: string
  orderNumber?: number
}

export function rememberPlaced(placed: PlacedOrder) {
  try {
    sessionStorage.setItem(PLACED_KEY, JSON.stringify(placed))
  } catch {
    // Storage unavailable: Back shows the page as it was.
  }
}

export function placedOrder(): PlacedOrder | null {
  try {
    const raw = sessionStorage.getItem(PLACED_KEY)
    return raw ? (JSON.parse(raw) as PlacedOrder) : null
  } catch {
    return null
  }
}
