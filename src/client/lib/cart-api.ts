/**
 * Calls to the basket endpoints (spec §7). They answer JSON (the cart), so they are made with the
 * page's JSON client (lib/json-client.ts), a refusal thrown as a CartApiError. After a change the
 * page's props are updated in place: the header summary (`cart`) and, on the Cart page, the
 * basket itself.
 */
import { router } from '@inertiajs/react'
import type { Cart } from '../../shared/cart.ts'
import type { CartSummary } from '../../shared/page-props.ts'
import { errorList, requestJson } from './json-client.ts'

export class CartApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly errors: Record<string, string[]> = {},
  ) {
    super(message)
  }
}

/** One JSON call; throws CartApiError with the server's message (or the status) on failure. */
export async function cartCall<T = Cart>(method: 'POST' | 'DELETE', url: string, body?: unknown): Promise<T> {
  const { ok, status, data } = await requestJson<{ message?: string; errors?: Record<string, string[]> }>(
    method,
    url,
    body,
  )
  if (!ok) throw new CartApiError(data?.message ?? `(${status})`, status, data?.errors ?? {})
  return data as T
}

export function summaryOf(cart: Cart): CartSummary {
  return { count: cart.cart_total_items, total: cart.cart_total_price_inc_tax }
}

export const CART_STORAGE_KEY = 'cart'

/** Keeps the cart in session storage (spec §3 "Stored in the browser"). */
export function storeCart(cart: Cart): void {
  try {
    window.sessionStorage.setItem(CART_STORAGE_KEY, JSON.stringify({ id: cart.id, ...summaryOf(cart) }))
  } catch {
    // Storage unavailable: nothing depends on it.
  }
}

/** The header summary (and, when `basket` is given, the Cart page's basket) follow the new cart. */
export function publishCart(cart: Cart, options: { basket?: boolean } = {}): void {
  storeCart(cart)
  // One client-side replace for both props: two in a row could each start from the old page.
  router.replace({
    preserveScroll: true,
    preserveState: true,
    props: (props: Record<string, unknown>) => ({
      ...props,
      cart: summaryOf(cart),
      ...(options.basket ? { basket: cart } : {}),
    }),
  })
}

/** Field messages of a 422 as one list. */
export function messagesOf(error: unknown): string[] {
  return error instanceof CartApiError ? errorList(error) : []
}
