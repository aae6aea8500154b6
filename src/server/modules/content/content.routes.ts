import type { FastifyInstance } from 'fastify'
import { baseUrlOf } from '../../app.ts'
import { sanitizeBreadcrumb, sanitizeRichText } from '../../lib/sanitize.ts'
import { findContentPage } from './content.queries.ts'

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*(?:\/[a-z0-9]+(?:-[a-z0-9]+)*){0,4}$/

/**
 * Generic content pages (page name `Page`) at /{slug}. Registered last: any explicit route wins,
 * and an unknown slug falls through to the Not Found page.
 */
export async function contentRoutes(app: FastifyInstance) {
  app.get('/*', async (request, reply) => {
    const slug = ((request.params as { '*': string })['*'] ?? '').replace(/\/+$/, '')
    if (!request.site || !SLUG.test(slug)) return reply.callNotFound()
    const page = await findContentPage(app.db, request.site.id, slug)
    if (!page) return reply.callNotFound()
    return reply.inertia.render('Page', {
      title: page.title,
      metaDescription: page.metaDescription,
      keywords: page.keywords,
      noindex: page.noindex,
      canonical: `${baseUrlOf(request)}/${page.slug}`,
      breadcrumbs: page.breadcrumbs?.map((b) => ({ name: sanitizeBreadcrumb(b.name), url: b.url })) ?? null,
      body: sanitizeRichText(page.body),
    })
  })
}
