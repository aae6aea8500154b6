/**
 * The third-party reviews widget: when the site settings configure its script, the script is
 * loaded once per page and the widget's global is polled every 1 s for up to 5 s, then asked to
 * render into this block. Nothing renders when it is not configured.
 */
import { useEffect, useRef } from 'react'
import type { PresentedBlok } from '../../../shared/content.ts'
import { str } from './fields.ts'

export const REVIEWS_POLL_MS = 1000
export const REVIEWS_POLL_LIMIT_MS = 5000

interface WidgetGlobal {
  init?: (element: HTMLElement) => void
}

export function ReviewsWidget({ blok }: { blok: PresentedBlok }) {
  const ref = useRef<HTMLDivElement>(null)
  const config = (blok.config ?? null) as { scriptUrl: string; global: string } | null

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
  }, [config?.scriptUrl, config?.global])

  if (!config?.scriptUrl) return null
  const title = str(blok.title)
  return (
    <section aria-label={title || 'Customer reviews'}>
      {title ? <h2 className="mb-3 text-xl font-semibold">{title}</h2> : null}
      <div ref={ref} data-testid="reviews-widget" />
    </section>
  )
}
