/**
 * Blog/Post at /blog/{post slug}: category tree highlighting the post's first category,
 * breadcrumb Blog > primary category > post name, the title and the body blocks.
 */
import { Head } from '@inertiajs/react'
import type { BlogCategoryLink, PresentedBlok } from '../../../shared/content.ts'
import type { Breadcrumb } from '../../../shared/page-props.ts'
import { pageTitle } from '../../../shared/titles.ts'
import { Breadcrumbs } from '../../components/Breadcrumbs.tsx'
import { Blocks } from '../../components/content/Blocks.tsx'
import { BlogCategoryTree } from '../../components/content/BlogCategoryTree.tsx'
import { ContentImage } from '../../components/content/ImageBlock.tsx'
import { useSiteName } from '../../lib/shared-props.ts'

export interface BlogPostProps {
  post: {
    name: string
    blocks: PresentedBlok[]
    image: { filename: string; alt: string } | null
    primaryCategory: { name: string; slug: string } | null
    metaDescription: string
  }
  tree: BlogCategoryLink[]
  activeCategory: string | null
  breadcrumbs: Breadcrumb[]
  canonical: string
}

export default function BlogPost({ post, tree, activeCategory, breadcrumbs, canonical }: BlogPostProps) {
  const siteName = useSiteName()
  return (
    <>
      <Head title={pageTitle({ page: 'blogPost', name: post.name }, siteName)}>
        <meta name="description" content={post.metaDescription} head-key="description" />
        <link rel="canonical" href={canonical} head-key="canonical" />
      </Head>
      <Breadcrumbs items={breadcrumbs} className="mb-4" />
      <div className="grid gap-8 md:grid-cols-[14rem_1fr]">
        <BlogCategoryTree tree={tree} active={activeCategory} />
        <article>
          <h1 className="text-3xl font-bold tracking-tight">{post.name}</h1>
          {post.image ? (
            <ContentImage
              image={post.image}
              width={900}
              eager
              className="mt-6 aspect-[2/1] w-full rounded-md object-cover"
              sizes="(min-width: 768px) 70vw, 100vw"
            />
          ) : null}
          <Blocks blocks={post.blocks} className="mt-6 space-y-8" />
        </article>
      </div>
    </>
  )
}
