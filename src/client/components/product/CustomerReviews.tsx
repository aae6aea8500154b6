/**
 * The Shelters layout's customer reviews widget (spec §2): loads and polls the site's reviews
 * script like the reviews content block does (every 1 s for up to 5 s), then lets it render into
 * the container, which also carries `data-reviews-widget="product"` and the product's SKU in
 * `data-sku` for widgets that find their container themselves. The widget replaces the
 * container's content (the line shown until then, so the heading never stands over an empty box).
 */
import { useRef } from 'react'
import type { ReviewsWidgetConfig } from '../../../shared/content.ts'
import { useReviewsWidget } from '../content/ReviewsWidget.tsx'

export function CustomerReviews({
  sku,
  config = null,
}: {
  sku: string | null
  config?: ReviewsWidgetConfig | null
}) {
  const ref = useRef<HTMLDivElement>(null)
  useReviewsWidget(ref, config)
  return (
    <section aria-labelledby="customer-reviews-heading" className="mt-8" data-testid="customer-reviews">
      <h2 id="customer-reviews-heading" className="text-xl font-semibold">
        Customer reviews
      </h2>
      <div
        ref={ref}
        id="customer-reviews-widget"
        data-reviews-widget="product"
        data-sku={sku ?? undefined}
        className="mt-3"
      >
        <p className="text-gray-700">No reviews for this product yet.</p>
      </div>
    </section>
  )
}
