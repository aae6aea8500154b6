/**
 * One checkout step: a section named by its heading. The heading holds the button that opens the
 * step (disabled until the step may be opened, §4) and is itself focusable from script
 * (tabIndex -1): after every change of step the page moves the focus to the new step's heading.
 * The heading's scroll margin keeps it clear of the sticky header (WCAG 2.2 SC 2.4.11).
 */
import { Link } from '@inertiajs/react'
import type { ReactNode } from 'react'
import { primaryButton, secondaryButton } from '../components/cart/Modal.tsx'

export const stepHeadingId = (n: number) => `step-${n}-heading`

export function CheckoutStep({
  n,
  title,
  open,
  canOpen,
  onOpen,
  children,
}: {
  n: number
  title: string
  open: boolean
  canOpen: boolean
  onOpen: () => void
  children: ReactNode
}) {
  return (
    <section
      aria-labelledby={stepHeadingId(n)}
      className="rounded-lg border border-gray-200 p-4"
      data-testid={`step-${n}`}
      data-open={open ? 'true' : 'false'}
    >
      <h2
        id={stepHeadingId(n)}
        tabIndex={-1}
        className="checkout-step-heading text-xl font-semibold focus:outline-2 focus:outline-offset-4"
      >
        <button
          type="button"
          className="text-left disabled:cursor-not-allowed"
          aria-expanded={open}
          disabled={!canOpen}
          onClick={onOpen}
        >
          {n}. {title}
        </button>
      </h2>
      {open ? <div className="mt-3">{children}</div> : null}
    </section>
  )
}

/**
 * 'Return to Cart' and 'Continue' (offered while steps remain, §4). Continue is never disabled
 * for the keyboard: while the rules do not enable it, it is aria-disabled with the reason as its
 * description, and pressing it lets the step machine show the messages and move the focus.
 */
export function ContinueNav({
  offered,
  enabled,
  help,
  onContinue,
}: {
  offered: boolean
  enabled: boolean
  help: string
  onContinue: () => void
}) {
  return (
    <nav aria-label="Checkout navigation" className="flex justify-between">
      <Link href="/cart" className={secondaryButton}>
        Return to Cart
      </Link>
      {offered ? (
        <>
          <button
            type="button"
            className={`${primaryButton} aria-disabled:cursor-not-allowed aria-disabled:opacity-60`}
            aria-disabled={!enabled || undefined}
            aria-describedby="continue-help"
            onClick={onContinue}
            data-testid="continue"
          >
            Continue
          </button>
          <span id="continue-help" className="sr-only">
            {help}
          </span>
        </>
      ) : null}
    </nav>
  )
}
