/**
 * The one place that turns a request into the plain `WalletContext` the wallet flows take: the
 * session's basket and customer, the shop's origin, the wallet state kept in the session, the
 * request's logger. Routes (and the checkout's /checkout/complete) call it; services know no HTTP.
 */
import type { FastifyReply, FastifyRequest } from 'fastify'
import { currentCustomerId, sessionGet, sessionSet } from '../../auth/auth.session.ts'
import { sessionCartId } from '../../../lib/customer-session.ts'
import { siteBaseUrl } from '../../sites/site-url.ts'
import type { Site } from '../../sites/sites.service.ts'
import type { AmazonSession, PaypalSession, WalletContext } from './wallet.shared.ts'

export const PAYPAL_KEY = 'checkout.paypal'
export const AMAZON_KEY = 'checkout.amazon'

export function walletContext(request: FastifyRequest, site: Site): WalletContext {
  return {
    site,
    cartId: sessionCartId(request),
    customerId: currentCustomerId(request),
    baseUrl: siteBaseUrl(request),
    log: request.log,
    session: {
      paypal() {
        const v = sessionGet<PaypalSession>(request, PAYPAL_KEY)
        return v && typeof v.orderId === 'string' && typeof v.attemptId === 'string' ? v : null
      },
      setPaypal: (v) => sessionSet(request, PAYPAL_KEY, v),
      amazon() {
        const v = sessionGet<AmazonSession>(request, AMAZON_KEY)
        return v && typeof v.state === 'string' && typeof v.cartRef === 'string' ? v : null
      },
      setAmazon: (v) => sessionSet(request, AMAZON_KEY, v),
    },
  }
}

/** A wallet call's rate limit: `max` calls a minute (the shop's rate-limit store). */
export const walletLimit = (max: number) => ({ config: { rateLimit: { max, timeWindow: 60_000 } } })

/**
 * A wallet JSON call's handler (ADR 0240): the request's `WalletContext` and its input (the query
 * of a GET, else the body) in, the flow's plain result sent; a refusal is a domain error the error
 * handler answers. (Every /checkout answer is `private, no-store`: plugins/security-headers.ts.)
 */
export function walletCall(run: (w: WalletContext, input: Record<string, unknown>) => unknown) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const site = request.site
    if (!site) return reply.callNotFound()
    const input = (request.method === 'GET' ? request.query : request.body) ?? {}
    return reply.send(await run(walletContext(request, site), input as Record<string, unknown>))
  }
}
