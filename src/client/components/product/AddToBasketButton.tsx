/**
 * The add-to-basket button: site colour, disabled and in-progress (spinner) states. Styled by
 * .add-to-basket in price-grid.css (a grid page has one per grid).
 */
import { useShared } from '../../lib/shared-props.ts'

export function AddToBasketButton({
  onClick,
  disabled,
  pending,
  describedBy,
}: {
  onClick: () => void
  disabled: boolean
  pending: boolean
  describedBy?: string
}) {
  const cartName = useShared().site?.cartName || 'Basket'
  return (
    <button
      type="button"
      onClick={onClick}
      disabled={disabled || pending}
      aria-busy={pending || undefined}
      aria-describedby={describedBy}
      className="add-to-basket"
    >
      {pending ? (
        <span
          aria-hidden="true"
          className="inline-block h-4 w-4 animate-spin rounded-full border-2 border-current border-t-transparent"
        />
      ) : null}
      Add to {cartName}
    </button>
  )
}
