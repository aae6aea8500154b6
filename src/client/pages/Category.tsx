/**
 * Category page (display 'grid'): breadcrumbs, title, long description and one grid of the child
 * categories and products. Title, canonical link, meta description and CollectionPage structured
 * data go in the head; trade categories (ReferrerRequired) get the trade style.
 */
import type { CategoryPageProps } from '../../shared/listing.ts'
import { pageTitle } from '../../shared/titles.ts'
import { VatNote } from '../components/Price.tsx'
import { CategoryHead } from '../components/catalog/CategoryHead.tsx'
import { CategoryIntro, RichText } from '../components/catalog/CategoryIntro.tsx'
import { CollectionJsonLd } from '../components/catalog/CollectionJsonLd.tsx'
import { ProductGrid } from '../components/catalog/ProductGrid.tsx'
import { useSiteName } from '../lib/shared-props.ts'

export type { CategoryPageProps }

export default function Category({
  category,
  breadcrumbs,
  canonical,
  metaDescription,
  subcategories = [],
  products = [],
}: CategoryPageProps) {
  const siteName = useSiteName()
  const tiles = [...subcategories, ...products]
  return (
    <div data-testid="category-page" data-trade={category.referrerRequired ? 'true' : undefined}>
      <CategoryHead
        title={pageTitle({ page: 'category', name: category.name, pageName: category.pageName }, siteName)}
        metaDescription={metaDescription}
        canonical={canonical}
      />
      <CollectionJsonLd
        name={category.name}
        url={canonical}
        description={metaDescription}
        products={products}
      />
      <CategoryIntro category={category} breadcrumbs={breadcrumbs} />
      {products.length > 0 ? <VatNote className="mt-6" /> : null}
      <div className="mt-4">
        <ProductGrid tiles={tiles} label={`${category.name} range`} />
      </div>
      <RichText html={category.below} className="mt-8" />
    </div>
  )
}
