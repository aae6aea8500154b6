/** The checkout's side column (§2, hidden on small screens): the contact's name and the basket. */
import type { Cart } from '../../shared/cart.ts'
import { formatMoney } from '../../shared/money.ts'
import { CartTotals } from '../components/cart/CartTotals.tsx'
import type { Values } from './fields.tsx'

export function CheckoutAside({
  basket,
  contact,
  currency,
  cartName,
}: {
  basket: Cart
  contact: Values
  currency: 'GBP' | 'USD'
  cartName: string | undefined
}) {
  const name = [contact.firstName, contact.lastName]
    .map((v) => (v ?? '').trim())
    .filter(Boolean)
    .join(' ')
  return (
    <aside
      className="hidden self-start rounded-lg border border-gray-200 bg-gray-50 p-4 lg:block"
      aria-label="Your order"
    >
      <h2 className="text-lg font-semibold">Contact</h2>
      <p className="text-sm">{name || 'No Contact Information Provided'}</p>
      <h2 className="mt-4 text-lg font-semibold">Your {cartName ?? 'Basket'}</h2>
      <ul className="mt-2 space-y-1 text-sm">
        {basket.items.map((i) => (
          <li key={i.id}>
            {i.quantity} x {i.product.name} - {formatMoney(i.line_total, currency)}
          </li>
        ))}
      </ul>
      <div className="mt-3">
        <CartTotals cart={basket} currency={currency} testId="checkout-totals" />
      </div>
    </aside>
  )
}
