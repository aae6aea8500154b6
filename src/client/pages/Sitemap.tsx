/** Sitemap: sections keyed by name (heading capitalised), each a list of links; empty ones hidden. */
import { Head, Link } from '@inertiajs/react'
import { pageTitle } from '../../shared/titles.ts'
import { useSiteName } from '../lib/shared-props.ts'

export interface SitemapProps {
  sections: Record<string, { name: string; url: string }[]>
  canonical: string
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1)

export default function Sitemap({ sections, canonical }: SitemapProps) {
  const siteName = useSiteName()
  const shown = Object.entries(sections).filter(([, links]) => links.length > 0)
  return (
    <>
      <Head title={pageTitle({ page: 'sitemap' }, siteName)}>
        <link rel="canonical" href={canonical} head-key="canonical" />
      </Head>
      <h1 className="text-3xl font-bold tracking-tight">Sitemap</h1>
      <div className="mt-6 grid gap-8 md:grid-cols-2 lg:grid-cols-3">
        {shown.map(([name, links]) => (
          <section key={name} aria-labelledby={`sitemap-${name.replace(/\W+/g, '-')}`}>
            <h2 id={`sitemap-${name.replace(/\W+/g, '-')}`} className="text-xl font-semibold">
              {capitalise(name)}
            </h2>
            <ul className="mt-2 space-y-1">
              {links.map((l) => (
                <li key={l.url}>
                  <Link href={l.url} className="text-primary hover:underline">
                    {l.name}
                  </Link>
                </li>
              ))}
            </ul>
          </section>
        ))}
      </div>
    </>
  )
}
