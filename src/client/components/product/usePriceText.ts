/**
 * A price as text, following the visitor's VAT choice like <Price>. For the few places where a
 * price has to be text rather than an element (placeholders inside description HTML).
 */
import { useCallback } from 'react'
import { formatMoney } from '../../../shared/money.ts'
import { withVat } from '../../../shared/vat.ts'
import { useShared } from '../../lib/shared-props.ts'
import { useVat } from '../../lib/vat.tsx'

export function usePriceText(): (amount: number, vatRate?: number) => string {
  const { incVat, tax } = useVat()
  const currency = useShared().site?.currency ?? 'GBP'
  return useCallback(
    (amount: number, vatRate?: number) =>
      formatMoney(incVat ? withVat(amount, vatRate ?? tax.rate) : amount, currency),
    [incVat, currency, tax.rate],
  )
}
