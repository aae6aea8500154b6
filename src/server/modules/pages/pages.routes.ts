import type { FastifyInstance } from 'fastify'
import { imagemapRoutes } from '../catalog/imagemap.routes.ts'

/** Storefront pages that do not belong to a richer module yet. */
export async function pageRoutes(app: FastifyInstance) {
  app.get('/', async (request, reply) => {
    if (!request.site) return reply.inertia.render('SiteSetup', { host: request.hostname }, { status: 404 })
    const [categories, home] = await Promise.all([
      app.catalog.topLevel(request.site.id),
      app.content.page(request.site.id, 'home'),
    ])
    return reply.inertia.render('Home', {
      categories,
      blocks: home?.blocks ?? [],
      metaDescription: home?.metaDescription ?? '',
    })
  })

  app.get('/fast-order', async (request, reply) => {
    if (!request.site) return reply.callNotFound()
    return reply.inertia.render('FastOrder', {})
  })

  await app.register(imagemapRoutes)
}
