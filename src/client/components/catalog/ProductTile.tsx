/**
 * A product (or child category) tile (spec §3 "Product tile", §2 "Product page" last bullet):
 * links to its url (or '/'), shows 'Name Not Found' without a name and the placeholder without an
 * image, prefers the category's name, description and image overrides, and shows the flash
 * promotion, colour swatches and an 'As Low As' price when the price is above 0. Styled by the
 * named classes of product-tile.css (one name per element instead of its Tailwind list).
 */
import { Link } from '@inertiajs/react'
import { useEffect, useRef, useState, type CSSProperties } from 'react'
import type { ColourSwatch } from '../../../shared/catalog.ts'
import { imageUrl, PLACEHOLDER_IMAGE } from '../../../shared/images.ts'
import type { ProductTileData } from '../../../shared/listing.ts'
import { colourWord } from '../../../shared/spelling.ts'
import { useShared } from '../../lib/shared-props.ts'
import { Price } from '../Price.tsx'

/** Tile images: 300 px at quality 50 (spec §9). */
export const TILE_IMAGE = { w: 300, h: 300, q: 50, fit: 'contain' } as const
export const NAME_NOT_FOUND = 'Name Not Found'
/** Swatches shown before '+N'. */
const MAX_SWATCHES = 8

export type ProductTileProps = ProductTileData & {
  /** Heading level of the name: h2 under a page h1, h3 under a section h2 */
  headingLevel?: 2 | 3
  /** Load the image eagerly (tiles in the first row) */
  eager?: boolean
}

/** The tile's display values after overrides and fallbacks. */
export function tileDisplay(tile: ProductTileData) {
  return {
    href: tile.url || '/',
    name: tile.cat_name_override || tile.name || NAME_NOT_FOUND,
    description: tile.cat_description_override || tile.short_description || '',
    image: tile.cat_image_override?.filename || tile.media[0]?.file_location || null,
  }
}

function TileImage({ location, eager }: { location: string | null; eager: boolean }) {
  // 0: the image itself, 1: the placeholder, 2: a plain box (the placeholder is missing too)
  const first = location ? 0 : 1
  const [stage, setStage] = useState(first)
  // One failure moves one stage on: the error event and decode()'s rejection can both report the
  // same broken image, which must not skip the placeholder.
  const failed = (at: number) => setStage((s) => (s === at ? Math.min(2, s + 1) : s))
  const ref = useRef<HTMLImageElement>(null)
  useEffect(() => {
    // An image that failed before hydration fired its error event before React listened.
    // decode() rejects for a broken image, whether it failed already or fails later.
    const img = ref.current
    if (!img?.complete || typeof img.decode !== 'function') return
    let live = true
    img.decode().catch(() => {
      if (live && img.naturalWidth === 0) failed(first)
    })
    return () => {
      live = false
    }
    // Only the image the server rendered: later ones report through onError.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])
  if (stage === 2) {
    return <span aria-hidden="true" className="block aspect-square w-full rounded bg-gray-100" />
  }
  const src = stage === 0 && location ? imageUrl(location, TILE_IMAGE) : PLACEHOLDER_IMAGE
  return (
    <img
      ref={ref}
      src={src}
      alt=""
      width={TILE_IMAGE.w}
      height={TILE_IMAGE.h}
      loading={eager ? 'eager' : 'lazy'}
      // The first row's images are a listing's largest paint on a phone: fetched first.
      fetchPriority={eager ? 'high' : undefined}
      decoding="async"
      onError={() => failed(stage)}
      className="tile-img"
    />
  )
}

function swatchStyle(swatch: ColourSwatch): CSSProperties {
  return {
    background: swatch.Hex2 ? `linear-gradient(135deg, ${swatch.Hex} 50%, ${swatch.Hex2} 50%)` : swatch.Hex,
    // TextColour is the colour that reads on the swatch: drawn as an inner ring so light and dark
    // swatches both stand out from the tile.
    ...(swatch.TextColour ? { boxShadow: `inset 0 0 0 1px ${swatch.TextColour}` } : {}),
  }
}

function Swatches({ swatches }: { swatches: Record<string, ColourSwatch> }) {
  const entries = Object.entries(swatches)
  const more = entries.length - MAX_SWATCHES
  const locale = useShared().site?.locale
  return (
    <div className="flex flex-wrap items-center gap-1" data-testid="colour-swatches">
      <span className="sr-only">{colourWord(locale, true)}:</span>
      <ul className="flex flex-wrap gap-1">
        {entries.slice(0, MAX_SWATCHES).map(([name, swatch]) => (
          <li key={name} title={name}>
            <span
              className="block size-5 rounded-full border border-gray-400"
              style={swatchStyle(swatch)}
              data-split={swatch.Hex2 ? 'true' : undefined}
            />
            <span className="sr-only">{name}</span>
          </li>
        ))}
      </ul>
      {more > 0 ? <span className="text-xs text-gray-700">+{more}</span> : null}
    </div>
  )
}

export function ProductTile({ headingLevel = 2, eager = false, ...tile }: ProductTileProps) {
  const { href, name, description, image } = tileDisplay(tile)
  const flash = tile.attributes?.features?.flash
  const Heading = headingLevel === 3 ? 'h3' : 'h2'
  const price = tile.kind === 'product' ? (tile.prices?.min_price ?? 0) : 0
  return (
    <article className="tile" data-testid="product-tile" data-kind={tile.kind}>
      <Link href={href} className="tile-link">
        <TileImage key={image ?? ''} location={image} eager={eager} />
        <Heading className="tile-name">{name}</Heading>
      </Link>
      {flash ? (
        <span className="absolute top-2 left-2 rounded bg-red-700 px-2 py-0.5 text-xs font-bold tracking-wide text-white uppercase">
          {flash}
        </span>
      ) : null}
      {description ? <p className="tile-desc">{description}</p> : null}
      {tile.color_swatches ? (
        <div className="mt-2">
          <Swatches swatches={tile.color_swatches} />
        </div>
      ) : null}
      {price > 0 ? (
        <p className="tile-price">
          As Low As <Price amount={price} />
        </p>
      ) : null}
    </article>
  )
}
