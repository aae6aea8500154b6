import { useLayoutEffect, useRef } from 'react'

/**
 * Keeps a native <dialog> in step with `open`: shown modally (focus trapped, page behind inert,
 * Escape closes it) while open, closed otherwise. Browsers without showModal get the `open`
 * attribute. Returns the ref to put on the <dialog>.
 *
 * A layout effect, so the dialog is shown (and takes the focus) in the same task as the render:
 * a keyboard user's next key already goes to it. A passive effect waits for the next frame under
 * Preact (ADR 0105), and a quick second key press landed on the page behind.
 */
export function useModalDialog(open: boolean) {
  const ref = useRef<HTMLDialogElement>(null)
  useLayoutEffect(() => {
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
