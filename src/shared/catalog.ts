/**
 * Catalogue shapes shared by the server (JSON columns, presenters) and the browser (page props).
 * Money is integer minor units (pence or cents), ex VAT, unless a name says otherwise.
 */

/** One price bracket: the unit price for quantities lowerQty..higherQty (null = open-ended, "100+"). */
export interface PriceBreak {
  lowerQty: number
  higherQty: number | null
  /** Unit price, minor units, ex VAT */
  price: number
  /** Column label, e.g. '10-24' or '100+' */
  name: string
}

export interface CatalogMedia {
  /** Path or URL of the file: '/media/catalog/fire-exit-1.png' */
  file_location: string
  file_name?: string
  /** 'image' | 'video' | 'audio' */
  type?: string
  file_type?: string
  alt?: string
  /** For videos: the embed id */
  video_id?: string
}

export interface CatalogFile {
  id: number
  /** pdf, doc, docx, xls, xlsx, jpg, png, mp4 ... */
  file_type: string
  file_name: string
  file_location: string
}

export interface DescriptionTab {
  id: string
  label: string
  /** HTML */
  content: string
}

export interface StructuredDescription {
  above?: string
  below?: string
  tabs?: DescriptionTab[]
  long_description2?: { content: string }
}

export interface ColourSwatch {
  Hex: string
  Hex2?: string
  TextColour?: string
}

/** `attributes` JSON of a category or product group (spec §3 "Category or product"). */
export interface CatalogAttributes {
  meta?: { meta_description?: string }
  media?: { wistiaid?: string | string[] }
  features?: { flash?: string }
  pricing?: {
    price_grid_id?: number
    unit_of_measurement?: string
    /** Headings per grid number: { "1": "Single signs", "2": "Packs of 10" } */
    grid_descriptions?: Record<string, string>
  }
  story_blok?: { page_layout?: string }
  google?: { product_brand?: string }
  /** Up to 10 user-defined specification fields: { "1": { label, value } ... } */
  specifications?: Record<string, { label: string; value: string }>
  master_colour_key?: string
}

export interface BuilderItem {
  id: number
  name: string
  /** Minor units, ex VAT */
  cost: number
  product_id: number | null
  selected?: boolean
}

export interface BuilderGroup {
  name: string
  items: BuilderItem[]
}

/** A category's product builder: selectors (the first sets the base cost) and options. */
export interface BuilderConfig {
  selectors: BuilderGroup[]
  options: BuilderGroup[]
}

export interface ZonePricing {
  builder_customisation_type: { customer_label: string }
  prices: { quantity_break: string; price: number }[]
}
