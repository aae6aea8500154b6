import type { FastifyInstance } from 'fastify'
import { baseUrlOf } from '../../app.ts'

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*(?:\/[a-z0-9]+(?:-[a-z0-9]+)*){0,4}$/

/**
 * Generic content pages (page name `Page`) at /{slug}. Registered last: any explicit route wins,
 * and an unknown slug falls through to the Not Found page.
 */
export async function contentRoutes(app: FastifyInstance) {
  app.get('/*', async (request, reply) => {
    const slug = ((request.params as { '*': string })['*'] ?? '').replace(/\/+$/, '')
    if (!request.site || !SLUG.test(slug)) return reply.callNotFound()
    const page = await app.content.page(request.site.id, slug)
    if (!page) return reply.callNotFound()
    const { slug: path, ...props } = page
    return reply.inertia.render('Page', { ...props, canonical: `${baseUrlOf(request)}/${path}` })
  })
}
