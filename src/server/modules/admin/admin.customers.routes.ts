import type { FastifyInstance } from 'fastify'
export async function adminCustomerRoutes(_app: FastifyInstance) {}
