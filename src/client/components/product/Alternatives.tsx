/** Alternative products, as the listing's product tiles. */
import type { ProductTileData } from '../../../shared/listing.ts'
import { ProductTile } from '../catalog/ProductTile.tsx'

export function Alternatives({ products }: { products: ProductTileData[] }) {
  if (products.length === 0) return null
  return (
    <section aria-labelledby="alternatives-heading" className="mt-10" data-testid="alternatives">
      <h2 id="alternatives-heading" className="text-xl font-semibold">
        Alternative products
      </h2>
      <ul className="mt-4 grid grid-cols-2 gap-4 md:grid-cols-4">
        {products.map((p) => (
          <li key={p.id}>
            <ProductTile {...p} headingLevel={3} />
          </li>
        ))}
      </ul>
    </section>
  )
}
