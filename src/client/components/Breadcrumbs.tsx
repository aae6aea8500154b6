/**
 * Breadcrumb trail. On screens 640 px wide or narrower a trail longer than two collapses to an
 * ellipsis plus the last two entries (the server renders the full trail; the browser collapses
 * after hydration). Names are `SafeHtml`: sanitised by the server to strong/b/em/i/br, or escaped text.
 * Also emits the schema.org BreadcrumbList into the page head.
 */
import { HtmlContent } from './SafeHtml.tsx'
import { Head, Link } from '@inertiajs/react'
import { useState } from 'react'
import {
  BREADCRUMB_COLLAPSE_QUERY,
  breadcrumbJsonLd,
  breadcrumbTrail,
  isBreadcrumbLink,
  serializeJsonLd,
} from '../../shared/breadcrumbs.ts'
import type { Breadcrumb } from '../../shared/page-props.ts'
import { useMediaQuery } from '../lib/media.ts'
import { useShared } from '../lib/shared-props.ts'

export function Breadcrumbs({ items, className = '' }: { items: readonly Breadcrumb[]; className?: string }) {
  const narrow = useMediaQuery(BREADCRUMB_COLLAPSE_QUERY)
  const [expanded, setExpanded] = useState(false)
  const { site } = useShared()
  if (items.length === 0) return null

  const trail = breadcrumbTrail(items, narrow && !expanded)
  const jsonLd = serializeJsonLd(breadcrumbJsonLd(items, site?.baseUrl ?? '/'))

  return (
    <>
      <Head>
        <script type="application/ld+json" head-key="breadcrumb-list">
          {jsonLd}
        </script>
      </Head>
      <nav aria-label="Breadcrumb" className={`text-sm text-gray-700 ${className}`}>
        <ol className="flex flex-wrap items-center gap-x-1 gap-y-1">
          {trail.map((entry, i) => (
            <li key={entry.kind === 'crumb' ? entry.index : 'ellipsis'} className="flex items-center gap-x-1">
              {i > 0 && (
                <span aria-hidden="true" className="text-gray-400">
                  /
                </span>
              )}
              {entry.kind === 'ellipsis' ? (
                <button
                  type="button"
                  onClick={() => setExpanded(true)}
                  className="rounded px-1 text-gray-700 hover:bg-gray-100"
                  aria-label={`Show ${entry.hidden} more breadcrumb ${entry.hidden === 1 ? 'link' : 'links'}`}
                >
                  …
                </button>
              ) : isBreadcrumbLink(entry) ? (
                <Link
                  href={entry.crumb.url ?? '/'}
                  className="text-primary underline-offset-2 hover:underline"
                >
                  <HtmlContent as="span" html={entry.crumb.name} />
                </Link>
              ) : (
                <HtmlContent
                  as="span"
                  keepEmpty
                  aria-current={entry.isCurrent ? 'page' : undefined}
                  className={entry.isCurrent ? 'font-semibold text-gray-900' : undefined}
                  html={entry.crumb.name}
                />
              )}
            </li>
          ))}
        </ol>
      </nav>
    </>
  )
}
