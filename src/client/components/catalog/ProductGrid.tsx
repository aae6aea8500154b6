/** Product tiles in a grid: 2 columns on small screens, 4 from md (768 px) up (spec §9). */
import type { ProductTileData } from '../../../shared/listing.ts'
import { ProductTile } from './ProductTile.tsx'

/** Tiles in the first row (4 on wide screens) load their images eagerly. */
const EAGER_TILES = 4

export function ProductGrid({
  tiles,
  label,
  headingLevel = 2,
}: {
  tiles: readonly ProductTileData[]
  /** Accessible name of the list, e.g. 'Products' */
  label: string
  headingLevel?: 2 | 3
}) {
  if (tiles.length === 0) return null
  return (
    <ul
      aria-label={label}
      className="grid grid-cols-2 gap-3 md:grid-cols-4 md:gap-4"
      data-testid="product-grid"
    >
      {tiles.map((tile, i) => (
        <li key={`${tile.kind}-${tile.id}`}>
          <ProductTile {...tile} headingLevel={headingLevel} eager={i < EAGER_TILES} />
        </li>
      ))}
    </ul>
  )
}
