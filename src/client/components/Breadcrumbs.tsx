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
 * Shown only on screens 640 px wide or narrower (BREADCRUMB_COLLAPSE_QUERY), and hidden there
 * (breadcrumbs.css, with the trail's other named classes).
 */
export const NARROW_ONLY = 'crumb-narrow'
export const HIDDEN_WHEN_NARROW = 'crumb-wide'

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
      <nav aria-label="Breadcrumb" className={className ? `crumbs ${className}` : 'crumbs'}>
        <ol>
          {hiddenWhenNarrow > 0 ? (
            <li className={NARROW_ONLY}>
              <button
                type="button"
                onClick={() => setExpanded(true)}
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
                className={entry.index < hiddenWhenNarrow ? HIDDEN_WHEN_NARROW : undefined}
              >
                {i > 0 && <span aria-hidden="true">/</span>}
                {isBreadcrumbLink(entry) ? (
                  <Link href={entry.crumb.url ?? '/'}>
                    <HtmlContent as="span" html={entry.crumb.name} />
                  </Link>
                ) : (
                  <HtmlContent
                    as="span"
                    keepEmpty
                    aria-current={entry.isCurrent ? 'page' : undefined}
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
