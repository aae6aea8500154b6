/**
 * Share the basket by e-mail (spec §4 "Share and save dialogs"): closed, open, sending, then sent
 * or error. Closing clears the form and its messages. Name: letters, space, apostrophe, hyphen;
 * e-mails: several, separated by commas.
 */
import { useId, useRef, useState } from 'react'
import { useFocusFirstInvalid } from '../../lib/focus-invalid.ts'
import { CART_TEXT, validateShare } from '../../../shared/cart.ts'
import { cartCall, CartApiError } from '../../lib/cart-api.ts'
import { fieldClass, Modal, primaryButton, Spinner } from './Modal.tsx'

type Status = 'open' | 'sending' | 'sent' | 'error'

export function ShareDialog({
  open,
  cartId,
  onClose,
}: {
  open: boolean
  cartId: string
  onClose: () => void
}) {
  const [name, setName] = useState('')
  const [emails, setEmails] = useState('')
  const [status, setStatus] = useState<Status>('open')
  const [errors, setErrors] = useState<Record<string, string[]>>({})
  const id = useId()
  const form = useRef<HTMLFormElement>(null)
  // A refused send: the focus goes to the first field in error (its message is its description).
  useFocusFirstInvalid(form, Object.keys(errors).length ? errors : null)

  const close = () => {
    setName('')
    setEmails('')
    setStatus('open')
    setErrors({})
    onClose()
  }

  const submit = async (e: React.FormEvent) => {
    e.preventDefault()
    const problems = validateShare({ name, emails })
    if (Object.keys(problems).length) {
      setErrors(problems)
      return
    }
    setErrors({})
    setStatus('sending')
    try {
      await cartCall('POST', '/cart/share', { name: name.trim(), emails: emails.trim(), cart_id: cartId })
      setStatus('sent')
    } catch (err) {
      if (err instanceof CartApiError && err.status === 422) setErrors(err.errors)
      setStatus('error')
    }
  }

  const error = (field: string) =>
    errors[field]?.[0] ? (
      <p id={`${id}-${field}-error`} className="mt-1 text-sm text-red-700">
        {errors[field][0]}
      </p>
    ) : null

  return (
    <Modal open={open} title="Share your basket" onClose={close} testId="share-dialog">
      <form ref={form} onSubmit={submit} noValidate>
        <label htmlFor={`${id}-name`} className="block font-medium">
          Your name
        </label>
        <input
          id={`${id}-name`}
          value={name}
          onChange={(e) => setName(e.target.value)}
          autoComplete="name"
          aria-invalid={errors.name ? true : undefined}
          aria-describedby={errors.name ? `${id}-name-error` : undefined}
          className={fieldClass}
        />
        {error('name')}
        <label htmlFor={`${id}-emails`} className="mt-4 block font-medium">
          E-mail addresses
        </label>
        <input
          id={`${id}-emails`}
          value={emails}
          onChange={(e) => setEmails(e.target.value)}
          type="text"
          inputMode="email"
          autoComplete="off"
          aria-invalid={errors.emails ? true : undefined}
          aria-describedby={`${id}-emails-hint${errors.emails ? ` ${id}-emails-error` : ''}`}
          className={fieldClass}
        />
        <p id={`${id}-emails-hint`} className="mt-1 text-sm text-gray-700">
          Separate several addresses with commas.
        </p>
        {error('emails')}
        <div className="mt-6 flex items-center gap-4">
          <button type="submit" className={primaryButton} disabled={status === 'sending'}>
            {status === 'sending' ? <Spinner /> : null}
            {status === 'sending' ? CART_TEXT.sending : 'Send'}
          </button>
          <p role="status" className="font-medium">
            {status === 'sent' ? <span className="text-green-800">{CART_TEXT.sent}</span> : null}
            {status === 'error' ? <span className="text-red-700">{CART_TEXT.shareError}</span> : null}
          </p>
        </div>
      </form>
    </Modal>
  )
}
