/** Generic content page (a content-system story): title, meta tags, optional breadcrumbs, blocks. */
import { Head } from '@inertiajs/react'
import type { PresentedBlok } from '../../shared/content.ts'
import type { Breadcrumb } from '../../shared/page-props.ts'
import { pageTitle } from '../../shared/titles.ts'
import { Breadcrumbs } from '../components/Breadcrumbs.tsx'
import { Blocks } from '../components/content/Blocks.tsx'
import { useSiteName } from '../lib/shared-props.ts'

export interface PageProps {
  title: string
  metaDescription: string
  keywords?: string | null
  noindex?: boolean
  breadcrumbs?: Breadcrumb[] | null
  /** Content blocks; rich text already sanitised by the server */
  blocks: PresentedBlok[]
  /** Absolute URL of the canonical page */
  canonical?: string | null
}

export default function Page({
  title,
  metaDescription,
  keywords,
  noindex,
  breadcrumbs,
  blocks,
  canonical,
}: PageProps) {
  const siteName = useSiteName()
  return (
    <>
      <Head title={pageTitle({ page: 'story', title }, siteName)}>
        <meta name="description" content={metaDescription} head-key="description" />
        {keywords ? <meta name="keywords" content={keywords} head-key="keywords" /> : null}
        {noindex ? <meta name="robots" content="noindex" head-key="robots" /> : null}
        {canonical ? <link rel="canonical" href={canonical} head-key="canonical" /> : null}
      </Head>
      {breadcrumbs && breadcrumbs.length > 0 ? <Breadcrumbs items={breadcrumbs} className="mb-4" /> : null}
      <article>
        <h1 className="text-3xl font-bold tracking-tight">{title}</h1>
        <Blocks blocks={blocks} className="mt-6 space-y-8" />
      </article>
    </>
  )
}
