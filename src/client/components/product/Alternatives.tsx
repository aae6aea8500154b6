/** Alternative products, as the listing's product tiles. */
import type { ProductTileData } from '../../../shared/listing.ts'
import { ProductTile } from '../catalog/ProductTile.tsx'

export function Alternatives({ products }: { products: ProductTileData[] }) {
  if (products.length === 0) return null
  return (
    <section aria-labelledby="alternatives-heading" className="alternatives" data-testid="alternatives">
      <h2 id="alternatives-heading">Alternative products</h2>
      <ul>
        {products.map((p) => (
          <li key={p.id}>
            <ProductTile {...p} headingLevel={3} />
          </li>
        ))}
      </ul>
    </section>
  )
}
