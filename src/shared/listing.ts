import type { SearchContentAreas } from './search.ts'
/**
 * Page props of the catalogue listings (Category, CategoryPaginated, later Search) and the
 * product tile (spec §3 "Product tile"). Built by the server presenter, read by the pages.
 * No runtime code here.
 */
import type { SafeHtml } from './safe-html.ts'
import type { ColourSwatch } from './catalog.ts'
import type { Breadcrumb } from './page-props.ts'
import type { PaginationMeta } from './pagination.ts'
import type { SortKey } from './sorting.ts'

/**
 * One tile in a grid: a product group, or a child category on the Category page. What a tile does
 * not have is left out rather than sent as null or empty (a listing repeats the tile per product:
 * issue 18), so the optional fields are present only with a value.
 */
export interface ProductTileData {
  /** 'category' tiles have no price */
  kind: 'product' | 'category'
  id: number
  /** Path of the product or category page; the tile links to '/' without one */
  url: string | null
  /** Plain text; the tile shows 'Name Not Found' when empty */
  name: string | null
  /** Plain text (tags stripped) */
  short_description: string
  /** Overrides from the category the tile is shown in (category_products); never empty */
  cat_name_override?: string
  cat_description_override?: string
  cat_image_override?: { filename: string }
  /** The tile image (the first image), or none; the tile's image is decorative (its name is beside it) */
  media: { file_location: string }[]
  /** Lowest unit price, minor units ex VAT; 0 = no price ('As Low As' hidden) */
  prices: { min_price: number }
  /** The flash promotion name (attributes.features.flash), when there is one */
  attributes?: { features: { flash: string } }
  /** Colour name -> swatch; colours already checked to be CSS colours; at least one */
  color_swatches?: Record<string, ColourSwatch>
}

/** The heading part every category page shares. */
export interface CategoryHeader {
  id: number
  name: string
  url: string
  /** Page-name suffix for the title, when the content system gives one */
  pageName: string | null
  longDescription: SafeHtml
  /** Shown above / below the long description (long_description_structured) */
  above: SafeHtml | null
  below: SafeHtml | null
  /** Trade category (ReferrerRequired): shown in the trade style */
  referrerRequired: boolean
}

/** The listing block shared by CategoryPaginated and Search. */
export interface ListingProps {
  results: ProductTileData[]
  pagination: PaginationMeta
  sort: SortKey
}

interface CategoryPageBase {
  category: CategoryHeader
  breadcrumbs: Breadcrumb[]
  /** Absolute URL */
  canonical: string
  /** Plain text */
  metaDescription: string
}

/** Props of the `Category` page (display 'grid'). */
export interface CategoryPageProps extends CategoryPageBase {
  /** Child categories, as tiles (spec `children`) */
  subcategories: ProductTileData[]
  products: ProductTileData[]
}

/** Props of the `CategoryPaginated` page (display 'paginated'). */
export interface CategoryPaginatedPageProps extends CategoryPageBase {
  listing: ListingProps
}

export interface ImagemapImage {
  /** Stored file location; the page builds the image URL */
  file_location: string
  alt: string
}

export interface ImagemapEntry {
  kind: 'category' | 'product'
  id: number
  name: string
  /** The category page, or the image map detail page of a product */
  href: string
  image: ImagemapImage
}

/** Props of `Imagemap/Index`. */
export interface ImagemapIndexProps {
  categories: ImagemapEntry[]
  products: ImagemapEntry[]
  pagination: PaginationMeta
}

/** Props of `Imagemap/Show`. */
export interface ImagemapShowProps {
  product: { id: number; name: string; url: string }
  image: ImagemapImage
  images: ImagemapImage[]
}

/** Props of the `Search` page (/search?q=). */
export interface SearchPageProps {
  /** The query as searched (cleaned); '' when none was given */
  query: string
  listing: ListingProps
  /** queryID of the results, for click analytics; null when analytics are off */
  queryID: string | null
  /** Content before results, after results and when nothing matches; null until configured */
  content: SearchContentAreas
  /** 'Best selling products' when nothing matched and the option is on; otherwise null */
  bestSellers: ProductTileData[] | null
}
