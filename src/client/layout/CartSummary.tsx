/** Header basket link: item-count badge and total (zero until a basket exists). */
import { Link } from '@inertiajs/react'
import type { CartSummary as CartSummaryProps, Currency } from '../../shared/page-props.ts'
import { formatMoney } from '../../shared/money.ts'
import { CartIcon } from './icons.tsx'

export function CartSummary({
  cart,
  currency,
  cartName,
}: {
  cart: CartSummaryProps
  currency: Currency
  cartName: string
}) {
  const count = Math.max(0, cart.count || 0)
  const total = formatMoney(cart.total || 0, currency)
  return (
    <Link
      href="/cart"
      className="flex items-center gap-3 rounded px-2 py-1.5 hover:bg-black/5"
      data-testid="cart-summary"
    >
      <span className="relative text-2xl">
        <CartIcon />
        <span
          aria-hidden="true"
          className="absolute -right-2.5 -top-2 flex h-5 min-w-5 items-center justify-center rounded-full bg-badge px-1 text-xs leading-none font-bold text-on-badge"
        >
          {count}
        </span>
      </span>
      <span className="sr-only">
        {cartName || 'Basket'}: {count} {count === 1 ? 'item' : 'items'}, total
      </span>
      <span className="text-sm font-semibold tabular-nums">{total}</span>
    </Link>
  )
}
