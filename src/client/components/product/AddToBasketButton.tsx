/** The add-to-basket button: site colour, disabled and in-progress (spinner) states. */
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
      className="inline-flex items-center gap-2 rounded-md bg-add-to-cart px-5 py-2.5 font-semibold text-on-add-to-cart shadow-sm hover:brightness-95 disabled:cursor-not-allowed disabled:opacity-60"
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
