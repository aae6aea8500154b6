/**
 * Turns catalogue rows into the props of the category pages and product tiles. Everything that
 * reaches the page as HTML is sanitised here; plain-text fields have their tags stripped; colour
 * swatches keep only values that are CSS colours (they end up in style attributes).
 */
import { escapeHtml, type SafeHtml } from '../../../shared/safe-html.ts'
import type { CatalogMedia, ColourSwatch } from '../../../shared/catalog.ts'
import { breadcrumbText } from '../../../shared/breadcrumbs.ts'
import type { CategoryHeader, ProductTileData } from '../../../shared/listing.ts'
import type { Breadcrumb } from '../../../shared/page-props.ts'
import { sanitizeBreadcrumb, sanitizeRichText, stripTags } from '../../lib/sanitize.ts'
import type { CategoryRow } from './catalog.tables.ts'
import type { ListingRow } from './listing.ts'

/** Plain text of an HTML fragment: tags removed, entities decoded, whitespace collapsed. */
export function plainText(html: string | null | undefined): string {
  if (!html) return ''
  return breadcrumbText(stripTags(html))
}

const HEX = /^#(?:[0-9a-f]{3}|[0-9a-f]{4}|[0-9a-f]{6}|[0-9a-f]{8})$/i
const FUNCTIONAL = /^(?:rgb|rgba|hsl|hsla)\(\s*[\d.%\s,/-]+\)$/i
const NAMED = /^[a-z]{3,30}$/i

/** A value safe to put in a CSS colour property, or null. */
export function safeColour(value: unknown): string | null {
  if (typeof value !== 'string') return null
  const v = value.trim()
  return HEX.test(v) || FUNCTIONAL.test(v) || NAMED.test(v) ? v : null
}

/** Swatches with valid colours only; null when none are left. */
export function presentSwatches(
  swatches: Record<string, ColourSwatch> | null | undefined,
): Record<string, ColourSwatch> | null {
  if (!swatches || typeof swatches !== 'object') return null
  const out: Record<string, ColourSwatch> = {}
  for (const [name, swatch] of Object.entries(swatches)) {
    const hex = safeColour(swatch?.Hex)
    const label = plainText(name)
    if (!hex || !label) continue
    const hex2 = safeColour(swatch.Hex2)
    const text = safeColour(swatch.TextColour)
    out[label] = { Hex: hex, ...(hex2 ? { Hex2: hex2 } : {}), ...(text ? { TextColour: text } : {}) }
  }
  return Object.keys(out).length > 0 ? out : null
}

const IMAGE_FILE = /\.(png|jpe?g|gif|webp|avif|svg|tiff?)(?:[?#].*)?$/i

/** Whether a media entry is a picture (not a video or an audio sample). */
export function isImage(media: CatalogMedia): boolean {
  if (!media || typeof media.file_location !== 'string' || !media.file_location) return false
  if (media.type) return media.type === 'image'
  return IMAGE_FILE.test(media.file_location)
}

/** Image media in their stored order. */
export function imagesOf(media: CatalogMedia[] | null | undefined): CatalogMedia[] {
  return Array.isArray(media) ? media.filter(isImage) : []
}

function tileMedia(media: CatalogMedia[] | null | undefined): ProductTileData['media'] {
  const first = imagesOf(media)[0]
  return first ? [{ file_location: first.file_location }] : []
}

/** `{ attributes }` with the flash promotion's name, or nothing without one. */
function flashOf(attributes: { features?: { flash?: unknown } } | null | undefined) {
  const flash = attributes?.features?.flash
  const text = typeof flash === 'string' ? plainText(flash) : ''
  return text ? { attributes: { features: { flash: text } } } : {}
}

/** A product group as a tile in a category listing, with the category's overrides. */
export function presentProductTile(row: ListingRow): ProductTileData {
  const nameOverride = plainText(row.nameOverride)
  const descriptionOverride = plainText(row.descriptionOverride)
  const imageOverride = row.imageOverride?.trim()
  const swatches = presentSwatches(row.colourSwatches)
  return {
    kind: 'product',
    id: row.id,
    url: row.url || null,
    name: plainText(row.name) || null,
    short_description: plainText(row.shortDescription),
    ...(nameOverride ? { cat_name_override: nameOverride } : {}),
    ...(descriptionOverride ? { cat_description_override: descriptionOverride } : {}),
    ...(imageOverride ? { cat_image_override: { filename: imageOverride } } : {}),
    media: tileMedia(row.media),
    prices: { min_price: Math.max(0, row.minPrice | 0) },
    ...flashOf(row.attributes),
    ...(swatches ? { color_swatches: swatches } : {}),
  }
}

/** A child category as a tile on the Category page (no price, no swatches). */
export function presentCategoryTile(row: CategoryRow): ProductTileData {
  return {
    kind: 'category',
    id: row.id,
    url: row.url || null,
    name: plainText(row.name) || null,
    short_description: plainText(row.shortDescription),
    media: tileMedia(row.media),
    prices: { min_price: 0 },
    ...flashOf(row.attributes),
  }
}

/** Home > ancestors (root first) > the category. Names keep only strong, b, em, i and br. */
export function presentBreadcrumbs(category: CategoryRow, ancestors: CategoryRow[]): Breadcrumb[] {
  return [
    { name: escapeHtml('Home'), url: '/' },
    ...ancestors.map((a) => ({ name: sanitizeBreadcrumb(a.name), url: a.published ? a.url : null })),
    { name: sanitizeBreadcrumb(category.name), url: category.url },
  ]
}

function richOrNull(html: string | null | undefined): SafeHtml | null {
  if (!html) return null
  const clean = sanitizeRichText(html)
  return clean.trim() ? clean : null
}

export function presentCategoryHeader(category: CategoryRow): CategoryHeader {
  const structured = category.longDescriptionStructured
  return {
    id: category.id,
    name: plainText(category.name),
    url: category.url,
    pageName: null,
    longDescription: sanitizeRichText(category.longDescription ?? ''),
    above: richOrNull(structured?.above),
    below: richOrNull(structured?.below),
    referrerRequired: category.referrerRequired,
  }
}

/** The meta description: the meta_description attribute, else the short description; plain text. */
export function metaDescriptionOf(row: {
  attributes: { meta?: { meta_description?: unknown } } | null
  shortDescription: string
}): string {
  const meta = row.attributes?.meta?.meta_description
  const fromMeta = typeof meta === 'string' ? plainText(meta) : ''
  return fromMeta || plainText(row.shortDescription)
}
