/**
 * Breadcrumb trail. On screens 640 px wide or narrower a trail longer than two collapses to an
 * ellipsis plus the last two entries. The collapse is CSS (a media query), not JavaScript, so the
 * server's HTML already has the trail's final height and nothing shifts at hydration (issue 18:
 * it was most of the product page's layout shift on phones). Names are `SafeHtml`: sanitised by the server to strong/b/em/i/br, or escaped text.
 * Also emits the schema.org BreadcrumbList into the page head.
 */
import { HtmlContent } from './SafeHtml.tsx'
import { Head, Link } from '@inertiajs/react'
import { useState } from 'react'
import {
  breadcrumbJsonLd,
  breadcrumbTrail,
  isBreadcrumbLink,
  serializeJsonLd,
} from '../../shared/breadcrumbs.ts'
import type { Breadcrumb } from '../../shared/page-props.ts'
import { useShared } from '../lib/shared-props.ts'

/**
 * Shown only on screens 640 px wide or narrower (BREADCRUMB_COLLAPSE_QUERY), and hidden there:
 * Tailwind needs the class names written out whole.
 */
export const NARROW_ONLY = 'hidden [@media(max-width:640px)]:flex'
export const HIDDEN_WHEN_NARROW = '[@media(max-width:640px)]:hidden'

export function Breadcrumbs({ items, className = '' }: { items: readonly Breadcrumb[]; className?: string }) {
  const [expanded, setExpanded] = useState(false)
  const { site } = useShared()
  if (items.length === 0) return null

  // The collapsed trail's ellipsis says how many leading entries narrow screens hide.
  const first = breadcrumbTrail(items, !expanded)[0]
  const hiddenWhenNarrow = first?.kind === 'ellipsis' ? first.hidden : 0
  const trail = breadcrumbTrail(items, false)
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
          {hiddenWhenNarrow > 0 ? (
            <li className={`${NARROW_ONLY} items-center gap-x-1`}>
              <button
                type="button"
                onClick={() => setExpanded(true)}
                className="rounded px-1 text-gray-700 hover:bg-gray-100"
                aria-label={`Show ${hiddenWhenNarrow} more breadcrumb ${hiddenWhenNarrow === 1 ? 'link' : 'links'}`}
              >
                …
              </button>
            </li>
          ) : null}
          {trail.map((entry, i) =>
            entry.kind === 'crumb' ? (
              <li
                key={entry.index}
                className={`flex items-center gap-x-1 ${entry.index < hiddenWhenNarrow ? HIDDEN_WHEN_NARROW : ''}`}
              >
                {i > 0 && (
                  <span aria-hidden="true" className="text-gray-400">
                    /
                  </span>
                )}
                {isBreadcrumbLink(entry) ? (
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
            ) : null,
          )}
        </ol>
      </nav>
    </>
  )
}
