/**
 * 'Empty Basket' asks first: a modal dialog (focus starts on the safe choice, Escape or the
 * cross keeps the basket) with the site's own name for the basket. The spec gives no wording for
 * the question; ours is in the README.
 */
import { useLayoutEffect, useRef } from 'react'
import { Modal, primaryButton, secondaryButton, Spinner } from './Modal.tsx'

export function emptyBasketText(cartName: string) {
  const name = (cartName || 'Basket').toLowerCase()
  return {
    title: `Empty your ${name}?`,
    body: `This removes every item from your ${name}. It cannot be undone.`,
    confirm: `Empty ${cartName || 'Basket'}`,
    cancel: `Keep my ${name}`,
  }
}

export function EmptyBasketDialog({
  open,
  cartName,
  busy,
  onConfirm,
  onClose,
}: {
  open: boolean
  cartName: string
  busy: boolean
  onConfirm: () => void
  onClose: () => void
}) {
  const text = emptyBasketText(cartName)
  const cancelRef = useRef<HTMLButtonElement>(null)
  // After the dialog is shown (the Modal's layout effect runs first): start on the safe choice,
  // in the same task as the render (see use-modal-dialog.ts).
  useLayoutEffect(() => {
    if (open) cancelRef.current?.focus()
  }, [open])
  return (
    <Modal open={open} title={text.title} onClose={onClose} testId="empty-basket-dialog">
      <p>{text.body}</p>
      <div className="mt-6 flex flex-wrap justify-end gap-3">
        <button ref={cancelRef} type="button" className={secondaryButton} onClick={onClose}>
          {text.cancel}
        </button>
        <button type="button" className={primaryButton} onClick={onConfirm} disabled={busy}>
          {busy ? <Spinner /> : null}
          {text.confirm}
        </button>
      </div>
    </Modal>
  )
}
