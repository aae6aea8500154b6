/**
 * The payment provider simulators, one Fastify app on its own loopback port: a different origin
 * from the shop, so the card iframe, the hosted form and the postMessage origin checks behave as
 * with the real providers. Started by the shop in PAYMENTS_MODE=simulator (in-process, unless
 * PAYMENTS_SIMULATOR_URL names a simulator service), by the contract tests, and as a process of its
 * own by `npm run simulators` (main.ts), which several shop instances share. Each provider lives
 * under its own prefix: /opayo, /paya, /paypal, /amazon; GET /healthz and /readyz answer once listening.
 *
 * Control endpoint (tests, demos): POST /__sim/control/faults {provider, match, kind, times},
 * DELETE /__sim/control/faults, POST /__sim/control/notify {paypal?, paya?, amazon?} (webhook URLs),
 * POST /__sim/control/knobs {provider, knob, ...}: the same test controls as the in-process
 * `Simulators` objects (settle-later payments, recorded amounts, settled batches), for tests that
 * drive the built app over HTTP. POST /__sim/control/amazon-keys {publicKey} (PEM): a shop
 * instance's Amazon Pay public key, accepted besides the others for signatures.
 */
import { createPublicKey, type KeyObject } from 'node:crypto'
import formbody from '@fastify/formbody'
import Fastify, { type FastifyInstance } from 'fastify'
import { z } from 'zod'
import { amazonSimulator, type AmazonSimControl } from './amazon.ts'
import { Faults } from './faults.ts'
import { opayoSimulator, type OpayoSimControl } from './opayo.ts'
import { payaSimulator, type PayaSimControl } from './paya.ts'
import { paypalSimulator, type PaypalSimControl } from './paypal.ts'

export interface SimulatorOptions {
  host?: string
  /** 0 = any free port */
  port?: number
  /**
   * The shop's Amazon Pay public key (PEM or key object): the simulator checks request and button
   * signatures with it. A promise (a key still being made) is awaited before the simulators listen.
   * The simulator service (main.ts) starts with none: each shop instance registers its own through
   * POST /__sim/control/amazon-keys.
   */
  amazonPublicKey?: string | KeyObject | Promise<string | KeyObject>
  /**
   * The origin the browser reaches the simulators at, when it is not the one they listen on (a
   * proxy in front of the simulator service): their pages, scripts and links name it.
   */
  publicOrigin?: string
}

export interface Simulators {
  /** Where they listen (http://127.0.0.1:<port>) */
  origin: string
  /** Where the browser reaches them: `publicOrigin` if given, else `origin`. */
  publicOrigin: string
  app: FastifyInstance
  faults: Faults
  opayo: OpayoSimControl
  paypal: PaypalSimControl
  paya: PayaSimControl
  amazon: AmazonSimControl
  close(): Promise<void>
}

