/**
 * Keyboard focus at checkout: after a change of step the focus goes to the new step's heading
 * (or, when validation stopped the buyer, to the first invalid field), scrolled clear of the
 * sticky header. The page's scroll padding follows the header's height while the checkout is
 * shown, so nothing the browser scrolls to for focus ends up under it (WCAG 2.2 SC 2.4.11).
 */
import { useEffect, useLayoutEffect } from 'react'
import type { StepState } from '../../shared/checkout-steps.ts'
import { stepHeadingId } from './CheckoutStep.tsx'

const HEADER = 'header.hdr'

/** The bottom edge of the site header when it covers the top of the viewport (else 0). */
function headerBottom(): number {
  const header = document.querySelector<HTMLElement>(HEADER)
  if (!header) return 0
  const { position } = getComputedStyle(header)
  if (position !== 'sticky' && position !== 'fixed') return 0
  return Math.max(0, header.getBoundingClientRect().bottom)
}

/** Focuses `el` and scrolls it into view below the sticky header if it is hidden or off screen. */
export function focusClear(el: HTMLElement | null) {
  if (!el) return
  el.focus({ preventScroll: true })
  const rect = el.getBoundingClientRect()
  const top = headerBottom()
  if (rect.top < top || rect.bottom > window.innerHeight) {
    const header = document.querySelector<HTMLElement>(HEADER)?.offsetHeight ?? 0
    window.scrollBy({ top: rect.top - Math.max(top, header) - 8 })
  }
}

/** The first field showing a message inside `root` (or the step's heading when none does). */
export function firstInvalid(step: number): HTMLElement | null {
  const section = document.querySelector(`[data-testid="step-${step}"]`)
  return (
    section?.querySelector<HTMLElement>('[aria-invalid="true"]') ??
    document.getElementById(stepHeadingId(step))
  )
}

/** Moves the focus each time the step state asks for it (a new `focus.n`). */
export function useStepFocus(focus: StepState['focus']) {
  useEffect(() => {
    if (!focus) return
    const active = document.activeElement
    if (focus.soft && active && active !== document.body) return
    focusClear(
      focus.to === 'invalid' ? firstInvalid(focus.step) : document.getElementById(stepHeadingId(focus.step)),
    )
    // Only a new request moves the focus: `n` grows with each one.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [focus?.n])
}

/** While mounted: the document's scroll padding is the site header's height. */
export function useHeaderScrollPadding() {
  useLayoutEffect(() => {
    const header = document.querySelector<HTMLElement>(HEADER)
    if (!header) return
    const root = document.documentElement
    const before = root.style.scrollPaddingTop
    const apply = () => {
      root.style.scrollPaddingTop = `${header.offsetHeight}px`
    }
    apply()
    const observer = typeof ResizeObserver === 'function' ? new ResizeObserver(apply) : null
    observer?.observe(header)
    return () => {
      observer?.disconnect()
      root.style.scrollPaddingTop = before
    }
  }, [])
}
