/**
 * The four product page layouts (spec §2 "Product page"), picked by the group's `layout`:
 *
 * - Default: gallery beside the title and the price grid(s); the long descriptions below.
 * - DefaultPGUnderLD: gallery beside the title; the price grid(s) under the long description.
 * - MediaLeft: the gallery in a left column that stays in view; everything else on the right.
 * - SheltersLayout: title across the top, then the gallery, descriptions, grid(s) and the
 *   customer reviews widget area.
 *
 * All of them: breadcrumbs, builder (when the primary category has one, just before the grids),
 * the second long description, the shopping guarantee and the alternative products.
 */
import type { ReactNode } from 'react'
import type { ProductPageProps } from '../../../shared/product.ts'
import { Breadcrumbs } from '../Breadcrumbs.tsx'
import { VatNote } from '../Price.tsx'
import { Alternatives } from './Alternatives.tsx'
import { ProductBuilder } from './Builder.tsx'
import { CustomerReviews } from './CustomerReviews.tsx'
import { Description, Html, useDescriptionHtml } from './Description.tsx'
import { Gallery } from './Gallery.tsx'
import { gridHeadings, PriceGrid } from './PriceGrid.tsx'
import { ProductSummary, ProductTitle } from './ProductHeading.tsx'
import { ShoppingGuarantee } from './ShoppingGuarantee.tsx'

interface Sections {
  breadcrumbs: ReactNode
  title: ReactNode
  summary: ReactNode
  gallery: ReactNode
  description: ReactNode
  pricing: ReactNode
  description2: ReactNode
  guarantee: ReactNode
  alternatives: ReactNode
}

function useSections(props: ProductPageProps): Sections {
  const { product, settings, category, selectedSku } = props
  const fill = useDescriptionHtml(product.asLowAs)
  const firstSku = product.grids[0]?.rows[0]?.options[0]?.productId ?? null
  const hasPricing = product.grids.length > 0 || !!product.builder
  const headings = gridHeadings(product.grids)
  return {
    breadcrumbs: <Breadcrumbs items={props.breadcrumbs} className="mb-4" />,
    title: <ProductTitle product={product} settings={settings} />,
    summary: <ProductSummary product={product} />,
    gallery: <Gallery items={product.gallery} size={settings.mediaHW} />,
    description: (
      <Description
        description={product.description}
        zonePricing={product.zonePricing}
        asLowAs={product.asLowAs}
      />
    ),
    pricing: hasPricing ? (
      <div data-testid="product-pricing">
        {product.builder ? (
          <ProductBuilder builder={product.builder} categoryId={category.id} fallbackListingId={firstSku} />
        ) : null}
        {product.grids.length > 0 ? <VatNote className="mt-6" /> : null}
        {product.grids.map((grid, i) => (
          <PriceGrid
            key={grid.number}
            grid={grid}
            heading={headings[i]}
            categoryId={category.id}
            selectedSku={selectedSku}
          />
        ))}
      </div>
    ) : null,
    description2: product.longDescription2 ? (
      <section aria-label="More about this product" className="mt-8">
        <Html html={fill(product.longDescription2)} />
      </section>
    ) : null,
    guarantee: <ShoppingGuarantee />,
    alternatives: <Alternatives products={props.alternatives} />,
  }
}

function DefaultLayout({ s, gridUnderDescription }: { s: Sections; gridUnderDescription: boolean }) {
  return (
    <>
      {s.breadcrumbs}
      <div className="flex flex-col gap-6 md:flex-row md:items-start">
        <div className="shrink-0">{s.gallery}</div>
        <div className="min-w-0 flex-1">
          {s.title}
          {s.summary}
          {gridUnderDescription ? null : s.pricing}
        </div>
      </div>
      {s.description}
      {gridUnderDescription ? s.pricing : null}
      {s.description2}
      {s.guarantee}
      {s.alternatives}
    </>
  )
}

function MediaLeftLayout({ s }: { s: Sections }) {
  return (
    <>
      {s.breadcrumbs}
      <div className="flex flex-col gap-8 md:flex-row md:items-start">
        <div className="shrink-0 md:sticky md:top-24">{s.gallery}</div>
        <div className="min-w-0 flex-1">
          {s.title}
          {s.summary}
          {s.description}
          {s.pricing}
          {s.description2}
          {s.guarantee}
        </div>
      </div>
      {s.alternatives}
    </>
  )
}

function SheltersLayout({
  s,
  sku,
  reviews,
}: {
  s: Sections
  sku: string | null
  reviews: ProductPageProps['reviews']
}) {
  return (
    <>
      {s.breadcrumbs}
      {s.title}
      <div className="mt-4 flex flex-col gap-6 md:flex-row md:items-start">
        <div className="shrink-0">{s.gallery}</div>
        <div className="min-w-0 flex-1">{s.summary}</div>
      </div>
      {s.description}
      {s.pricing}
      {s.description2}
      {s.guarantee}
      <CustomerReviews sku={sku} config={reviews} />
      {s.alternatives}
    </>
  )
}

export function ProductLayout(props: ProductPageProps) {
  const s = useSections(props)
  const layout = props.product.layout
  const sku = props.product.grids[0]?.rows[0]?.options[0]?.sku ?? null
  return (
    <article data-layout={layout} data-testid="product-page">
      {layout === 'MediaLeft' ? (
        <MediaLeftLayout s={s} />
      ) : layout === 'SheltersLayout' ? (
        <SheltersLayout s={s} sku={sku} reviews={props.reviews ?? null} />
      ) : (
        <DefaultLayout s={s} gridUnderDescription={layout === 'DefaultPGUnderLD'} />
      )}
    </article>
  )
}
