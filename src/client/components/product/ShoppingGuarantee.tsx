/** The shopping guarantee block: the site's guarantees (from its settings) under one heading. */
import { useShared } from '../../lib/shared-props.ts'

export function ShoppingGuarantee() {
  const site = useShared().site
  const points = site?.guarantees ?? []
  return (
    <section
      aria-labelledby="shopping-guarantee-heading"
      className="guarantee"
      data-testid="shopping-guarantee"
    >
      <h2 id="shopping-guarantee-heading">Our shopping guarantee</h2>
      {points.length > 0 ? (
        <ul>
          {points.map((p) => (
            <li key={p}>
              <span aria-hidden="true">✓</span>
              <span>{p}</span>
            </li>
          ))}
        </ul>
      ) : null}
      {site?.contactNumber ? (
        <p>
          Questions? Call us on{' '}
          <a href={`tel:${site.contactNumber.replace(/\s+/g, '')}`}>{site.contactNumber}</a>.
        </p>
      ) : null}
    </section>
  )
}
