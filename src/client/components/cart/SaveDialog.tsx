/**
 * Save the basket under a name (logged-in customers only): closed, open, sending, then saved or
 * error. Closing clears the form and its messages. Name: letters, digits, space, apostrophe, hyphen.
 */
import { useId, useRef, useState } from 'react'
import { useFocusFirstInvalid } from '../../lib/focus-invalid.ts'
import { CART_TEXT, validateSave } from '../../../shared/cart.ts'
import { cartCall, CartApiError } from '../../lib/cart-api.ts'
import { fieldClass, Modal, primaryButton, Spinner } from './Modal.tsx'

type Status = 'open' | 'sending' | 'sent' | 'error'

export function SaveDialog({
  open,
  onClose,
  cartName,
}: {
  open: boolean
  onClose: () => void
  cartName: string
}) {
  const [basketName, setBasketName] = useState('')
  const [status, setStatus] = useState<Status>('open')
  const [errors, setErrors] = useState<Record<string, string[]>>({})
  const id = useId()
  const form = useRef<HTMLFormElement>(null)
  // A refused send: the focus goes to the first field in error (its message is its description).
  useFocusFirstInvalid(form, Object.keys(errors).length ? errors : null)

  const close = () => {
    setBasketName('')
    setStatus('open')
    setErrors({})
    onClose()
  }

  const submit = async (e: React.FormEvent) => {
    e.preventDefault()
    const problems = validateSave({ basketName })
    if (Object.keys(problems).length) {
      setErrors(problems)
      return
    }
    setErrors({})
    setStatus('sending')
    try {
      await cartCall('POST', '/cart/save', { basketName: basketName.trim() })
      setStatus('sent')
    } catch (err) {
      if (err instanceof CartApiError && err.status === 422) setErrors(err.errors)
      setStatus('error')
    }
  }

  return (
    <Modal open={open} title={`Save your ${cartName.toLowerCase()}`} onClose={close} testId="save-dialog">
      <form ref={form} onSubmit={submit} noValidate>
        <label htmlFor={`${id}-name`} className="block font-medium">
          {cartName} name
        </label>
        <input
          id={`${id}-name`}
          value={basketName}
          onChange={(e) => setBasketName(e.target.value)}
          autoComplete="off"
          aria-invalid={errors.basketName ? true : undefined}
          aria-describedby={errors.basketName ? `${id}-error` : undefined}
          className={fieldClass}
        />
        {errors.basketName?.[0] ? (
          <p id={`${id}-error`} className="mt-1 text-sm text-red-700">
            {errors.basketName[0]}
          </p>
        ) : null}
        <div className="mt-6 flex items-center gap-4">
          <button type="submit" className={primaryButton} disabled={status === 'sending'}>
            {status === 'sending' ? <Spinner /> : null}
            {status === 'sending' ? 'Saving...' : 'Save'}
          </button>
          <p role="status" className="font-medium">
            {status === 'sent' ? <span className="text-green-800">{CART_TEXT.saved}</span> : null}
            {status === 'error' ? <span className="text-red-700">{CART_TEXT.saveError}</span> : null}
          </p>
        </div>
      </form>
    </Modal>
  )
}
