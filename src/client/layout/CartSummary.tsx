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
    <Link href="/cart" className="hdr-cart" data-testid="cart-summary">
      <span className="hdr-cart-icon">
        <CartIcon />
        <span aria-hidden="true" className="hdr-badge">
          {count}
        </span>
      </span>
      <span className="sr-only">
        {cartName || 'Basket'}: {count} {count === 1 ? 'item' : 'items'}, total
      </span>
      <span className="hdr-total">{total}</span>
    </Link>
  )
}
