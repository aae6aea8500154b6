/**
 * Payments in the app: `app.payments` (the PaymentService), the simulators in simulator mode,
 * the checkout page's CSP, and the route providers call without our session or CSRF token:
 * POST /payments/notify/:method (PayPal webhooks, Amazon IPN (SNS), Paya postbacks), verified by
 * the adapter, de-duplicated by event id, then the provider is asked again. Each method's own
 * routes (the 3-D Secure return among them) live in its folder under modules/payment-methods/.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import type { Simulators } from '../../../simulators/index.ts'
import { simulatorProviders, type ProviderConfigs } from '../../config/payments.ts'
import type { Db } from '../../db/client.ts'
import type { PaymentsConfig } from '../../config/payments.ts'
import { checkoutCsp, checkoutOrigins } from './checkout-csp.ts'
import { createOrderMoney, type RefundLedger } from './refunds.ts'

declare module 'fastify' {
  interface FastifyInstance {
    // `payments` (the PaymentService with the providers' clients) is declared where it is made:
    // modules/payment-methods/payment-methods.plugin.ts.
    /** Simulator mode, in-process: the running simulators (their origin for CSP and logs). */
    paymentSimulators: Simulators | null
    /** The providers configured for this run (null: not configured); the methods' plugin reads it. */
    paymentProviders: ProviderConfigs
    /** The refund ledger (ADR 0210): the orders side's `OrderMoney`, and the refund reconciler. */
    refunds: RefundLedger
  }
}

const NOTIFY_METHODS = new Set(['paya', 'paypal', 'amazon'])

export interface PaymentsPluginOptions {
  /** Makes `app.payments` for the configured providers (the provider clients are the methods'). */
  createService(
    db: Db,
    providers: ProviderConfigs,
    mode: PaymentsConfig['mode'],
    timeoutMs: number | undefined,
  ): FastifyInstance['payments']
}

/** How often an instance tells the simulator service its Amazon Pay key again. */
const AMAZON_KEY_REGISTRATION_MS = 30_000

/**
 * Gives the simulator service this instance's Amazon Pay public key. A service still starting
 * (compose starts everything at once) is asked again for a while; then the start stops with one
 * line naming the URL, as for a database that cannot be reached.
 */
async function registerAmazonKey(serviceUrl: string, publicKeyPem: string, attempts = 20): Promise<void> {
  let last = ''
  for (let i = 0; i < attempts; i++) {
    try {
      const res = await fetch(`${serviceUrl}/__sim/control/amazon-keys`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ publicKey: publicKeyPem }),
        signal: AbortSignal.timeout(5000),
      })
      if (res.ok) return
      last = `answered ${res.status}`
      // Only a service that is not (yet) up is worth asking again.
      if (res.status < 500) break
    } catch (err) {
      last = (err as Error).message
    }
    if (i < attempts - 1) await new Promise((resolve) => setTimeout(resolve, 500))
  }
  throw new Error(
    `PAYMENTS_SIMULATOR_URL: the payment simulator service at ${serviceUrl} could not be reached (${last}); start it with npm run simulators`,
  )
}

