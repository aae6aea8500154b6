/**
 * Props of the `Product` page (built by src/server/modules/catalog/product.presenter.ts, read by
 * src/client/pages/Product.tsx), the add-to-basket payload, and the one description placeholder
 * the browser fills in.
 * Money is integer minor units, ex VAT; HTML fields are sanitised by the server.
 */
import type { ReviewsWidgetConfig } from './content.ts'
import type { SafeHtml } from './safe-html.ts'
import type { BuilderConfig, PriceBreak } from './catalog.ts'
import type { ProductTileData } from './listing.ts'
import type { Breadcrumb } from './page-props.ts'
import { imageUrl, type ImageOptions } from './images.ts'
import { GRID_MINIMUM_ORDER } from './quantity.ts'

export type ProductLayout = 'Default' | 'DefaultPGUnderLD' | 'MediaLeft' | 'SheltersLayout'

/** One slide of the image gallery. */
export type GalleryItem = GalleryImage | GalleryVideo

/**
 * An image, by its stored file: the browser asks for each size it shows (the slide, the
 * thumbnail, the zoom) with `galleryImageUrl`, as a tile does for its image, so the page carries
 * one path per image instead of three URLs (issue 18).
 */
export interface GalleryImage {
  kind: 'image'
  /** Stored file location (/media/...), already checked to be a safe URL */
  file: string
  alt: string
}

export interface GalleryVideo {
  kind: 'video'
  /** A playable file ('' when it is only hosted by the player) */
  src: string
  /** Thumbnail image (null without a poster: a play icon alone is shown) */
  thumb: string | null
  alt: string
  /** Still image shown before it plays */
  poster: string | null
  /** The hosted player's page, for videos known only by their embed id */
  link: string | null
}

/** Spec §9: product images 300 px at quality 50, thumbnails at most 80 px; the zoom up to 1200 px. */
export const GALLERY_IMAGE_SIZES = {
  slide: { w: 300, h: 300, q: 50, fit: 'contain' },
  thumb: { w: 80, h: 80, q: 50, fit: 'contain' },
  zoom: { w: 1200, q: 50, fit: 'inside' },
} as const satisfies Record<string, ImageOptions>

/** The URL of a gallery image at one of its sizes. */
export function galleryImageUrl(image: GalleryImage, size: keyof typeof GALLERY_IMAGE_SIZES): string {
  return imageUrl(image.file, GALLERY_IMAGE_SIZES[size])
}

/** A downloadable file ('data sheet'). */
export interface DataSheet {
  id: number
  name: string
  url: string
  /** pdf, doc, xls, image, video, or the file's own extension */
  label: string
}

/** A price-break column of a grid: '10-24', '100+'. */
export interface GridColumn {
  name: string
  lowerQty: number
  /** 9999 for an open-ended ('+') column */
  higherQty: number
}

/**
 * One SKU in a grid row (a row with several is a dropdown keyed by product id). Only what the
 * page cannot derive is sent (ADR 0110): read the code, description and minimum order through
 * optionCode(), optionDescription() and optionMinimum().
 */
export interface GridOption {
  productId: number
  sku: string
  /** Left out when it is the row's code */
  productCode?: string
  /** Dropdown label; left out on a row of one option (no dropdown) */
  label?: string
  /**
   * Plain text: this SKU's own description (the row reads it once the option is chosen). Left out
   * when it is the row's description, or the row's description, a comma and the label.
   */
  description?: string
  /** Left out when it is the grid's default (GRID_MINIMUM_ORDER, 1) */
  minimumOrder?: number
  /**
   * Price brackets, lowest first; open-ended ones end at 9999. Left out when they are exactly the
   * grid's columns where this SKU has a price (the usual case): see optionBrackets().
   */
  priceList?: PriceBreak[]
  /** Unit price per grid column (aligned with PriceGrid.columns); null where the SKU has none */
  prices: (number | null)[]
  /** Earlier unit price, struck through; left out when none */
  wasPrice?: number | null
}

export interface GridRow {
  key: string
  productCode: string
  /** Plain text */
  description: string
  /** One entry: a plain row. Several: a dropdown ('Select an option' until one is chosen). */
  options: GridOption[]
}

export interface PriceGrid {
  /** 1 to 3 */
  number: number
  /** From attributes.pricing.grid_descriptions */
  description: string | null
  unitOfMeasurement: string | null
  columns: GridColumn[]
  rows: GridRow[]
}

export interface DescriptionTab {
  id: string
  label: string
  content: SafeHtml
}

/** The long description: structured (above, tabs, below) or plain (only `plain`). */
export interface ProductDescription {
  above: SafeHtml
  tabs: DescriptionTab[]
  below: SafeHtml
  /** The plain long description, used when there are no tabs */
  plain: SafeHtml
}

/** One zone-pricing table in the 'Custom Pricing' tab. */
export interface ZonePriceTable {
  label: string
  prices: { quantityBreak: string; price: number }[]
}

