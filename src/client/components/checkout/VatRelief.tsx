/**
 * The VAT relief declaration at checkout step 3 (spec §3 show_vat_relief / vatApplied, §7
 * `POST /cart/update-cart` with DeliveryOption, country, postcode and vatRelief, §9 limits). Shown
 * only when the basket holds goods that qualify on a site that charges VAT. The server re-prices:
 * the basket it answers (zero-rated eligible lines, or the field errors) is what the page shows.
 */
import { useId, useState } from 'react'
import type { Cart } from '../../../shared/cart.ts'
import { VAT_RELIEF, VAT_RELIEF_TEXT } from '../../../shared/vat-relief.ts'
import { cartCall, CartApiError } from '../../lib/cart-api.ts'
import { primaryButton, secondaryButton } from '../cart/Modal.tsx'

export function VatRelief({
  basket,
  delivery,
  onCart,
  disabled,
}: {
  basket: Cart
  /** The form's delivery: despatch type, shipping country and postcode */
  delivery: { despatchType: string; country: string; postcode: string }
  onCart: (cart: Cart) => void
  disabled?: boolean
}) {
  const id = useId()
  const applied = basket.ApplyVATRelief
  const [claiming, setClaiming] = useState(applied)
  const [name, setName] = useState(basket.vat_relief_declaration?.name ?? '')
  const [condition, setCondition] = useState(basket.vat_relief_declaration?.condition ?? '')
  const [confirmed, setConfirmed] = useState(applied)
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [busy, setBusy] = useState(false)

  if (!basket.show_vat_relief) return null

  const send = async (vatRelief: unknown) => {
    setBusy(true)
    setErrors({})
    try {
      const cart = await cartCall('POST', '/cart/update-cart', {
        DeliveryOption: delivery.despatchType || undefined,
        ...(delivery.country ? { country: delivery.country, postcode: delivery.postcode } : {}),
        vatRelief,
      })
      onCart(cart)
      return true
    } catch (err) {
      const fieldErrors = err instanceof CartApiError ? err.errors : {}
      const mapped: Record<string, string> = {}
      for (const [k, v] of Object.entries(fieldErrors))
        mapped[k.replace(/^vatRelief\.?/, '') || 'form'] = v[0] ?? ''
      if (!Object.keys(mapped).length)
        mapped.form = err instanceof Error ? err.message : VAT_RELIEF_TEXT.declarationRequired
      setErrors(mapped)
      // The first field in error takes the focus, its message under it.
      const first = ['name', 'condition', 'confirmed'].find((k) => mapped[k])
      if (first) setTimeout(() => document.getElementById(`${id}-${first}`)?.focus(), 0)
      return false
    } finally {
      setBusy(false)
    }
  }

  const apply = () => {
    // The browser checks first; the server decides.
    const local: Record<string, string> = {}
    if (!name.trim()) local.name = VAT_RELIEF_TEXT.nameRequired
    if (!condition.trim()) local.condition = VAT_RELIEF_TEXT.conditionRequired
    if (!confirmed) local.confirmed = VAT_RELIEF_TEXT.confirmRequired
    if (Object.keys(local).length) {
      setErrors(local)
      const first = ['name', 'condition', 'confirmed'].find((k) => local[k])
      document.getElementById(`${id}-${first}`)?.focus()
      return
    }
    void send({ name, condition, confirmed: true })
  }

  const withdraw = async () => {
    if (await send(false)) {
      setClaiming(false)
      setConfirmed(false)
    }
  }

  const described = (field: string) => (errors[field] ? `${id}-${field}-error` : undefined)
  const error = (field: string) =>
    errors[field] ? (
      <p
        id={`${id}-${field}-error`}
        className="mt-1 text-sm text-red-700"
        data-testid={`vat-relief-error-${field}`}
      >
        {errors[field]}
      </p>
    ) : null

  return (
    <fieldset className="mt-4 rounded border border-gray-300 p-3" data-testid="vat-relief">
      <legend className="px-1 text-lg font-semibold">{VAT_RELIEF_TEXT.heading}</legend>
      <p className="text-sm">{VAT_RELIEF_TEXT.intro}</p>
      <p className="mt-1 text-sm">{VAT_RELIEF_TEXT.limits}</p>
      {applied ? (
        <div className="mt-2">
          <p role="status" className="text-sm font-medium text-green-800">
            {VAT_RELIEF_TEXT.applied}
          </p>
          <p className="text-sm">
            {basket.vat_relief_declaration?.name}: {basket.vat_relief_declaration?.condition}
          </p>
          <button
            type="button"
            className={`${secondaryButton} mt-2`}
            disabled={busy || disabled}
            onClick={() => void withdraw()}
          >
            {VAT_RELIEF_TEXT.remove}
          </button>
        </div>
      ) : (
        <>
          <label className="mt-2 flex items-center gap-2">
            <input type="checkbox" checked={claiming} onChange={(e) => setClaiming(e.target.checked)} />
            {VAT_RELIEF_TEXT.claim}
          </label>
          {claiming ? (
            <div className="mt-2">
              <label htmlFor={`${id}-name`} className="block text-sm font-medium">
                {VAT_RELIEF_TEXT.nameLabel}
                <span aria-hidden="true" className="text-red-700">
                  {' '}
                  *
                </span>
              </label>
              <input
                id={`${id}-name`}
                className="mt-1 block w-full rounded-md border border-gray-300 px-3 py-2"
                value={name}
                maxLength={VAT_RELIEF.nameMax}
                aria-required
                aria-invalid={errors.name ? true : undefined}
                aria-describedby={described('name')}
                onChange={(e) => setName(e.target.value)}
              />
              {error('name')}
              <label htmlFor={`${id}-condition`} className="mt-2 block text-sm font-medium">
                {VAT_RELIEF_TEXT.conditionLabel}
                <span aria-hidden="true" className="text-red-700">
                  {' '}
                  *
                </span>
              </label>
              <input
                id={`${id}-condition`}
                className="mt-1 block w-full rounded-md border border-gray-300 px-3 py-2"
                value={condition}
                maxLength={VAT_RELIEF.conditionMax}
                aria-required
                aria-invalid={errors.condition ? true : undefined}
                aria-describedby={described('condition')}
                onChange={(e) => setCondition(e.target.value)}
              />
              {error('condition')}
              <p className="mt-2 text-sm" id={`${id}-statement`}>
                {VAT_RELIEF_TEXT.declaration(name.trim())}
              </p>
              <label className="mt-1 flex items-center gap-2">
                <input
                  id={`${id}-confirmed`}
                  type="checkbox"
                  checked={confirmed}
                  aria-invalid={errors.confirmed ? true : undefined}
                  aria-describedby={[`${id}-statement`, described('confirmed')].filter(Boolean).join(' ')}
                  onChange={(e) => setConfirmed(e.target.checked)}
                />
                {VAT_RELIEF_TEXT.confirm}
              </label>
              {error('confirmed')}
              {errors.form ? (
                <p className="mt-2 text-sm text-red-700" role="alert" data-testid="vat-relief-error">
                  {errors.form}
                </p>
              ) : null}
              <button
                type="button"
                className={`${primaryButton} mt-3`}
                disabled={busy || disabled}
                onClick={apply}
              >
                {VAT_RELIEF_TEXT.apply}
              </button>
            </div>
          ) : null}
        </>
      )}
    </fieldset>
  )
}
