/**
 * The product page (spec §2 "Product page"): title, meta description, canonical link and
 * page-specific CSS in the head; one of four layouts in the body. Records the primary category in
 * the recently viewed categories (sessionStorage).
 *
 * The Product structured data is written into the first load's head by the server only (ADR 0104);
 * it is not a page prop. Once the visitor moves to another page in the browser, the server's
 * script no longer describes the page, so it is removed.
 */
import { InlineStyle } from '../components/SafeHtml.tsx'
import { Head } from '@inertiajs/react'
import { useEffect } from 'react'
import type { ProductPageProps } from '../../shared/product.ts'
import { pageTitle } from '../../shared/titles.ts'
import { ProductLayout } from '../components/product/layouts.tsx'
import { recordRecentCategory } from '../components/product/recently-viewed.ts'
import { useSiteName } from '../lib/shared-props.ts'

export default function Product(props: ProductPageProps) {
  const { product, category, canonical, metaDescription } = props
  const siteName = useSiteName()

  useEffect(() => {
    recordRecentCategory(category)
  }, [category])

  useEffect(() => () => document.head.querySelector('script[data-product-json-ld]')?.remove(), [product.id])

  return (
    <>
      <Head title={pageTitle({ page: 'product', name: product.name }, siteName)}>
        <meta name="description" content={metaDescription} head-key="description" />
        <link rel="canonical" href={canonical} head-key="canonical" />
      </Head>
      {product.pageCss ? <InlineStyle data-testid="product-page-css" css={product.pageCss} /> : null}
      <ProductLayout {...props} />
    </>
  )
}
