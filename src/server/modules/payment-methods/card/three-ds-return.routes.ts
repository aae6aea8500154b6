/**
 * POST /payments/3ds/notify: where the 3-D Secure ACS returns the shopper after a card challenge
 * (a cross-site POST, so no SameSite=Lax cookie arrives). It changes nothing: it hands cres and
 * threeDSSessionData to the checkout page in the parent frame, which posts them to
 * /checkout/complete (card.method.ts finds the attempt by its opaque reference).
 */
import type { FastifyInstance } from 'fastify'
import { scriptNonce } from '../../../plugins/security-headers.ts'

export async function threeDSReturnRoutes(app: FastifyInstance): Promise<void> {
  app.post('/payments/3ds/notify', { config: { csrf: false } }, async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>
    const cres = typeof body.cres === 'string' ? body.cres : ''
    const data = typeof body.threeDSSessionData === 'string' ? body.threeDSSessionData : ''
    const valid = /^[A-Za-z0-9_=+/-]{1,20000}$/.test(cres) && /^[A-Za-z0-9_-]{1,1024}$/.test(data)
    const message = JSON.stringify({
      type: 'payments:3ds',
      threeDSSessionData: data,
      aCSResponse: cres,
      threeDSVersion: '2',
    })
    const nonce = scriptNonce(reply)
    return reply
      .code(valid ? 200 : 400)
      .type('text/html')
      .send(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Verifying your payment</title></head><body><p>${valid ? 'Verifying your payment…' : 'The card check could not be completed. Please try again.'}</p>${
          valid
            ? `<script nonce="${nonce}">(window.parent!==window?window.parent:window.top).postMessage(${message.replace(/</g, '\\u003c')}, location.origin)</script>`
            : ''
        }</body></html>`,
      )
  })
}
