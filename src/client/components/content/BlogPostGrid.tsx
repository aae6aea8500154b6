/** A grid of blog posts; each links to '/{full_slug}'. */
import { Link } from '@inertiajs/react'
import type { BlogPostSummary, PresentedBlok } from '../../../shared/content.ts'
import { str } from './fields.ts'
import { ContentImage } from './ImageBlock.tsx'

export function BlogPostGrid({ blok }: { blok: PresentedBlok }) {
  const posts = (Array.isArray(blok.posts) ? blok.posts : []) as BlogPostSummary[]
  if (posts.length === 0) return null
  const title = str(blok.title)
  return (
    <section aria-label={title || 'Blog posts'}>
      {title ? <h2 className="mb-4 text-xl font-semibold">{title}</h2> : null}
      <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
        {posts.map((p) => (
          <li key={p.uuid} className="overflow-hidden rounded-md border border-gray-200 bg-white">
            {p.image ? (
              <ContentImage
                image={{ ...p.image, alt: '' }}
                width={480}
                className="aspect-[2/1] w-full object-cover"
                sizes="(min-width: 1024px) 33vw, (min-width: 640px) 50vw, 100vw"
              />
            ) : null}
            <div className="p-4">
              {p.primary_category ? (
                <p className="text-xs font-semibold uppercase tracking-wide text-gray-600">
                  {p.primary_category.name}
                </p>
              ) : null}
              <h3 className="mt-1 font-semibold">
                <Link href={p.url} className="hover:underline">
                  {p.name}
                </Link>
              </h3>
              <p className="mt-2 line-clamp-3 text-sm text-gray-700">{p.preview}</p>
            </div>
          </li>
        ))}
      </ul>
    </section>
  )
}
