/**
 * The third-party reviews widget: when the site settings configure its script, the script is
 * loaded once per page and the widget's global is polled every 1 s for up to 5 s, then asked to
 * render into this block. Nothing renders when it is not configured.
 */
import { useEffect, useRef } from 'react'
import type { PresentedBlok, ReviewsWidgetConfig } from '../../../shared/content.ts'
import { str } from './fields.ts'

export const REVIEWS_POLL_MS = 1000
export const REVIEWS_POLL_LIMIT_MS = 5000

interface WidgetGlobal {
  init?: (element: HTMLElement) => void
}

/**
 * Loads the reviews script once per page and polls its global every 1 s for up to 5 s, then asks
 * it to render into `ref`'s element. Shared by the reviews block and the Shelters product layout.
 */
export function useReviewsWidget(
  ref: React.RefObject<HTMLElement | null>,
  config: ReviewsWidgetConfig | null | undefined,
): void {
  useEffect(() => {
    if (!config?.scriptUrl || !ref.current) return
    const element = ref.current
    if (!document.querySelector(`script[data-reviews-widget]`)) {
      const script = document.createElement('script')
      script.src = config.scriptUrl
      script.async = true
      script.dataset.reviewsWidget = 'true'
      document.head.appendChild(script)
    }
    const started = Date.now()
    const poll = () => {
      const widget = (window as unknown as Record<string, WidgetGlobal | undefined>)[config.global]
      if (widget?.init) {
        widget.init(element)
        return true
      }
      return false
    }
    if (poll()) return
    const timer = setInterval(() => {
      if (poll() || Date.now() - started >= REVIEWS_POLL_LIMIT_MS) clearInterval(timer)
    }, REVIEWS_POLL_MS)
    return () => clearInterval(timer)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [config?.scriptUrl, config?.global])
}

export function ReviewsWidget({ blok }: { blok: PresentedBlok }) {
  const ref = useRef<HTMLDivElement>(null)
  const config = (blok.config ?? null) as ReviewsWidgetConfig | null
  useReviewsWidget(ref, config)

  if (!config?.scriptUrl) return null
  const title = str(blok.title)
  return (
    <section aria-label={title || 'Customer reviews'}>
      {title ? <h2 className="mb-3 text-xl font-semibold">{title}</h2> : null}
      <div ref={ref} data-testid="reviews-widget" />
    </section>
  )
}
