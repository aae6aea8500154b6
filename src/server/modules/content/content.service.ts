import { LRUCache } from 'lru-cache'
import type { Breadcrumb } from '../../../shared/page-props.ts'
import type { Db } from '../../db/client.ts'
import { sanitizeBreadcrumb, sanitizeRichText } from '../../lib/sanitize.ts'
import { findContentPage } from './content.queries.ts'

/** Props of the `Page` component, minus the per-request canonical URL. */
export interface ContentPageProps {
  slug: string
  title: string
  metaDescription: string
  keywords: string | null
  noindex: boolean
  breadcrumbs: Breadcrumb[] | null
  body: string
}

const MISSING = Symbol('missing')

/**
 * Content pages, presented (sanitised) once and kept in a bounded in-process cache: they are read
 * on every visit and change rarely. Unknown slugs are cached too, so probing random paths does not
 * reach the database; the bound keeps that from growing without limit. Anything that writes
 * content calls `invalidate()`.
 */
export class ContentService {
  private readonly cache = new LRUCache<string, ContentPageProps | typeof MISSING>({
    max: 5000,
    ttl: 5 * 60_000,
  })

  constructor(private readonly db: Db) {}

  async page(siteId: number, slug: string): Promise<ContentPageProps | null> {
    const key = `${siteId}:${slug}`
    const cached = this.cache.get(key)
    if (cached !== undefined) return cached === MISSING ? null : cached
    const row = await findContentPage(this.db, siteId, slug)
    const props: ContentPageProps | null = row && {
      slug: row.slug,
      title: row.title,
      metaDescription: row.metaDescription,
      keywords: row.keywords,
      noindex: row.noindex,
      breadcrumbs: row.breadcrumbs?.map((b) => ({ name: sanitizeBreadcrumb(b.name), url: b.url })) ?? null,
      body: sanitizeRichText(row.body),
    }
    this.cache.set(key, props ?? MISSING)
    return props
  }

  invalidate(): void {
    this.cache.clear()
  }
}
