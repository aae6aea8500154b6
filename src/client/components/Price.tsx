import { formatMoney } from '../../shared/money.ts'
import { DEFAULT_VAT_RATE, withVat } from '../../shared/vat.ts'
import { useShared } from '../lib/shared-props.ts'
import { useVat } from '../lib/vat.tsx'

/**
 * A price in the site's currency, with or without VAT as the visitor chose. `amount` is ex VAT in
 * minor units; `vatRate` 0 for zero-rated goods.
 */
export function Price({
  amount,
  vatRate = DEFAULT_VAT_RATE,
  className,
}: {
  amount: number
  vatRate?: number
  className?: string
}) {
  const { incVat } = useVat()
  const currency = useShared().site?.currency ?? 'GBP'
  return (
    <span className={className}>{formatMoney(incVat ? withVat(amount, vatRate) : amount, currency)}</span>
  )
}

/** The VAT toggle for product-feed visitors, or the fixed note for everyone else. */
export function VatNote({ className = '' }: { className?: string }) {
  const { incVat, toggleAvailable, setIncVat } = useVat()
  if (!toggleAvailable) {
    return <p className={`text-sm text-gray-700 ${className}`}>Prices exclude VAT at {DEFAULT_VAT_RATE}%</p>
  }
  return (
    <label className={`inline-flex items-center gap-2 text-sm ${className}`}>
      <input type="checkbox" checked={incVat} onChange={(e) => setIncVat(e.target.checked)} />
      <span>Show prices including VAT at {DEFAULT_VAT_RATE}%</span>
    </label>
  )
}
