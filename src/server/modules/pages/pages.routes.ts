import type { FastifyInstance } from 'fastify'

/** Storefront pages that do not belong to a richer module yet. */
export async function pageRoutes(app: FastifyInstance) {
  app.get('/', async (request, reply) => {
    if (!request.site) return reply.inertia.render('SiteSetup', { host: request.hostname }, { status: 404 })
    // Top-level categories arrive with the catalogue; until then the list is empty.
    return reply.inertia.render('Home', { categories: [] as { name: string; url: string }[] })
  })

  app.get('/fast-order', async (request, reply) => {
    if (!request.site) return reply.callNotFound()
    return reply.inertia.render('FastOrder', {})
  })
}
