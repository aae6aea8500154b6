/**
 * The enlarged image: a native modal <dialog> (focus stays inside, the page behind is inert,
 * Escape closes it), also closed by its button or a click on the backdrop.
 */
import { galleryImageUrl, type GalleryImage } from '../../../shared/product.ts'
import { useModalDialog } from '../../lib/use-modal-dialog.ts'

export function ZoomModal({
  open,
  item,
  position,
  onClose,
}: {
  open: boolean
  item: GalleryImage | null
  /** e.g. 'Image 2 of 5' */
  position: string
  onClose: () => void
}) {
  const ref = useModalDialog(open)

  return (
    <dialog
      ref={ref}
      aria-label="Enlarged image"
      onClose={onClose}
      onClick={(e) => {
        if (e.target === e.currentTarget) onClose()
      }}
      className="zoom-dialog"
      data-testid="zoom-dialog"
    >
      <div className="zoom-body">
        <button type="button" onClick={onClose} className="zoom-close" aria-label="Close enlarged image">
          <span aria-hidden="true">×</span>
        </button>
        {open && item ? (
          <figure>
            <img
              src={galleryImageUrl(item, 'zoom')}
              alt={item.alt}
              className="mx-auto block max-h-[80vh] w-auto max-w-full object-contain"
            />
            <figcaption className="mt-2 text-center text-sm text-gray-700">{position}</figcaption>
          </figure>
        ) : null}
      </div>
    </dialog>
  )
}
