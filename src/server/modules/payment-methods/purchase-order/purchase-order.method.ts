/**
 * The purchase-order payment method (spec §3, §4, §5): no provider and no money moves now; the
 * order is placed and invoiced. Registered by app.ts where the registry is built.
 */
import type { PaymentMethod } from '../../payments/payment-methods.ts'
import { defaultPoNumber, PO_NUMBER_MAX } from '../../../../shared/checkout-rules.ts'

/** Purchase order: no money moves now; the order is placed and invoiced (§3, §4, §5). */
export const purchaseOrder: PaymentMethod = {
  id: 'purchase_order',
  available: ({ site, customerId }) =>
    site.settings.purchaseOrderAccess === 'everyone' || customerId !== null,
  parseDetails(form, ctx) {
    const details = (form.paymentDetails ?? {}) as Record<string, unknown>
    const given = [form.PONumber, details.PONumber].filter((v) => v !== undefined && v !== null)
    if (given.some((v) => typeof v !== 'string'))
      return { ok: false, errors: { PONumber: ['The PO number must be text.'] } }
    const raw = (given as string[]).find((v) => v.trim()) ?? ''
    const entered = raw.trim()
    if (entered.length > PO_NUMBER_MAX)
      return { ok: false, errors: { PONumber: [`Please enter no more than ${PO_NUMBER_MAX} characters.`] } }
    // Blank is allowed: then the first and last name joined with one space (checkout.md).
    const PONumber = entered || defaultPoNumber(ctx.contact)
    return { ok: true, details: { PONumber } }
  },
  settle({ amount, details }) {
    return {
      transaction: { paymentDetails: { PONumber: details.PONumber }, amount, message: '', authCode: 'empty' },
    }
  },
}