const faultSchema = z.object({
  provider: z.enum(['opayo', 'paya', 'paypal', 'amazon']),
  match: z.string().min(1).max(200),
  kind: z.enum(['error500', 'timeout', 'timeoutAfter', 'reset']),
  times: z.number().int().min(1).max(100).optional(),
})
const amountText = z.string().regex(/^\d{1,7}(\.\d{1,2})?$/)
const currencyCode = z.string().regex(/^[A-Z]{3}$/)
const id = z.string().min(1).max(200)
const knobSchema = z.union([
  z.object({ provider: z.literal('opayo'), knob: z.literal('endOfDay') }),
  z.object({
    provider: z.literal('opayo'),
    knob: z.literal('recordNextAmount'),
    amountMinor: z.number().int().min(1).max(100_000_000),
  }),
  z.object({ provider: z.literal('paya'), knob: z.literal('settleBatch') }),
  z.object({ provider: z.literal('paya'), knob: z.literal('recordNextAmount'), amount: amountText }),
  z.object({
    provider: z.literal('paypal'),
    knob: z.literal('captureNextAs'),
    status: z.literal('PENDING'),
    reason: z.string().max(100).optional(),
  }),
  z.object({
    provider: z.literal('paypal'),
    knob: z.literal('settleCapture'),
    captureId: id,
    to: z.enum(['COMPLETED', 'DECLINED']),
  }),
  z.object({
    provider: z.literal('paypal'),
    knob: z.literal('recordNextAmount'),
    value: amountText,
    currencyCode: currencyCode.optional(),
  }),
  z.object({ provider: z.literal('paypal'), knob: z.literal('refundNextAs'), status: z.literal('PENDING') }),
  z.object({
    provider: z.literal('paypal'),
    knob: z.literal('settleRefund'),
    refundId: id,
    to: z.enum(['COMPLETED', 'FAILED']),
  }),
  z.object({
    provider: z.literal('amazon'),
    knob: z.literal('nextChargeAs'),
    state: z.enum(['AuthorizationInitiated', 'CaptureInitiated']),
  }),
  z.object({
    provider: z.literal('amazon'),
    knob: z.literal('settleCharge'),
    chargeId: id,
    to: z.enum(['Authorized', 'Captured', 'Declined']),
  }),
  z.object({
    provider: z.literal('amazon'),
    knob: z.literal('recordNextAmount'),
    amount: amountText,
    currencyCode: currencyCode.optional(),
  }),
  z.object({
    provider: z.literal('amazon'),
    knob: z.literal('refundsSettleAfter'),
    ms: z.number().int().min(0).max(600_000).nullable(),
    to: z.enum(['Refunded', 'Declined']).optional(),
  }),
  z.object({
    provider: z.literal('amazon'),
    knob: z.literal('settleRefund'),
    refundId: id,
    to: z.enum(['Refunded', 'Declined']),
  }),
  z.object({
    provider: z.literal('amazon'),
    knob: z.literal('passTime'),
    // Up to a year: enough for an authorisation's 30 days to lapse.
    ms: z
      .number()
      .int()
      .min(0)
      .max(366 * 24 * 60 * 60 * 1000),
  }),
])
/** The shop instances' Amazon Pay keys the simulator accepts at most (each registers one per start). */
const MAX_MERCHANT_KEYS = 100
const merchantKeySchema = z.object({ publicKey: z.string().min(100).max(10_000) })
const notifySchema = z.object({
  paypal: z.url().nullable().optional(),
  paya: z.object({ url: z.url(), user: z.string(), password: z.string() }).nullable().optional(),
  amazon: z.url().nullable().optional(),
})

