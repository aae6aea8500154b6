import { useEffect, useRef } from 'react'

/**
 * Keeps a native <dialog> in step with `open`: shown modally (focus trapped, page behind inert,
 * Escape closes it) while open, closed otherwise. Browsers without showModal get the `open`
 * attribute. Returns the ref to put on the <dialog>.
 */
export function useModalDialog(open: boolean) {
  const ref = useRef<HTMLDialogElement>(null)
  useEffect(() => {
    const dialog = ref.current
    if (!dialog) return
    if (open && !dialog.open) {
      if (typeof dialog.showModal === 'function') dialog.showModal()
      else dialog.setAttribute('open', '')
    } else if (!open && dialog.open) {
      dialog.close()
    }
  }, [open])
  return ref
}
