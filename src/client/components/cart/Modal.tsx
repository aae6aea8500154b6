/** A native modal <dialog> with a heading and a close button; Escape and the backdrop close it. */
import { useId, type ReactNode } from 'react'
import { useModalDialog } from '../../lib/use-modal-dialog.ts'

export function Modal({
  open,
  title,
  onClose,
  children,
  testId,
}: {
  open: boolean
  title: string
  onClose: () => void
  children: ReactNode
  testId?: string
}) {
  const ref = useModalDialog(open)
  const headingId = useId()

  return (
    <dialog
      ref={ref}
      aria-labelledby={headingId}
      onClose={onClose}
      onClick={(e) => {
        if (e.target === e.currentTarget) onClose()
      }}
      className="m-auto w-[min(32rem,95vw)] rounded-lg bg-white p-0 shadow-2xl backdrop:bg-black/60"
      data-testid={testId}
    >
      <div className="relative p-6">
        <button
          type="button"
          onClick={onClose}
          className="absolute top-2 right-2 rounded px-3 py-1 text-2xl leading-none text-gray-700 hover:bg-gray-100"
          aria-label={`Close ${title.toLowerCase()}`}
        >
          <span aria-hidden="true">×</span>
        </button>
        <h2 id={headingId} className="pr-8 text-xl font-semibold">
          {title}
        </h2>
        {open ? <div className="mt-4">{children}</div> : null}
      </div>
    </dialog>
  )
}

export function Spinner() {
  return (
    <span
      aria-hidden="true"
      className="inline-block h-4 w-4 animate-spin rounded-full border-2 border-current border-t-transparent"
    />
  )
}

export const primaryButton =
  'inline-flex items-center justify-center gap-2 rounded-md bg-add-to-cart px-5 py-2.5 font-semibold text-on-add-to-cart shadow-sm hover:brightness-95 disabled:cursor-not-allowed disabled:opacity-60'
export const secondaryButton =
  'inline-flex items-center justify-center gap-2 rounded-md border border-gray-400 bg-white px-4 py-2 font-semibold text-gray-900 hover:bg-gray-50 disabled:cursor-not-allowed disabled:opacity-60'
export const fieldClass = 'mt-1 block w-full rounded border border-gray-400 px-3 py-2'
