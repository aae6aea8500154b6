/**
 * The PayPal checkout calls (spec §7; ADR 0073). Thin: paypal.checkout.ts does the work. JSON in
 * and out (CSRF as every POST).
 */
import type { FastifyInstance } from 'fastify'
import { walletContext } from '../wallets/wallet.context.ts'

const limit = (max: number) => ({ config: { rateLimit: { max, timeWindow: 60_000 } } })

export async function paypalRoutes(app: FastifyInstance): Promise<void> {
  const wallets = app.wallets
  app.post('/checkout/paypal/create-order', limit(30), async (request, reply) => {
    const site = request.site
    if (!site) return reply.callNotFound()
    const body = (request.body ?? {}) as Record<string, unknown>
    const r = body.reApproval
    if (r !== undefined && r !== null && typeof r !== 'boolean' && r !== 'true' && r !== 'false')
      return reply.code(422).send({
        message: 'The reApproval field must be true or false.',
        errors: { reApproval: ['The reApproval field must be true or false.'] },
      })
    const res = await wallets.paypal.paypalCreateOrder(
      walletContext(request, site),
      r === true || r === 'true',
    )
    return reply.code(res.status).send(res.body)
  })

  app.get('/checkout/paypal/get-order-information', limit(60), async (request, reply) => {
    const site = request.site
    if (!site) return reply.callNotFound()
    const q = request.query as Record<string, unknown>
    const res = await wallets.paypal.paypalOrderInformation(walletContext(request, site), q.paypalOrderId)
    return reply.code(res.status).header('cache-control', 'no-store').send(res.body)
  })

  app.post('/checkout/paypal/update-shipping-options', limit(60), async (request, reply) => {
    const site = request.site
    if (!site) return reply.callNotFound()
    const body = (request.body ?? {}) as Record<string, unknown>
    const res = await wallets.paypal.paypalUpdateShipping(walletContext(request, site), body.data)
    return reply.code(res.status).send(res.body)
  })
}
