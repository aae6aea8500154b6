/**
 * The product page (spec §2 "Product page"): title, meta description, canonical link, Product
 * structured data and page-specific CSS in the head; one of four layouts in the body. Records the
 * primary category in the recently viewed categories (sessionStorage).
 */
import { InlineStyle } from '../components/SafeHtml.tsx'
import { Head } from '@inertiajs/react'
import { useEffect } from 'react'
import { serializeJsonLd } from '../../shared/breadcrumbs.ts'
import type { ProductPageProps } from '../../shared/product.ts'
import { pageTitle } from '../../shared/titles.ts'
import { ProductLayout } from '../components/product/layouts.tsx'
import { recordRecentCategory } from '../components/product/recently-viewed.ts'
import { useSiteName } from '../lib/shared-props.ts'

export default function Product(props: ProductPageProps) {
  const { product, category, canonical, metaDescription, jsonLd } = props
  const siteName = useSiteName()

  useEffect(() => {
    recordRecentCategory(category)
  }, [category])

  return (
    <>
      <Head title={pageTitle({ page: 'product', name: product.name }, siteName)}>
        <meta name="description" content={metaDescription} head-key="description" />
        <link rel="canonical" href={canonical} head-key="canonical" />
        <script type="application/ld+json" head-key="product-json-ld">
          {serializeJsonLd(jsonLd)}
        </script>
      </Head>
      {product.pageCss ? <InlineStyle data-testid="product-page-css" css={product.pageCss} /> : null}
      <ProductLayout {...props} />
    </>
  )
}
