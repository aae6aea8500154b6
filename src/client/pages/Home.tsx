/** Home page: the site name, the home story's blocks and the top-level categories. */
import { Head, Link } from '@inertiajs/react'
import type { PresentedBlok } from '../../shared/content.ts'
import { pageTitle } from '../../shared/titles.ts'
import { Blocks } from '../components/content/Blocks.tsx'
import { useShared } from '../lib/shared-props.ts'

export interface HomeProps {
  categories?: { name: string; url: string }[]
  /** Blocks of the home story */
  blocks?: PresentedBlok[]
  metaDescription?: string
}

export default function Home({ categories = [], blocks = [], metaDescription = '' }: HomeProps) {
  const { site } = useShared()
  const name = site?.name ?? ''
  return (
    <>
      <Head title={pageTitle({ page: 'home' }, name)}>
        {metaDescription ? (
          <meta name="description" content={metaDescription} head-key="description" />
        ) : null}
        {site ? <link rel="canonical" href={`${site.baseUrl}/`} head-key="canonical" /> : null}
      </Head>
      <h1 className="text-3xl font-bold tracking-tight md:text-4xl">{name}</h1>
      <Blocks blocks={blocks} className="mt-6 space-y-10" />
      {categories.length > 0 && (
        <section aria-labelledby="home-categories" className="mt-10">
          <h2 id="home-categories" className="text-xl font-semibold">
            Shop by category
          </h2>
          <ul className="mt-4 grid grid-cols-2 gap-3 md:grid-cols-4">
            {categories.map((c) => (
              <li key={c.url}>
                <Link
                  href={c.url}
                  className="flex h-full min-h-16 items-center justify-center rounded-md border border-gray-200 bg-white p-4 text-center font-medium shadow-sm transition hover:border-primary hover:shadow"
                >
                  {c.name}
                </Link>
              </li>
            ))}
          </ul>
        </section>
      )}
    </>
  )
}
