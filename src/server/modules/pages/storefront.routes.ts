import type { FastifyInstance } from 'fastify'
import { renderCategoryPage } from '../catalog/category.routes.ts'
import { renderProductPage } from '../catalog/product.routes.ts'
import { renderContentPage } from '../content/content.routes.ts'

/** Lower-case path segments of letters, digits and hyphens, at most six deep. */
const PATH = /^[a-z0-9]+(?:-[a-z0-9]+)*(?:\/[a-z0-9]+(?:-[a-z0-9]+)*){0,5}$/

/**
 * Every other GET path: a category, else a product, else a content page, else Not Found.
 * Registered last, so explicit routes always win. Junk paths never reach the database.
 */
export async function storefrontRoutes(app: FastifyInstance) {
  app.get('/*', async (request, reply) => {
    const path = ((request.params as { '*': string })['*'] ?? '').replace(/\/+$/, '')
    if (!request.site || !PATH.test(path)) return reply.callNotFound()
    const target = await app.catalog.resolvePath(request.site.id, `/${path}`)
    if (target?.kind === 'category') return renderCategoryPage(request, reply, target.id)
    if (target?.kind === 'product') return renderProductPage(request, reply, target.id)
    return renderContentPage(request, reply, path)
  })
}
