import { formatMoney } from '../../shared/money.ts'
import { taxWording } from '../../shared/tax.ts'
import { withVat } from '../../shared/vat.ts'
import { useShared } from '../lib/shared-props.ts'
import { useVat } from '../lib/vat.tsx'

/**
 * A price in the site's currency, with or without tax as the visitor chose (or the site's tax
 * setting says). `amount` is ex tax in minor units; `vatRate` defaults to the site's rate, 0 for
 * zero-rated goods.
 */
export function Price({
  amount,
  vatRate,
  className,
  bare,
}: {
  amount: number
  vatRate?: number
  className?: string
  /** Only the text, no span: a table cell of its own (the price grid's many cells, issue 18) */
  bare?: boolean
}) {
  const { incVat, tax } = useVat()
  const currency = useShared().site?.currency ?? 'GBP'
  const text = formatMoney(incVat ? withVat(amount, vatRate ?? tax.rate) : amount, currency)
  return bare ? <>{text}</> : <span className={className}>{text}</span>
}

/**
 * The VAT toggle for product-feed visitors, or the fixed note for everyone else; nothing on a
 * site that charges no tax.
 */
export function VatNote({ className = '' }: { className?: string }) {
  const { incVat, toggleAvailable, setIncVat, tax } = useVat()
  const wording = taxWording(tax)
  if (!wording.charged) return null
  if (!toggleAvailable) {
    return <p className={`text-sm text-gray-700 ${className}`}>{wording.note}</p>
  }
  return (
    <label className={`inline-flex items-center gap-2 text-sm ${className}`}>
      <input type="checkbox" checked={incVat} onChange={(e) => setIncVat(e.target.checked)} />
      <span>{wording.toggle}</span>
    </label>
  )
}
