/**
 * The PayPal checkout calls (spec §7; ADR 0073). Thin: paypal.checkout.ts does the work and
 * answers plain results; its refusals are domain errors plugins/error-handler.ts answers (ADR
 * 0240). JSON in and out (CSRF as every POST).
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
    return reply.send(await wallets.paypal.paypalCreateOrder(walletContext(request, site), body.reApproval))
  })

  app.get('/checkout/paypal/get-order-information', limit(60), async (request, reply) => {
    const site = request.site
    if (!site) return reply.callNotFound()
    const q = request.query as Record<string, unknown>
    reply.header('cache-control', 'no-store')
    return reply.send(
      await wallets.paypal.paypalOrderInformation(walletContext(request, site), q.paypalOrderId),
    )
  })

  app.post('/checkout/paypal/update-shipping-options', limit(60), async (request, reply) => {
    const site = request.site
    if (!site) return reply.callNotFound()
    const body = (request.body ?? {}) as Record<string, unknown>
    return reply.send(await wallets.paypal.paypalUpdateShipping(walletContext(request, site), body.data))
  })
}
