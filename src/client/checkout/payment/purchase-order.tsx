/** Purchase order (§3 PONumber, §5): an optional number, by default the contact's names joined. */
import { useEffect, useState } from 'react'
import { defaultPoNumber, PO_NUMBER_MAX } from '../../../shared/checkout-rules.ts'
import type { PaymentMethodEntry, PaymentMethodProps } from './types.ts'

function PurchaseOrder({ form, setPaymentDetails }: PaymentMethodProps) {
  const [poNumber, setPoNumber] = useState(() => defaultPoNumber(form.contact))
  useEffect(() => setPaymentDetails({ PONumber: poNumber }), [poNumber, setPaymentDetails])
  return (
    <div className="mt-3">
      <label htmlFor="po-number" className="block text-sm font-medium">
        Purchase Order Number
      </label>
      <input
        id="po-number"
        className="mt-1 block w-full rounded-md border border-gray-300 px-3 py-2"
        value={poNumber}
        maxLength={PO_NUMBER_MAX}
        onChange={(e) => setPoNumber(e.target.value)}
      />
    </div>
  )
}

export const purchaseOrderEntry: PaymentMethodEntry = {
  Component: PurchaseOrder,
  replacesCompleteButton: false,
}
