import type { FastifyReply, FastifyRequest } from 'fastify'
import { baseUrlOf } from '../../app.ts'

/** Renders the generic content page (page name `Page`) for a slug, or Not Found. */
export async function renderContentPage(request: FastifyRequest, reply: FastifyReply, slug: string) {
  if (!request.site) return reply.callNotFound()
  const page = await request.server.content.page(request.site.id, slug)
  if (!page) return reply.callNotFound()
  const { slug: path, ...props } = page
  return reply.inertia.render('Page', { ...props, canonical: `${baseUrlOf(request)}/${path}` })
}
