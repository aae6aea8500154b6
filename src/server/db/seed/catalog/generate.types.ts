/** What the demo catalogue generator yields for a site: rows that refer to each other by url / sku. */
import type { VatReliefKind } from '../../../../shared/vat-relief.ts'
import type {
  CatalogAttributes,
  CatalogFile,
  CatalogMedia,
  ColourSwatch,
  PriceBreak,
  StructuredDescription,
  ZonePricing,
} from '../../../../shared/catalog.ts'
import type { PageLayout } from '../../../modules/catalog/catalog.tables.ts'
import { type MediaFile } from './media.ts'

export interface SeedBuilderItem {
  id: number
  name: string
  cost: number
  /** SKU whose product id the item carries (null for pure options) */
  sku: string | null
  selected?: boolean
}

export interface SeedBuilder {
  selectors: { name: string; items: SeedBuilderItem[] }[]
  options: { name: string; items: SeedBuilderItem[] }[]
}

export interface SeedCategory {
  url: string
  parentUrl: string | null
  slug: string
  name: string
  shortDescription: string
  longDescription: string
  longDescriptionStructured: StructuredDescription | null
  attributes: CatalogAttributes
  media: CatalogMedia[]
  files: CatalogFile[]
  referrerRequired: boolean
  builder: SeedBuilder | null
  display: 'grid' | 'paginated'
  position: number
  published: boolean
  depth: number
}

export interface SeedGroup {
  url: string
  categoryUrl: string
  slug: string
  name: string
  shortDescription: string
  longDescription: string
  longDescription2: string
  longDescriptionStructured: StructuredDescription | null
  attributes: CatalogAttributes
  media: CatalogMedia[]
  files: CatalogFile[]
  colourSwatches: Record<string, ColourSwatch> | null
  zonePricing: ZonePricing[] | null
  layout: PageLayout
  brand: string | null
  imageSku: string | null
  minPrice: number
  vatReliefEligible: boolean
  /** Eligible goods with a per-order relief limit (pads, washable pads, underwear) */
  vatReliefKind: VatReliefKind | null
  published: boolean
  createdAt: Date
}

export interface SeedSku {
  groupUrl: string
  sku: string
  productCode: string
  name: string
  description: string
  grid: number
  rowKey: string | null
  optionLabel: string | null
  qty: number
  minimumOrder: number
  priceList: PriceBreak[]
  wasPrice: number | null
  position: number
  published: boolean
}

export interface SeedMembership {
  categoryUrl: string
  groupUrl: string
  position: number
  nameOverride: string | null
  descriptionOverride: string | null
  imageOverride: string | null
}

export interface SeedAlternative {
  groupUrl: string
  alternativeUrl: string
  position: number
}

export interface SiteCatalog {
  siteCode: string
  categories: SeedCategory[]
  groups: SeedGroup[]
  skus: SeedSku[]
  memberships: SeedMembership[]
  alternatives: SeedAlternative[]
  files: MediaFile[]
}
