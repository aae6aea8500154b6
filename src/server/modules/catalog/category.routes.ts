import type { FastifyReply, FastifyRequest } from 'fastify'

/** Category and CategoryPaginated pages (being built: issue 3). */
export async function renderCategoryPage(_request: FastifyRequest, reply: FastifyReply, _categoryId: number) {
  return reply.callNotFound()
}
