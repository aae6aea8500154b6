/**
 * The top of a category page: breadcrumbs, the h1 (with a 'Trade' badge and banner for trade
 * categories flagged ReferrerRequired), then the 'above' text and the long description.
 */
import { HtmlContent } from '../SafeHtml.tsx'
import type { SafeHtml } from '../../../shared/safe-html.ts'
import type { CategoryHeader } from '../../../shared/listing.ts'
import type { Breadcrumb } from '../../../shared/page-props.ts'
import { Breadcrumbs } from '../Breadcrumbs.tsx'

export function RichText({ html, className = '' }: { html: SafeHtml | null; className?: string }) {
  return <HtmlContent html={html} className={`prose-content ${className}`} />
}

export function CategoryIntro({
  category,
  breadcrumbs,
  heading,
}: {
  category: CategoryHeader
  breadcrumbs: readonly Breadcrumb[]
  /** The h1 text; the category name unless given */
  heading?: string
}) {
  const trade = category.referrerRequired
  return (
    <header className={trade ? 'border-l-4 border-amber-600 pl-4' : undefined}>
      <Breadcrumbs items={breadcrumbs} className="mb-4" />
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="text-3xl font-bold tracking-tight">{heading ?? category.name}</h1>
        {trade ? (
          <span
            className="rounded bg-amber-900 px-2 py-1 text-xs font-bold tracking-wider text-white uppercase"
            data-testid="trade-badge"
          >
            Trade
          </span>
        ) : null}
      </div>
      {trade ? (
        <p
          className="mt-3 rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950"
          data-testid="trade-banner"
        >
          Trade range: products and prices for trade customers.
        </p>
      ) : null}
      <RichText html={category.above} className="mt-4" />
      <RichText html={category.longDescription || null} className="mt-4" />
    </header>
  )
}
