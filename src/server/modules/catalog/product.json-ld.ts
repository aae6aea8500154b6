/** The product's schema.org Product data for the page's head (crawlers). */
import type { CatalogAttributes } from '../../../shared/catalog.ts'
import type { Currency } from '../../../shared/page-props.ts'
import { highestUnitPrice, lowestUnitPrice, type Bracket } from '../../../shared/pricing.ts'
import type { GalleryItem } from '../../../shared/product.ts'
import { galleryImageUrl } from '../../../shared/product.ts'
import { type ProductGroupRow, type ProductRow } from './catalog.tables.ts'
import { absoluteUrl, colourOf, plainText } from './product.values.ts'

export interface JsonLdInput {
  group: ProductGroupRow
  attributes: CatalogAttributes
  skus: readonly ProductRow[]
  brackets: readonly Bracket[][]
  gallery: GalleryItem[] | null
  description: string
  canonical: string
  baseUrl: string
  currency: Currency
}

/** Minor units as a schema.org price: '12.50'. */
export function schemaPrice(minor: number): string {
  return (Math.round(minor) / 100).toFixed(2)
}

/**
 * schema.org Product with one AggregateOffer: the number of SKUs with a price, and the lowest and
 * highest unit price over every price break. Prices are ex VAT, as the page shows them by
 * default. Each SKU's own prices are on the page's grid: an Offer per SKU still made the head of
 * a 23-SKU sign 9.6 KB, an Offer per break 50 KB (ADRs 0104, 0110). Every SKU the page shows can
 * be ordered (made to order), so the offer is InStock.
 */
export function productJsonLd(input: JsonLdInput): Record<string, unknown> {
  const { group, attributes, skus, brackets, currency } = input
  const images = (input.gallery ?? [])
    .filter((g) => g.kind === 'image')
    .map((g) => absoluteUrl(galleryImageUrl(g, 'slide'), input.baseUrl))
  const brand = plainText(attributes.google?.product_brand) || plainText(group.brand)
  const sku = plainText(group.imageSku) || skus[0]?.sku || undefined
  const offerCount = skus.filter((_, i) => brackets[i]?.[0]).length
  const data: Record<string, unknown> = {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: plainText(group.name),
    url: input.canonical,
  }
  if (sku) data.sku = sku
  if (brand) data.brand = { '@type': 'Brand', name: brand }
  const colour = colourOf(attributes)
  if (colour) data.color = colour
  if (images.length > 0) data.image = images
  if (input.description) data.description = input.description
  if (offerCount > 0) {
    data.offers = {
      '@type': 'AggregateOffer',
      priceCurrency: currency,
      lowPrice: schemaPrice(lowestUnitPrice(brackets)),
      highPrice: schemaPrice(highestUnitPrice(brackets)),
      offerCount,
      availability: 'https://schema.org/InStock',
    }
  }
  return data
}
