/**
 * The listing block shared by CategoryPaginated and Search: the VAT note, the 'Sort by' select,
 * the product grid and the pagination.
 */
import type { ListingProps } from '../../../shared/listing.ts'
import { VatNote } from '../Price.tsx'
import { Pagination } from './Pagination.tsx'
import { ProductGrid } from './ProductGrid.tsx'
import { SortSelect } from './SortSelect.tsx'

export function ProductListing({
  listing,
  label = 'Products',
  empty = 'No products found.',
}: {
  listing: ListingProps
  /** Accessible name of the grid */
  label?: string
  /** Shown instead of the grid when there are no results */
  empty?: string
}) {
  return (
    <section aria-label={label} className="mt-6">
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <VatNote />
        <SortSelect value={listing.sort} />
      </div>
      {listing.results.length > 0 ? (
        <ProductGrid tiles={listing.results} label={label} />
      ) : (
        <p className="rounded-md border border-gray-200 bg-gray-50 p-6 text-center text-gray-700">{empty}</p>
      )}
      <Pagination pagination={listing.pagination} className="mt-8" />
    </section>
  )
}
