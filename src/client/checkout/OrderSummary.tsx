/**
 * The order summary on step 3 (§2): Contact Information, Delivery Address, Billing Address (only
 * when different) and Delivery Notes, each with an Edit link; an empty section shows
 * 'No {title} Provided'. Filled parts only, joined once (no stray commas), countries by name.
 * Collapsible, open by default when the window is wider than 768.
 */
import { useState } from 'react'
import { CHECKOUT } from '../../shared/checkout.ts'
import { addressLine, contactLine } from './checkout-data.ts'
import type { CheckoutForm } from './use-checkout-form.ts'

export function OrderSummary({
  form,
  countries,
  onEdit,
}: {
  form: CheckoutForm
  countries: { code: string; name: string }[]
  onEdit: (step: number) => void
}) {
  const [open, setOpen] = useState(() =>
    typeof window !== 'undefined' ? window.innerWidth > CHECKOUT.summaryOpenAbove : true,
  )
  const section = (title: string, line: string, step: number) => (
    <div className="mt-3">
      <div className="flex items-baseline justify-between">
        <h4 className="font-semibold">{title}</h4>
        <button
          type="button"
          className="text-sm underline"
          onClick={() => onEdit(step)}
          aria-label={`Edit ${title}`}
        >
          Edit
        </button>
      </div>
      {line ? (
        <p className="text-sm text-gray-800">{line}</p>
      ) : (
        <p className="text-sm text-gray-700">No {title} Provided</p>
      )}
    </div>
  )
  return (
    <section
      aria-labelledby="order-summary-heading"
      className="mt-4 rounded border p-3"
      data-testid="order-summary"
    >
      <h3 id="order-summary-heading" className="font-semibold">
        <button type="button" aria-expanded={open} onClick={() => setOpen(!open)}>
          Order Summary
        </button>
      </h3>
      {open ? (
        <div>
          {section('Contact Information', contactLine(form.contact), 2)}
          {section('Delivery Address', addressLine(form.shipping, countries), 2)}
          {form.showingBilling ? section('Billing Address', addressLine(form.billing, countries), 2) : null}
          {section('Delivery Notes', form.notes.trim(), 3)}
        </div>
      ) : null}
    </section>
  )
}
