/** The shapes of the demo catalogue's vocabulary: families, categories, sites, builder plans. */
import type { PageLayout } from '../../../modules/catalog/catalog.tables.ts'

/** How product images of a leaf are drawn (see media.ts). */
export type ImageStyle =
  'exit' | 'fire' | 'prohibition' | 'warning' | 'mandatory' | 'safe' | 'construction' | 'custom' | 'photo'

/** How product names are put together from a stem and a variant. */
export type NamePattern = 'sign' | 'model' | 'dash'

export interface BuilderPlan {
  /** Selectors after 'Size' (which lists the first product's sizes): name and [item, cost] */
  selectors: { name: string; items: [string, number][] }[]
  options: { name: string; items: [string, number][] }[]
}

export interface FamilySpec {
  /** Short code used in product codes: 'FE' */
  code: string
  style: ImageStyle
  pattern: NamePattern
  stems: string[]
  variants: string[]
  /** Grid rows (sizes, widths, models) and the range picked per product */
  rows: { values: string[]; pick: [number, number] }
  /** Options inside a row (materials, colours, packs); absent = one SKU per row */
  options?: { values: string[]; pick: [number, number] }
  /** Base single-unit price range of the first row, minor units ex VAT */
  price: [number, number]
  /** Price growth from one row to the next (bigger sizes cost more) */
  rowStep: number
  /** Lower quantities of the brackets; the first is 1 */
  breaks: number[]
  /** Descriptions of grids 1..3 when a product uses more than one */
  grids?: { description: string; suffix: string; factor: number }[]
  /** Page layouts with weights */
  layouts: [PageLayout, number][]
  unit: string
  blurbs: string[]
  specs: [string, string[]][]
  /** Colour swatches for options whose value is a colour name */
  swatches?: boolean
  /** Share of products carrying 'Custom Pricing' zone prices */
  zonePricing?: number
  /** Kinds of data-sheet files offered */
  documents: ('pdf' | 'docx' | 'xlsx')[]
}

export interface CategorySpec {
  slug: string
  name: string
  description: string
  display?: 'grid' | 'paginated'
  trade?: boolean
  /** Products in this (leaf) category */
  count?: number
  family?: FamilySpec
  builder?: BuilderPlan
  children?: CategorySpec[]
}

export interface SiteSpec {
  code: string
  /** Prefix of SKU codes on this site */
  skuPrefix: string
  vatRelief: boolean
  brands: string[]
  tree: CategorySpec[]
}
