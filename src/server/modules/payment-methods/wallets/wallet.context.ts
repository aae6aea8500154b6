/**
 * The one place that turns a request into the plain `WalletContext` the wallet flows take: the
 * session's basket and customer, the shop's origin, the wallet state kept in the session, the
 * request's logger. Routes (and the checkout's /checkout/complete) call it; services know no HTTP.
 */
import type { FastifyRequest } from 'fastify'
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
