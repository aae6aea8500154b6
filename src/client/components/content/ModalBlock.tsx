/** A button that opens blocks in a modal dialog; Escape, the close button or the backdrop close it. */
import { useId, useState } from 'react'
import { useModalDialog } from '../../lib/use-modal-dialog.ts'
import type { PresentedBlok } from '../../../shared/content.ts'
import { str, type NestedBlocks } from './fields.ts'

export function ModalBlock({ blok, Blocks }: { blok: PresentedBlok; Blocks: NestedBlocks }) {
  const id = useId()
  const [open, setOpen] = useState(false)
  const ref = useModalDialog(open)
  const title = str(blok.title)

  return (
    <>
      <button
        type="button"
        className="rounded-md bg-primary px-4 py-2 font-semibold text-on-primary"
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
      >
        {str(blok.button_label, 'More information')}
      </button>
      <dialog
        ref={ref}
        aria-labelledby={title ? `${id}-title` : undefined}
        aria-label={title ? undefined : str(blok.button_label, 'More information')}
        className="m-auto w-[min(40rem,calc(100vw-2rem))] rounded-lg p-0 shadow-xl backdrop:bg-black/50"
        onClose={() => setOpen(false)}
        onClick={(e) => {
          if (e.target === e.currentTarget) setOpen(false)
        }}
      >
        <div className="p-6">
          <div className="mb-4 flex items-start justify-between gap-4">
            {title ? (
              <h2 id={`${id}-title`} className="text-xl font-semibold">
                {title}
              </h2>
            ) : (
              <span />
            )}
            <button
              type="button"
              className="text-2xl leading-none"
              aria-label="Close"
              onClick={() => setOpen(false)}
            >
              ×
            </button>
          </div>
          {open ? <Blocks blocks={blok.body} className="space-y-4" /> : null}
        </div>
      </dialog>
    </>
  )
}
