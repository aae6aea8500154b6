/**
 * The Search page (/search?q=): title 'Search for {q}', breadcrumbs, the matching published
 * products in the shared listing (sort, grid of 2 / 4 columns, pagination), optional content
 * before results, after results and when there are no results, and the 'Best selling products'
 * grid when nothing matched and the option is on. Clicks on results are recorded with the
 * results' queryID and the 1-based position (on a page loaded as a document the queryID is read
 * from the document's head: the props have none, so every visitor shares one server render).
 */
import { escapeHtml } from '../../shared/safe-html.ts'
import { Head, usePage } from '@inertiajs/react'
import type { MouseEvent } from 'react'
import type { SearchPageProps } from '../../shared/listing.ts'
import type { SearchSettingsProps } from '../../shared/search.ts'
import { PRODUCTS_INDEX } from '../../shared/search.ts'
import { pageHeading, pageTitle } from '../../shared/titles.ts'
import { Breadcrumbs } from '../components/Breadcrumbs.tsx'
import { ProductGrid } from '../components/catalog/ProductGrid.tsx'
import { ProductListing } from '../components/catalog/ProductListing.tsx'
import { Blocks } from '../components/content/Blocks.tsx'
import { firstLoadQueryID, recordClick } from '../components/search/client.ts'
import { useSiteName } from '../lib/shared-props.ts'

export type { SearchPageProps }

export default function Search(props: SearchPageProps & { search?: SearchSettingsProps }) {
  const { query, listing, content, bestSellers } = props
  const { url } = usePage()
  const siteName = useSiteName()
  const heading = pageHeading({ page: 'search', query })
  const noResults = listing.pagination.total_results === 0

  const onResultClick = (e: MouseEvent<HTMLDivElement>) => {
    // A page loaded as a document has its queryID in the head, not in the props (ADR 0112).
    const queryID = props.queryID ?? firstLoadQueryID(url)
    if (!queryID) return
    const link = (e.target as Element).closest('a[href]')
    if (!link) return
    const href = link.getAttribute('href')
    const index = listing.results.findIndex((r) => r.url === href)
    const tile = listing.results[index]
    if (!tile) return
    recordClick({
      queryID,
      objectID: `product-${tile.id}`,
      index: listing.pagination.from + index,
      indexName: PRODUCTS_INDEX,
      analytics: props.search?.clickAnalytics ?? true,
    })
  }

  return (
    <div data-testid="search-page">
      <Head title={pageTitle({ page: 'search', query }, siteName)}>
        <meta name="robots" content="noindex, follow" head-key="robots" />
      </Head>
      <Breadcrumbs
        items={[
          { name: escapeHtml('Home'), url: '/' },
          { name: escapeHtml(heading), url: null },
        ]}
        className="mb-4"
      />
      <h1 className="text-3xl font-bold tracking-tight">{heading}</h1>
      {content.beforeResults ? (
        <div className="mt-4" data-testid="search-before-results">
          <Blocks blocks={content.beforeResults} />
        </div>
      ) : null}
      {noResults ? (
        <div className="mt-6" data-testid="search-no-results">
          {content.noResults ? (
            <Blocks blocks={content.noResults} />
          ) : (
            <p className="rounded-md border border-gray-200 bg-gray-50 p-6 text-center text-gray-700">
              {query ? `No products match '${query}'.` : 'Type what you are looking for in the search box.'}
            </p>
          )}
          {bestSellers && bestSellers.length > 0 ? (
            <section aria-labelledby="best-sellers" className="mt-10">
              <h2 id="best-sellers" className="mb-4 text-2xl font-bold">
                Best selling products
              </h2>
              <ProductGrid tiles={bestSellers} label="Best selling products" headingLevel={3} />
            </section>
          ) : null}
        </div>
      ) : (
        <div onClickCapture={onResultClick}>
          <ProductListing listing={listing} label={`Results for ${query}`} />
        </div>
      )}
      {content.afterResults ? (
        <div className="mt-8" data-testid="search-after-results">
          <Blocks blocks={content.afterResults} />
        </div>
      ) : null}
    </div>
  )
}
