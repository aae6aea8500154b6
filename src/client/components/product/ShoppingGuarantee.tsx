/** The shopping guarantee block: the site's guarantees (from its settings) under one heading. */
import { useShared } from '../../lib/shared-props.ts'

export function ShoppingGuarantee() {
  const site = useShared().site
  const points = site?.guarantees ?? []
  return (
    <section
      aria-labelledby="shopping-guarantee-heading"
      className="mt-8 rounded-lg border border-gray-200 bg-gray-50 p-4"
      data-testid="shopping-guarantee"
    >
      <h2 id="shopping-guarantee-heading" className="text-lg font-semibold">
        Our shopping guarantee
      </h2>
      {points.length > 0 ? (
        <ul className="mt-2 grid gap-1 sm:grid-cols-3">
          {points.map((p) => (
            <li key={p} className="flex items-start gap-2">
              <span aria-hidden="true" className="text-green-700">
                ✓
              </span>
              <span>{p}</span>
            </li>
          ))}
        </ul>
      ) : null}
      {site?.contactNumber ? (
        <p className="mt-2 text-sm text-gray-700">
          Questions? Call us on{' '}
          <a href={`tel:${site.contactNumber.replace(/\s+/g, '')}`}>{site.contactNumber}</a>.
        </p>
      ) : null}
    </section>
  )
}
