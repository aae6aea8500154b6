/**
 * Category page (display 'paginated'): breadcrumbs, h1, the sortable, paged product listing.
 * Title (with the page number after page 1), canonical link, meta description and
 * CollectionPage structured data go in the head; trade categories get the trade style.
 */
import type { CategoryPaginatedPageProps } from '../../shared/listing.ts'
import { pageTitle } from '../../shared/titles.ts'
import { CategoryHead } from '../components/catalog/CategoryHead.tsx'
import { CategoryIntro, RichText } from '../components/catalog/CategoryIntro.tsx'
import { CollectionJsonLd } from '../components/catalog/CollectionJsonLd.tsx'
import { ProductListing } from '../components/catalog/ProductListing.tsx'
import { useSiteName } from '../lib/shared-props.ts'

export type { CategoryPaginatedPageProps }

export default function CategoryPaginated({
  category,
  breadcrumbs,
  canonical,
  metaDescription,
  listing,
}: CategoryPaginatedPageProps) {
  const siteName = useSiteName()
  const { page } = listing.pagination
  const title = pageTitle(
    { page: 'categoryPaginated', name: category.name, pageName: category.pageName, pageNumber: page },
    siteName,
  )
  return (
    <div data-testid="category-page" data-trade={category.referrerRequired ? 'true' : undefined}>
      <CategoryHead title={title} metaDescription={metaDescription} canonical={canonical} />
      <CollectionJsonLd
        name={category.name}
        url={canonical}
        description={metaDescription}
        products={listing.results}
        firstPosition={listing.pagination.from || 1}
      />
      <CategoryIntro category={category} breadcrumbs={breadcrumbs} />
      <ProductListing listing={listing} label={`${category.name} products`} />
      <RichText html={category.below} className="mt-8" />
    </div>
  )
}