export const paymentsPlugin = fp(
  async (app: FastifyInstance, opts: PaymentsPluginOptions) => {
    const { payments } = app.config
    let providers: ProviderConfigs | null = payments.providers
    let simulators: Simulators | null = null
    if (payments.mode === 'simulator' && !providers && payments.simulator) {
      // The simulators are loaded here and only here, in simulator mode (ADR 0126): in sandbox and
      // live mode their code is never imported (the server bundle keeps them in chunks of their own).
      // The shop's Amazon Pay key for this run; the simulator checks signatures with its public half.
      // It is made on the thread pool while the simulators load and set up their routes (ADR 0108).
      const { rsaKeyPair } = await import('../../../simulators/keys.ts')
      const keys = rsaKeyPair()
      const { startSimulators } = await import('../../../simulators/index.ts')
      simulators = await startSimulators({
        host: payments.simulator.host,
        port: payments.simulator.port,
        amazonPublicKey: keys.then((made) => made.publicKey),
      })
      const privatePem = (await keys).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()
      providers = simulatorProviders(simulators.origin, privatePem)
      app.log.info(
        { origin: simulators.origin },
        'payment simulators listening (test mode: no real payments)',
      )
      app.addHook('onClose', async () => simulators?.close())
    } else if (payments.mode === 'simulator' && !providers && payments.simulatorService) {
      // A simulator service of its own process (npm run simulators, ADR 0195), shared with the
      // other instances: none starts here. This instance's Amazon Pay key is registered with it.
      const service = payments.simulatorService
      const { rsaKeyPair } = await import('../../../simulators/keys.ts')
      const keys = await rsaKeyPair()
      const publicPem = keys.publicKey.export({ type: 'spki', format: 'pem' }).toString()
      await registerAmazonKey(service.url, publicPem)
      // The service keeps keys in memory: told again now and then, a restarted service knows this
      // instance's key within a minute (a key it knows already is not added twice).
      const again = setInterval(() => {
        registerAmazonKey(service.url, publicPem, 1).catch((err: unknown) =>
          app.log.warn({ err }, 'payment simulator service: registering the Amazon Pay key failed'),
        )
      }, AMAZON_KEY_REGISTRATION_MS)
      again.unref()
      app.addHook('onClose', async () => clearInterval(again))
      const privatePem = keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()
      providers = simulatorProviders(service.url, privatePem, service.publicUrl)
      app.log.info(
        { url: service.url, publicUrl: service.publicUrl },
        'payments through the simulator service (test mode: no real payments)',
      )
    }
    const none: ProviderConfigs = { sagepay: null, paya: null, paypal: null, amazon: null }
    app.decorate('payments', opts.createService(app.db, providers ?? none, payments.mode, payments.timeoutMs))
    app.decorate('paymentSimulators', simulators)
    // The provider methods (modules/payment-methods/, one folder each) join the checkout's seam.
    app.decorate('paymentProviders', providers ?? none)
    // Its hooks on orders (the unclaimed-payment resolver, a pending order's settlement, giving
    // back a refused order's payment) are wired by the app: orders/orders.plugin.ts.
    app.payments.onReconcileError = (attempt, err) =>
      app.log.warn({ err, attempt }, 'payment reconcile failed; retried after the lease')
    // The refund ledger: a call's lease outlasts the adapters' time-out (20 s unless configured),
    // so the reconciler never asks about a refund whose call may still be answered.
    const refunds = createOrderMoney({
      db: app.db,
      payments: app.payments,
      callLeaseMs: Math.max(60_000, 3 * (payments.timeoutMs ?? 20_000)),
    })
    refunds.onReconcileError = (refund, err) =>
      app.log.warn({ err, refund }, 'refund reconcile failed; retried after the lease')
    app.decorate('refunds', refunds)
    app.payments.refundNotified = (refs) => refunds.notified(refs)

    // The checkout page's own CSP: the providers' origins, there and nowhere else.
    const origins = checkoutOrigins(providers ?? none, payments.mode)
    const isCheckoutPage = (request: FastifyRequest) =>
      request.method === 'GET' && request.routeOptions.url === '/checkout'
    app.addHook('preHandler', async (request, reply) => {
      // A document's CSP is its first load's: an Inertia visit from another page (the basket)
      // to the checkout becomes a full page load, so the checkout's own policy applies.
      if (!isCheckoutPage(request) || !request.headers['x-inertia']) return
      const from = URL.parse(request.headers.referer ?? '')?.pathname ?? ''
      if (from && from !== '/checkout')
        return reply.code(409).header('x-inertia-location', request.url).send()
    })
    app.addHook('onSend', async (request, reply, payload) => {
      const policy = reply.getHeader('content-security-policy')
      if (isCheckoutPage(request) && typeof policy === 'string') {
        // Any origins a registered method declares besides (PaymentMethod.origins).
        const declared = app.paymentMethods.origins()
        const all = {
          script: [...new Set([...origins.script, ...declared.script])],
          frame: [...new Set([...origins.frame, ...declared.frame])],
          connect: [...new Set([...origins.connect, ...declared.connect])],
          form: origins.form,
        }
        reply.header('content-security-policy', checkoutCsp(policy, all))
      }
      return payload
    })

    await app.register(async (scope) => {
      // Signatures cover the exact bytes: keep the body as a string.
      scope.removeAllContentTypeParsers()
      scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 256 * 1024 }, (_req, body, done) =>
        done(null, body),
      )
      scope.post<{ Params: { method: string } }>(
        '/payments/notify/:method',
        { config: { csrf: false } },
        async (request, reply) => {
          const method = request.params.method
          if (!NOTIFY_METHODS.has(method)) return reply.code(404).send({ error: 'not found' })
          try {
            const result = await app.payments.handleNotification(method as 'paya' | 'paypal' | 'amazon', {
              headers: request.headers,
              rawBody: typeof request.body === 'string' ? request.body : '',
            })
            if (result === 'invalid') return reply.code(400).send({ result })
            return reply.code(200).send({ result })
          } catch (err) {
            // The provider could not be asked: answer 503 so it delivers again later.
            request.log.warn({ err, method }, 'payment notification not processed')
            return reply.code(503).send({ result: 'retry' })
          }
        },
      )
    })
  },
  { name: 'shop-payments' },
)
