import type { FastifyReply, FastifyRequest } from 'fastify'

/** The Product page (being built: issue 3). */
export async function renderProductPage(_request: FastifyRequest, reply: FastifyReply, _groupId: number) {
  return reply.callNotFound()
}
