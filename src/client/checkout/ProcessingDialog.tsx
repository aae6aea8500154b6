/**
 * The blocking 'Please wait, we are currently processing your order.' dialog (§2) while the order
 * is placed: modal, with no close button; Escape does nothing (its keydown and the dialog's cancel
 * are refused, and a close that still happens reopens it). The text is the dialog's accessible
 * description, so a screen reader says it when the dialog takes the focus.
 */
import { useEffect, useId, useLayoutEffect, useRef } from 'react'
import { CHECKOUT_TEXT } from '../../shared/checkout.ts'
import { useModalDialog } from '../lib/use-modal-dialog.ts'
import { Spinner } from '../components/cart/Modal.tsx'

export function ProcessingDialog({ open }: { open: boolean }) {
  // Declared before the dialog's own layout effect: set when it closes the dialog on purpose.
  const wanted = useRef(open)
  useLayoutEffect(() => {
    wanted.current = open
  }, [open])
  const ref = useModalDialog(open)
  const headingId = useId()
  const textId = useId()

  useEffect(() => {
    const dialog = ref.current
    if (!dialog || !open) return
    const refuse = (e: Event) => e.preventDefault()
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') e.preventDefault()
    }
    // A browser that closes it anyway (a second Escape without user activation): open it again.
    const reopen = () => {
      if (wanted.current && !dialog.open && typeof dialog.showModal === 'function') dialog.showModal()
    }
    dialog.addEventListener('cancel', refuse)
    dialog.addEventListener('keydown', onKey)
    dialog.addEventListener('close', reopen)
    return () => {
      dialog.removeEventListener('cancel', refuse)
      dialog.removeEventListener('keydown', onKey)
      dialog.removeEventListener('close', reopen)
    }
  }, [open, ref])

  return (
    <dialog
      ref={ref}
      aria-labelledby={headingId}
      aria-describedby={textId}
      aria-busy={open}
      // The dialog itself takes the focus: nothing inside it can be operated.
      tabIndex={-1}
      className="m-auto w-[min(28rem,95vw)] rounded-lg bg-white p-6 shadow-2xl backdrop:bg-black/60"
      data-testid="processing-modal"
    >
      <h2 id={headingId} className="flex items-center gap-2 text-xl font-semibold">
        <Spinner />
        Processing
      </h2>
      <p id={textId} className="mt-3">
        {CHECKOUT_TEXT.processing}
      </p>
    </dialog>
  )
}
