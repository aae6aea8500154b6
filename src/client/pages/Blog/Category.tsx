/**
 * Blog/Category at /blog/{category} (and /blog for every post): breadcrumb Blog > category,
 * category tree, and the posts with image, primary category, title link, a 300-character
 * preview of the first text block, optional text and Read More.
 */
import { Head, Link } from '@inertiajs/react'
import type { BlogCategoryLink, BlogPostSummary } from '../../../shared/content.ts'
import type { Breadcrumb } from '../../../shared/page-props.ts'
import { pageTitle } from '../../../shared/titles.ts'
import { Breadcrumbs } from '../../components/Breadcrumbs.tsx'
import { BlogCategoryTree } from '../../components/content/BlogCategoryTree.tsx'
import { Html } from '../../components/content/Html.tsx'
import { ContentImage } from '../../components/content/ImageBlock.tsx'
import { useSiteName } from '../../lib/shared-props.ts'

export interface BlogCategoryProps {
  category: { uuid: string; name: string; slug: string } | null
  tree: BlogCategoryLink[]
  posts: BlogPostSummary[]
  breadcrumbs: Breadcrumb[]
  canonical: string
}

export default function BlogCategory({ category, tree, posts, breadcrumbs, canonical }: BlogCategoryProps) {
  const siteName = useSiteName()
  const heading = category?.name ?? 'Blog'
  return (
    <>
      <Head title={pageTitle({ page: 'blogCategory', name: category?.name ?? null }, siteName)}>
        <link rel="canonical" href={canonical} head-key="canonical" />
      </Head>
      <Breadcrumbs items={breadcrumbs} className="mb-4" />
      <div className="grid gap-8 md:grid-cols-[14rem_1fr]">
        <BlogCategoryTree tree={tree} active={category?.uuid ?? null} />
        <div>
          <h1 className="text-3xl font-bold tracking-tight">{heading}</h1>
          {posts.length === 0 ? (
            <p className="mt-6">There are no posts here yet.</p>
          ) : (
            <ul className="mt-6 space-y-8" data-testid="blog-posts">
              {posts.map((p) => (
                <li
                  key={p.uuid}
                  className="grid gap-4 border-b border-gray-200 pb-8 sm:grid-cols-[12rem_1fr]"
                >
                  {p.image ? (
                    <ContentImage
                      image={{ ...p.image, alt: '' }}
                      width={384}
                      sizes="12rem"
                      className="aspect-[3/2] w-full rounded-md object-cover object-left"
                    />
                  ) : (
                    <span className="hidden sm:block" />
                  )}
                  <article>
                    {p.primary_category ? (
                      <p className="text-xs font-semibold uppercase tracking-wide text-gray-600">
                        {p.primary_category.name}
                      </p>
                    ) : null}
                    <h2 className="mt-1 text-xl font-semibold">
                      <Link href={p.url} className="hover:underline">
                        {p.name}
                      </Link>
                    </h2>
                    <p className="mt-2 text-gray-700">
                      {/* The spec's preview is the first 300 characters: a cut one ends with an ellipsis. */}
                      {p.preview.length >= 300 ? `${p.preview.replace(/\s+\S*$/, '')}…` : p.preview}
                    </p>
                    <Html html={p.text} className="mt-2" />
                    <Link
                      href={p.url}
                      className="mt-3 inline-block font-semibold text-primary underline underline-offset-2"
                      aria-label={`Read More: ${p.name}`}
                    >
                      Read More
                    </Link>
                  </article>
                </li>
              ))}
            </ul>
          )}
        </div>
      </div>
    </>
  )
}