/** Product display settings of the site (spec §3 "Products settings"). */
export interface ProductDisplaySettings {
  titleColour: string | null
  /** Gallery image box, px (default 260) */
  mediaHW: number
  showAlternatives: boolean
  alternativesLimit: number
  /** The site's product layout (products story `pageLayout`); a product's own attribute overrides it */
  pageLayout?: ProductLayout
}

export interface ProductView {
  id: number
  name: string
  url: string
  layout: ProductLayout
  /** The product's colour: its `master_colour_key` attribute (spec §3), plain text; null when none */
  colour?: string | null
  shortDescription: SafeHtml
  /** Lowest unit price, ex VAT; the 'As Low As' line shows only when above 0 */
  asLowAs: number
  /** Null when the media feature is not a list (the gallery logs an error) */
  gallery: GalleryItem[] | null
  files: DataSheet[]
  mp3Link: string | null
  description: ProductDescription
  /** The second long description */
  longDescription2: SafeHtml
  grids: PriceGrid[]
  builder: BuilderConfig | null
  zonePricing: ZonePriceTable[]
  /** Sanitised page-specific CSS ('' when none) */
  pageCss: string
}

export interface ProductCategoryRef {
  id: number
  uuid: string
  name: string
  url: string
}

export interface ProductPageProps {
  product: ProductView
  /** The primary category (category_id of basket lines, recently viewed categories) */
  category: ProductCategoryRef
  breadcrumbs: Breadcrumb[]
  /** Absolute URL */
  canonical: string
  metaDescription: string
  alternatives: ProductTileData[]
  settings: ProductDisplaySettings
  /** The Shelters layout's customer reviews widget (the site's reviews script), per visit; null when none */
  reviews?: ReviewsWidgetConfig | null
  /** ?sku= of the visit when it names a SKU of this product (pre-selected in its grid) */
  selectedSku: string | null
}

/** One line of an add-to-basket call (spec §7 "Add from price grid" / "Add from builder"). */
export interface BasketAddItem {
  listing_id: number
  quantity: number
  category_id: number
  customisation?: { options: number[] }
}

/**
 * The one description placeholder filled in by the browser: the 'As Low As' price follows the
 * visitor's VAT choice. The server replaces the others (see product.presenter.ts).
 */
export const AS_LOW_AS_TOKEN = '{as_low_as}'

/**
 * A grid option's price brackets: its own `priceList` when sent, else the grid's columns where the
 * option has a price (the server leaves `priceList` out when the two are the same).
 */
export function bracketsFromColumns(
  columns: readonly GridColumn[],
  prices: readonly (number | null)[],
): PriceBreak[] {
  const out: PriceBreak[] = []
  columns.forEach((c, i) => {
    const price = prices[i]
    if (price !== null && price !== undefined)
      out.push({ lowerQty: c.lowerQty, higherQty: c.higherQty, price, name: c.name })
  })
  return out
}

export function optionBrackets(columns: readonly GridColumn[], option: GridOption): PriceBreak[] {
  return option.priceList ?? bracketsFromColumns(columns, option.prices)
}

/** A grid option's product code: its own, else its row's. */
export function optionCode(row: GridRow, option: GridOption): string {
  return option.productCode ?? row.productCode
}

/** A grid option's description: its own, else the row's followed by the option's label. */
export function optionDescription(row: GridRow, option: GridOption): string {
  return option.description ?? derivedDescription(row, option.label)
}

/** What an option's description is when not sent: the row's, with the label on a dropdown row. */
function derivedDescription(row: GridRow, label: string | undefined): string {
  return label && row.options.length > 1 ? `${row.description}, ${label}` : row.description
}

/** A grid option's minimum order (1 when not sent). */
export function optionMinimum(option: GridOption): number {
  return option.minimumOrder ?? GRID_MINIMUM_ORDER
}

/** A grid option as the presenter builds it, before leanOption() leaves out what is derived. */
export type FullGridOption = GridOption &
  Required<Pick<GridOption, 'productCode' | 'label' | 'description' | 'minimumOrder'>>

/**
 * The option as sent to the page: what optionCode(), optionDescription() and optionMinimum()
 * would give back is left out, and so are a lone option's label and an empty was price.
 */
export function leanOption(row: GridRow, option: FullGridOption): GridOption {
  const lean: GridOption = { productId: option.productId, sku: option.sku, prices: option.prices }
  if (option.productCode !== row.productCode) lean.productCode = option.productCode
  if (row.options.length > 1) lean.label = option.label
  if (option.description !== derivedDescription(row, option.label)) lean.description = option.description
  if (option.minimumOrder !== GRID_MINIMUM_ORDER) lean.minimumOrder = option.minimumOrder
  if (option.priceList) lean.priceList = option.priceList
  if (option.wasPrice) lean.wasPrice = option.wasPrice
  return lean
}
