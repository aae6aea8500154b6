/**
 * Step 3 (§2): delivery options and notes (35 characters, with the count), the promotional code,
 * VAT relief, the order summary, and the payment box with Complete Order. After Apply or Remove
 * of a promotional code the button pressed is gone: the focus goes to what replaced it.
 */
import { useEffect, useRef } from 'react'
import type { Cart } from '../../shared/cart.ts'
import { CHECKOUT, CHECKOUT_TEXT } from '../../shared/checkout.ts'
import { primaryButton } from '../components/cart/Modal.tsx'
import { PromoForm } from '../components/cart/PromoForm.tsx'
import { VatRelief } from '../components/checkout/VatRelief.tsx'
import { publishCart } from '../lib/cart-api.ts'
import { OrderSummary } from './OrderSummary.tsx'
import type { CheckoutForm } from './use-checkout-form.ts'

export function DeliveryStep({
  basket,
  form,
  countries,
  money,
  siteName,
  testMode,
  loading,
  busy,
  provider,
  walletText,
  methodElement,
  showCompleteButton,
  canComplete,
  onDelivery,
  onEdit,
  onComplete,
  fieldError,
}: {
  basket: Cart
  form: CheckoutForm
  countries: { code: string; name: string }[]
  money: (minor: number) => string
  siteName: string
  testMode: boolean
  loading: boolean
  /** Loading or submitting: nothing may be sent */
  busy: boolean
  provider: string
  /** Wallets: what the payment box says instead of a method's component */
  walletText: string | null
  methodElement: React.ReactNode
  showCompleteButton: boolean
  canComplete: boolean
  onDelivery: (despatchType: string) => void
  onEdit: (step: number) => void
  onComplete: () => void
  fieldError: (key: string, id: string) => React.ReactNode
}) {
  const selectedRate = basket.shippingRates.find((r) => r.selected) ?? null
  const promo = useRef<HTMLDivElement>(null)
  const codes = basket.promotionCodes.join('|')
  const firstCodes = useRef(codes)
  useEffect(() => {
    if (codes === firstCodes.current) return
    firstCodes.current = codes
    const active = document.activeElement
    // The Apply (or Remove) button left with the change: the focus goes to its replacement.
    if (active && active !== document.body) return
    const target = promo.current?.querySelector<HTMLElement>('button, input')
    target?.focus()
  }, [codes])

  return (
    <>
      <fieldset>
        <legend className="text-lg font-semibold">Delivery Options</legend>
        {basket.shippingRates.map((r) => (
          <label key={r.id} className="flex items-center gap-2 py-1">
            <input
              type="radio"
              name="delivery_option"
              checked={r.selected}
              disabled={loading}
              onChange={() => onDelivery(r.despatch_type)}
            />
            {r.name} - {money(r.price)}
          </label>
        ))}
      </fieldset>
      <div className="mt-4">
        <label htmlFor="notes" className="block text-sm font-medium">
          Delivery Notes
        </label>
        <textarea
          id="notes"
          className="mt-1 block w-full rounded-md border border-gray-300 px-3 py-2"
          maxLength={CHECKOUT.notesMax}
          value={form.notes}
          onChange={(e) => {
            form.clearServer('Notes')
            form.setNotes(e.target.value.slice(0, CHECKOUT.notesMax))
          }}
          aria-describedby={form.serverErrors.Notes ? 'notes-count notes-error' : 'notes-count'}
        />
        <p id="notes-count" className="text-sm text-gray-700">
          {CHECKOUT.notesMax - form.notes.length} characters remaining
        </p>
        {fieldError('Notes', 'notes')}
      </div>
      <div className="mt-4" ref={promo}>
        <PromoForm cart={basket} insideForm />
      </div>
      <VatRelief
        basket={basket}
        delivery={{
          despatchType: selectedRate?.despatch_type ?? '',
          country: form.shipping.country ?? '',
          postcode: form.shipping.postcode ?? '',
        }}
        onCart={(cart) => publishCart(cart, { basket: true })}
        disabled={busy}
      />

      <OrderSummary form={form} countries={countries} onEdit={onEdit} />

      <section
        aria-labelledby="payment-box-heading"
        className="mt-4 rounded border border-green-700 p-3"
        data-testid="payment-box"
      >
        <h3 id="payment-box-heading" className="font-semibold">
          Payment
        </h3>
        <p className="text-sm">
          Buying from {siteName} is safe and secure. Your order is sent over an encrypted connection and we
          never store card details.
        </p>
        <p className="mt-1 text-xs text-gray-700">Secured by TLS encryption</p>
        <p className="mt-2 text-sm">
          We will send you order updates by e-mail. We may also e-mail you about offers; you can opt out at
          any time, including on the next page.
        </p>
        <p className="mt-2 font-semibold">Total to pay: {money(basket.cart_total_price_inc_tax)}</p>
        {testMode ? (
          <p className="mt-2 rounded border border-amber-600 bg-amber-50 p-2 text-sm" data-testid="test-mode">
            <strong>Test mode</strong>: {CHECKOUT_TEXT.testMode}
          </p>
        ) : null}
        {!form.formValid ? (
          <p className="mt-2 text-sm text-red-700" role="alert" id="complete-order-help">
            {CHECKOUT_TEXT.addressInvalid}
          </p>
        ) : null}
        {walletText !== null ? (
          <p className="mt-2 text-sm" data-testid="wallet-payment">
            {walletText}
          </p>
        ) : (
          methodElement
        )}
        {provider === 'purchase_order' ? fieldError('PONumber', 'po-number') : null}
        {showCompleteButton ? (
          <button
            type="button"
            className={`${primaryButton} mt-3 w-full`}
            disabled={!canComplete}
            onClick={onComplete}
            data-testid="complete-order"
          >
            Complete Order
          </button>
        ) : null}
      </section>
    </>
  )
}
