/**
 * Listing pagination (spec §2): 'Showing X to Y of Z results', 'Page N of M', Previous and Next,
 * and the page numbers: 3 under 480 px, 5 under 768 px, 7 under 1024 px, otherwise 9, first and
 * last always shown, ellipses for the pages left out.
 *
 * The four windows are rendered side by side and CSS media queries show one of them, so the
 * server and the hydrating browser produce the same markup at every width (no hydration
 * mismatch, no layout jump). When they would all be the same, only one is rendered.
 */
import { Link, usePage } from '@inertiajs/react'
import { pageHref, pageWindow, type PageItem, type PaginationMeta } from '../../../shared/pagination.ts'

/**
 * One window per width band. The classes must be literal for Tailwind to see them; they match
 * PAGINATION_STEPS (480 = min-[480px], 768 = md, 1024 = lg).
 */
const BANDS: readonly { count: number; className: string }[] = [
  { count: 3, className: 'flex min-[480px]:hidden' },
  { count: 5, className: 'hidden min-[480px]:flex md:hidden' },
  { count: 7, className: 'hidden md:flex lg:hidden' },
  { count: 9, className: 'hidden lg:flex' },
]

const buttonClass =
  'inline-flex min-h-10 items-center rounded-md border px-3 text-sm font-medium transition focus-visible:outline-2'
const numberClass =
  'inline-flex size-10 items-center justify-center rounded-md border text-sm font-medium transition'

function sameItems(a: PageItem[], b: PageItem[]): boolean {
  return a.length === b.length && a.every((x, i) => JSON.stringify(x) === JSON.stringify(b[i]))
}

function Numbers({ items, url, className }: { items: PageItem[]; url: string; className: string }) {
  return (
    <ol className={`items-center gap-1 ${className}`} data-testid="page-numbers">
      {items.map((item) =>
        item.kind === 'gap' ? (
          <li key={`gap-${item.after}`} aria-hidden="true" className="px-1 text-gray-600">
            …
          </li>
        ) : (
          <li key={item.page}>
            {item.current ? (
              // The current page is a link to itself marked aria-current (a plain span may not
              // carry aria-label: the HTML checker refuses it).
              <Link
                href={pageHref(url, item.page)}
                aria-current="page"
                aria-label={`Page ${item.page}`}
                className={`${numberClass} border-primary bg-primary text-on-primary`}
                data-page-number={item.page}
              >
                {item.page}
              </Link>
            ) : (
              <Link
                href={pageHref(url, item.page)}
                aria-label={`Page ${item.page}`}
                className={`${numberClass} border-gray-300 bg-white text-gray-900 hover:border-primary`}
                data-page-number={item.page}
              >
                {item.page}
              </Link>
            )}
          </li>
        ),
      )}
    </ol>
  )
}

export function Pagination({
  pagination,
  className = '',
}: {
  pagination: PaginationMeta
  className?: string
}) {
  const { url } = usePage()
  const { page, total_pages: pages, total_results: total, from, to } = pagination
  if (total === 0) return null

  const windows = BANDS.map((band) => ({ ...band, items: pageWindow(page, pages, band.count) }))
  const single = windows.every((w) => sameItems(w.items, windows[0]!.items))
  const shown = single ? [{ ...windows[0]!, className: 'flex' }] : windows

  return (
    <nav aria-label="Pagination" className={`flex flex-col items-center gap-3 ${className}`}>
      <p className="text-sm text-gray-700" data-testid="pagination-summary">
        Showing {from} to {to} of {total} results
      </p>
      {pages > 1 ? (
        <div className="flex flex-wrap items-center justify-center gap-2">
          {page > 1 ? (
            <Link
              href={pageHref(url, page - 1)}
              rel="prev"
              className={`${buttonClass} border-gray-300 bg-white text-gray-900 hover:border-primary`}
            >
              Previous
            </Link>
          ) : (
            <span aria-disabled="true" className={`${buttonClass} border-gray-200 bg-gray-50 text-gray-600`}>
              Previous
            </span>
          )}
          {shown.map((w) => (
            <Numbers key={w.count} items={w.items} url={url} className={w.className} />
          ))}
          {page < pages ? (
            <Link
              href={pageHref(url, page + 1)}
              rel="next"
              className={`${buttonClass} border-gray-300 bg-white text-gray-900 hover:border-primary`}
            >
              Next
            </Link>
          ) : (
            <span aria-disabled="true" className={`${buttonClass} border-gray-200 bg-gray-50 text-gray-600`}>
              Next
            </span>
          )}
        </div>
      ) : null}
      <p className="text-sm text-gray-700" data-testid="pagination-page">
        Page {page} of {pages}
      </p>
    </nav>
  )
}
