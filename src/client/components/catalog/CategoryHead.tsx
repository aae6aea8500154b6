import { Head } from '@inertiajs/react'

/** Title, meta description and canonical link of a category page (grid or paginated). */
export function CategoryHead({
  title,
  metaDescription,
  canonical,
}: {
  title: string
  metaDescription: string | null | undefined
  canonical: string
}) {
  return (
    <Head title={title}>
      {metaDescription ? <meta name="description" content={metaDescription} head-key="description" /> : null}
      <link rel="canonical" href={canonical} head-key="canonical" />
    </Head>
  )
}