export async function startSimulators(options: SimulatorOptions): Promise<Simulators> {
  const host = options.host ?? '127.0.0.1'
  const app = Fastify({
    logger: false,
    forceCloseConnections: true,
  })
  // Amazon signs the raw body: keep it next to the parsed JSON.
  app.addContentTypeParser(['application/json', 'text/plain'], { parseAs: 'string' }, (req, body, done) => {
    ;(req as unknown as { rawBody: string }).rawBody = String(body)
    try {
      done(null, body ? JSON.parse(String(body)) : {})
    } catch (err) {
      ;(err as { statusCode?: number }).statusCode = 400
      done(err as Error, undefined)
    }
  })
  await app.register(formbody)
  const faults = new Faults()
  // The origin the pages name (the public one if given), known once the simulators listen.
  let publicOrigin = ''
  const getOrigin = () => publicOrigin
  // The SNS signing certificate is made on first use (an IPN or a fetch of the certificate):
  // selfsigned and its X.509 libraries take a noticeable part of a cold start to load.
  let sns: Promise<{ cert: string; privateKey: string }> | null = null
  const snsCertificate = () =>
    (sns ??= import('selfsigned')
      // `default` (module.exports of this CommonJS package): the server bundle's chunk of a
      // CommonJS package has no named exports (ADR 0113).
      .then(({ default: selfsigned }) =>
        selfsigned.generate([{ name: 'commonName', value: 'sns.simulator.invalid' }], {
          keySize: 2048,
          notAfterDate: new Date(Date.now() + 365 * 86400_000),
          algorithm: 'sha256',
        }),
      )
      .then((pems) => ({ cert: pems.cert, privateKey: pems.private })))

  const opayo = opayoSimulator(app, faults, getOrigin)
  const paya = payaSimulator(app, faults)
  const paypal = paypalSimulator(app, faults, getOrigin)
  // The shop's key is set before the simulators listen, so every request finds it; a simulator
  // service learns its shops' keys from POST /__sim/control/amazon-keys.
  const merchantKeys: KeyObject[] = []
  const amazon = amazonSimulator(app, faults, getOrigin, () => merchantKeys, snsCertificate)

  // Liveness and readiness for a proxy or an orchestrator: the simulators answer once listening.
  app.get('/healthz', async () => ({ status: 'ok' }))
  app.get('/readyz', async () => ({ status: 'ready' }))
  app.post('/__sim/control/amazon-keys', async (req, reply) => {
    const parsed = merchantKeySchema.safeParse(req.body)
    if (!parsed.success) return reply.code(422).send({ errors: parsed.error.issues.map((i) => i.message) })
    let key: KeyObject
    try {
      key = createPublicKey(parsed.data.publicKey)
    } catch {
      return reply.code(422).send({ errors: ['publicKey: not a PEM public key'] })
    }
    if (key.asymmetricKeyType !== 'rsa')
      return reply.code(422).send({ errors: ['publicKey: Amazon Pay keys are RSA keys'] })
    if (!merchantKeys.some((known) => known.equals(key))) {
      // The oldest goes first: instances restarted many times leave keys no one signs with.
      if (merchantKeys.length >= MAX_MERCHANT_KEYS) merchantKeys.shift()
      merchantKeys.push(key)
    }
    return reply.code(204).send()
  })

  app.post('/__sim/control/faults', async (req, reply) => {
    const parsed = faultSchema.safeParse(req.body)
    if (!parsed.success) return reply.code(422).send({ errors: parsed.error.issues.map((i) => i.message) })
    faults.add(parsed.data)
    return reply.code(204).send()
  })
  app.delete('/__sim/control/faults', async (_req, reply) => {
    faults.clear()
    return reply.code(204).send()
  })
  app.post('/__sim/control/notify', async (req, reply) => {
    const parsed = notifySchema.safeParse(req.body)
    if (!parsed.success) return reply.code(422).send({ errors: parsed.error.issues.map((i) => i.message) })
    if (parsed.data.paypal !== undefined) paypal.setWebhookUrl(parsed.data.paypal)
    if (parsed.data.paya !== undefined) paya.setPostback(parsed.data.paya)
    if (parsed.data.amazon !== undefined) amazon.setIpnUrl(parsed.data.amazon)
    return reply.code(204).send()
  })
  app.post('/__sim/control/knobs', async (req, reply) => {
    const parsed = knobSchema.safeParse(req.body)
    if (!parsed.success) return reply.code(422).send({ errors: parsed.error.issues.map((i) => i.message) })
    const k = parsed.data
    try {
      if (k.provider === 'opayo') {
        if (k.knob === 'endOfDay') opayo.endOfDay()
        else opayo.recordNextAmount(k.amountMinor)
      } else if (k.provider === 'paya') {
        if (k.knob === 'settleBatch') paya.settleBatch()
        else paya.recordNextAmount(k.amount)
      } else if (k.provider === 'paypal') {
        if (k.knob === 'captureNextAs') paypal.captureNextAs(k.status, k.reason)
        else if (k.knob === 'settleCapture') await paypal.settleCapture(k.captureId, k.to)
        else if (k.knob === 'recordNextAmount') paypal.recordNextAmount(k.value, k.currencyCode)
        else if (k.knob === 'refundNextAs') paypal.refundNextAs(k.status)
        else await paypal.settleRefund(k.refundId, k.to)
      } else if (k.knob === 'nextChargeAs') amazon.nextChargeAs(k.state)
      else if (k.knob === 'settleCharge') await amazon.settleCharge(k.chargeId, k.to)
      else if (k.knob === 'recordNextAmount') amazon.recordNextAmount(k.amount, k.currencyCode)
      else if (k.knob === 'refundsSettleAfter') amazon.refundsSettleAfter(k.ms, k.to)
      else if (k.knob === 'passTime') amazon.passTime(k.ms)
      else await amazon.settleRefund(k.refundId, k.to)
    } catch (err) {
      return reply.code(409).send({ errors: [(err as Error).message] })
    }
    return reply.code(204).send()
  })
  app.get('/', async (_req, reply) =>
    reply.type('text/plain').send('Payment provider simulators: /opayo /paya /paypal /amazon'),
  )

  const given = await options.amazonPublicKey
  if (given) merchantKeys.push(typeof given === 'string' ? createPublicKey(given) : given)
  await app.listen({ host, port: options.port ?? 0 })
  const address = app.server.address()
  const port = typeof address === 'object' && address ? address.port : options.port
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`
  publicOrigin = options.publicOrigin ? new URL(options.publicOrigin).origin : origin
  return {
    origin,
    publicOrigin,
    app,
    faults,
    opayo,
    paypal,
    paya,
    amazon,
    close: async () => {
      faults.releaseAll()
      await app.close()
    },
  }
}
