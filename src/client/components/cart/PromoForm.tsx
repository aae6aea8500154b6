/**
 * The promotional code form (spec §4): not applied, applying, applied (with Remove), or error.
 * More than 50 characters is refused before sending; a blank code is ignored. Applying sends
 * `promotionCodes: [code]` and merges the answered cart into the page; removing sends an empty list.
 * A basket holds MAX_PROMOTION_CODES (one) code: while it holds one, the form offers only Remove.
 * Inside another form (the checkout's) it is a group, not a form: HTML does not allow nested forms
 * (the W3C checker refuses them); Enter in its field still applies the code.
 */
import { useId, useState } from 'react'
import {
  CART_TEXT,
  MAX_PROMOTION_CODES,
  normalisePromotionCode,
  PROMO_CODE_MAX,
  type Cart,
} from '../../../shared/cart.ts'
import { cartCall, publishCart } from '../../lib/cart-api.ts'
import { secondaryButton, Spinner } from './Modal.tsx'

export function PromoForm({ cart, insideForm = false }: { cart: Cart; insideForm?: boolean }) {
  const [code, setCode] = useState('')
  const [busy, setBusy] = useState<'applying' | 'removing' | null>(null)
  const [messages, setMessages] = useState<string[]>([])
  const id = useId()
  const applied = cart.promotionCodes

  const apply = async (e: React.SyntheticEvent) => {
    e.preventDefault()
    const entered = code.trim()
    if (!entered) return
    if (code.length > PROMO_CODE_MAX) {
      setMessages([CART_TEXT.promoTooLong])
      return
    }
    setBusy('applying')
    setMessages([])
    try {
      const next = await cartCall<Cart>('POST', '/cart/update-cart', { promotionCodes: [code] })
      publishCart(next, { basket: true })
      const errors = next.errors.promotionCodes
      if (errors.length) setMessages(errors.map((err) => `${err.message} - ${err.code}`))
      else if (!next.promotionCodes.includes(normalisePromotionCode(entered)))
        setMessages([CART_TEXT.promoNotApplied])
      else setCode('')
    } catch {
      setMessages([CART_TEXT.promoFailed])
    } finally {
      setBusy(null)
    }
  }

  const remove = async () => {
    setBusy('removing')
    setMessages([])
    try {
      const next = await cartCall<Cart>('POST', '/cart/add', { promotionCodes: [] })
      publishCart(next, { basket: true })
    } catch {
      setMessages([CART_TEXT.promoRemoveFailed])
    } finally {
      setBusy(null)
    }
  }

  // Codes that no longer apply (minimum spend, dates) are reported with the cart.
  const standing = cart.errors.promotionCodes
    .filter((e) => applied.includes(e.code))
    .map((e) => `${e.message} - ${e.code}`)

  return (
    <section aria-labelledby={`${id}-heading`} className="mt-6" data-testid="promo-form">
      <h2 id={`${id}-heading`} className="text-lg font-semibold">
        Promotional code
      </h2>
      {applied.length >= MAX_PROMOTION_CODES ? (
        <div className="mt-2 flex flex-wrap items-center gap-3" data-state="applied">
          {applied.map((c) => (
            <span key={c} className="rounded bg-green-100 px-2 py-1 font-mono font-semibold text-green-900">
              {c}
            </span>
          ))}
          <button type="button" className={secondaryButton} onClick={remove} disabled={busy !== null}>
            {busy === 'removing' ? <Spinner /> : null}
            Remove
          </button>
        </div>
      ) : (
        <Fields
          insideForm={insideForm}
          onApply={apply}
          className="mt-2 flex flex-wrap items-start gap-2"
          label="Promotional code"
        >
          <div className="min-w-0 flex-1">
            <label htmlFor={`${id}-code`} className="sr-only">
              Promotional code
            </label>
            <input
              id={`${id}-code`}
              value={code}
              onChange={(e) => setCode(e.target.value)}
              placeholder="Enter code"
              autoComplete="off"
              onKeyDown={
                insideForm
                  ? (e) => {
                      if (e.key === 'Enter') void apply(e)
                    }
                  : undefined
              }
              aria-invalid={messages.length ? true : undefined}
              aria-describedby={messages.length ? `${id}-error` : undefined}
              className="block w-full rounded border border-gray-400 px-3 py-2"
            />
          </div>
          <button
            type={insideForm ? 'button' : 'submit'}
            onClick={insideForm ? (e) => void apply(e) : undefined}
            className={secondaryButton}
            disabled={busy !== null}
          >
            {busy === 'applying' ? <Spinner /> : null}
            {busy === 'applying' ? 'Applying...' : 'Apply'}
          </button>
        </Fields>
      )}
      {messages.length || standing.length ? (
        // A box with the alert role around a plain list (a <ul role="alert"> is no list: axe listitem).
        <div id={`${id}-error`} role="alert" className="mt-2 text-sm text-red-700" data-testid="promo-error">
          <ul>
            {[...messages, ...standing].map((m) => (
              <li key={m}>{m}</li>
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  )
}

/** A form of its own, or a labelled group inside another form. */
function Fields({
  insideForm,
  onApply,
  className,
  label,
  children,
}: {
  insideForm: boolean
  onApply: (e: React.FormEvent) => void
  className: string
  label: string
  children: React.ReactNode
}) {
  if (insideForm)
    return (
      <div role="group" aria-label={label} className={className}>
        {children}
      </div>
    )
  return (
    <form onSubmit={onApply} className={className} noValidate>
      {children}
    </form>
  )
}
