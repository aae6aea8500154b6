/**
 * Where the third-party customer reviews widget goes (shelters layout only). The widget script is
 * not part of this page; it finds its container by `data-reviews-widget="product"` and reads the
 * product's SKU from `data-sku`, and replaces the container's content (the line shown until then,
 * so the heading never stands over an empty box).
 */
export function CustomerReviews({ sku }: { sku: string | null }) {
  return (
    <section aria-labelledby="customer-reviews-heading" className="mt-8" data-testid="customer-reviews">
      <h2 id="customer-reviews-heading" className="text-xl font-semibold">
        Customer reviews
      </h2>
      <div
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
