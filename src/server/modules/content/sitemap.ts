/**
 * The Sitemap page's sections and the sitemap.xml URL list for search engines.
 */
import { and, asc, eq } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { categories, productGroups } from '../catalog/catalog.tables.ts'
import type { ContentService } from './content.service.ts'
import type { Story } from './storyblok.types.ts'
import { escapeHtml as xmlEscape } from '../../../shared/safe-html.ts'

export interface SitemapLink {
  name: string
  url: string
}

/** Generic content pages that belong in a sitemap (not settings, forms, search areas or noindex). */
export function listedPages(stories: Story[]): Story[] {
  return stories.filter(
    (s) =>
      s.content.component === 'page' &&
      s.full_slug !== 'home' &&
      s.content.noindex !== true &&
      !s.full_slug.startsWith('search/'),
  )
}

/** Sections keyed by name, in display order; the page hides empty ones. */
export async function sitemapSections(
  content: ContentService,
  topLevel: SitemapLink[],
  siteId: number,
): Promise<Record<string, SitemapLink[]>> {
  const stories = await content.allStories(siteId, '')
  const pages = listedPages(stories)
    .map((s) => ({
      name: typeof s.content.title === 'string' && s.content.title ? s.content.title : s.name,
      url: `/${s.full_slug}`,
    }))
    .sort((a, b) => a.name.localeCompare(b.name))
  const tree = await content.blogTree(siteId)
  const posts = await content.blogPosts(siteId)
  return {
    categories: topLevel,
    pages,
    'blog categories': tree.flatMap((c) => [
      { name: c.name, url: c.url },
      ...c.children.map((k) => ({ name: k.name, url: k.url })),
    ]),
    'blog posts': posts.map((p) => ({ name: p.summary.name, url: p.summary.url })),
  }
}

/** sitemap.xml: home, content pages, blog, published categories and products (at most 50,000 URLs). */
export async function sitemapXml(
  db: Db,
  content: ContentService,
  siteId: number,
  baseUrl: string,
): Promise<string> {
  const stories = await content.allStories(siteId, '')
  const urls: { loc: string; lastmod?: string }[] = [{ loc: '/' }]
  for (const s of listedPages(stories)) urls.push({ loc: `/${s.full_slug}`, lastmod: s.updated_at })
  const blog = stories.filter(
    (s) => s.full_slug.startsWith('blog/') && ['post', 'blog_category'].includes(s.content.component),
  )
  if (blog.length) urls.push({ loc: '/blog' })
  for (const s of blog) urls.push({ loc: `/${s.full_slug}`, lastmod: s.updated_at })
  const cats = await db
    .select({ url: categories.url })
    .from(categories)
    .where(and(eq(categories.siteId, siteId), eq(categories.published, true)))
    .orderBy(asc(categories.url))
  for (const c of cats) urls.push({ loc: c.url })
  const groups = await db
    .select({ url: productGroups.url })
    .from(productGroups)
    .where(and(eq(productGroups.siteId, siteId), eq(productGroups.published, true)))
    .orderBy(asc(productGroups.url))
    .limit(50_000 - urls.length)
  for (const g of groups) urls.push({ loc: g.url })
  const body = urls
    .slice(0, 50_000)
    .map(
      (u) =>
        `<url><loc>${xmlEscape(baseUrl + u.loc)}</loc>${u.lastmod ? `<lastmod>${u.lastmod.slice(0, 10)}</lastmod>` : ''}</url>`,
    )
    .join('\n')
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${body}\n</urlset>\n`
}
