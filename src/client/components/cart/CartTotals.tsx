/** The totals block: subtotal, discount, delivery, VAT and the total to pay. */
import type { Cart } from '../../../shared/cart.ts'
import { formatMoney } from '../../../shared/money.ts'
import type { Currency } from '../../../shared/page-props.ts'
import { taxWording } from '../../../shared/tax.ts'
import { useVat } from '../../lib/vat.tsx'

/** Labels follow the site's tax setting: a site that charges no tax shows no tax line. */
export function CartTotals({ cart, currency, testId }: { cart: Cart; currency: Currency; testId?: string }) {
  const money = (n: number) => formatMoney(n, currency)
  const wording = taxWording(useVat().tax)
  const rows: [string, string, string][] = [[wording.subtotal, money(cart.items_total), 'subtotal']]
  if (cart.cart_total_discount > 0) rows.push(['Discount', `−${money(cart.cart_total_discount)}`, 'discount'])
  rows.push([
    'Delivery',
    cart.cart_total_shipping === 0 && cart.items.length > 0 ? 'Free' : money(cart.cart_total_shipping),
    'delivery',
  ])
  if (wording.charged || cart.cart_total_tax > 0) rows.push([wording.line, money(cart.cart_total_tax), 'vat'])
  return (
    <dl className="space-y-1" data-testid={testId}>
      {rows.map(([label, value, key]) => (
        <div key={key} className="flex justify-between gap-4">
          <dt>{label}</dt>
          <dd className="tabular-nums" data-testid={`total-${key}`}>
            {value}
          </dd>
        </div>
      ))}
      <div className="flex justify-between gap-4 border-t border-gray-300 pt-2 text-lg font-bold">
        <dt>Total</dt>
        <dd className="tabular-nums" data-testid="total-total">
          {money(cart.cart_total_price_inc_tax)}
        </dd>
      </div>
    </dl>
  )
}
