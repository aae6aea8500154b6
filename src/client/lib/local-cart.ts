/**
 * The cart and customer kept in the browser for the session (spec §3 "Stored in the browser",
 * §4, §7): every page records the cart in session storage; when none is stored the page asks
 * `POST /cart/init` for it; logging out forgets the local cart and customer. The server's basket
 * stays the source of truth: this copy only mirrors it.
 */
import { router } from '@inertiajs/react'
import { useEffect } from 'react'
import type { Cart } from '../../shared/cart.ts'
import type { CartSummary, CustomerSummary } from '../../shared/page-props.ts'
import { CART_STORAGE_KEY, cartCall, storeCart } from './cart-api.ts'

export const CUSTOMER_STORAGE_KEY = 'customer'

interface StoredCart extends CartSummary {
  id: string | null
}

function read<T>(key: string): T | null {
  try {
    const raw = window.sessionStorage.getItem(key)
    return raw ? (JSON.parse(raw) as T) : null
  } catch {
    return null
  }
}

function write(key: string, value: unknown): void {
  try {
    if (value === null) window.sessionStorage.removeItem(key)
    else window.sessionStorage.setItem(key, JSON.stringify(value))
  } catch {
    // Storage unavailable (private mode, quota): nothing depends on it.
  }
}

/** Logout (spec §4, §7): the customer and the cart are forgotten locally. */
export function forgetLocalSession(): void {
  write(CART_STORAGE_KEY, null)
  write(CUSTOMER_STORAGE_KEY, null)
}

let initialising: Promise<void> | null = null

/** No cart stored: initialise it from the server (`POST /cart/init`) and store it. */
export function initLocalCart(): Promise<void> {
  if (read<StoredCart>(CART_STORAGE_KEY)) return Promise.resolve()
  initialising ??= cartCall<Cart>('POST', '/cart/init')
    .then((cart) => storeCart(cart))
    .catch(() => {
      // Offline or refused: the next page tries again.
    })
    .finally(() => {
      initialising = null
    })
  return initialising
}

/**
 * Keeps the stored cart and customer in step with the page: the page's cart summary is recorded
 * over a stored cart; with none stored, the cart is initialised. A page without the customer
 * that a stored one names means they logged out (in any tab or way): both are forgotten.
 */
export function useLocalCart(
  summary: CartSummary,
  customer: CustomerSummary | null,
  /** False on pages without a site (Site not configured): no basket there */
  enabled = true,
): void {
  useEffect(() => {
    if (!enabled) return
    const storedCustomer = read<CustomerSummary>(CUSTOMER_STORAGE_KEY)
    if (storedCustomer && (!customer || storedCustomer.id !== customer.id)) forgetLocalSession()
    if (customer) write(CUSTOMER_STORAGE_KEY, customer)
    const stored = read<StoredCart>(CART_STORAGE_KEY)
    if (stored) write(CART_STORAGE_KEY, { ...stored, count: summary.count, total: summary.total })
    else void initLocalCart()
  }, [enabled, summary.count, summary.total, customer])

  // A logout through the router (the account menu, the verification notice) forgets at once.
  useEffect(
    () =>
      router.on('before', (event) => {
        const visit = event.detail.visit
        if (visit.method === 'post' && visit.url.pathname === '/logout') forgetLocalSession()
      }),
    [],
  )
}
