/**
 * Payment configuration, parsed from the environment map config.ts hands over (config.ts stays
 * the only reader of process.env). Three modes:
 *
 * - simulator (default when no provider credential is set): every provider is the local
 *   simulator app on its own loopback port; credentials are the simulator's fixed ones. With
 *   PAYMENTS_SIMULATOR_URL the shop starts none and uses that simulator service (`npm run
 *   simulators`), which several instances share (ADR 0195).
 * - sandbox: each provider whose credentials are set talks to its sandbox (or the *_BASE_URL given).
 * - live: the same against production hosts; the shop refuses to start if any provider URL points
 *   at a loopback address or at the simulator.
 *
 * A provider without complete credentials in sandbox/live mode is simply not offered.
 */
import { z } from 'zod'

export type PaymentsMode = 'simulator' | 'sandbox' | 'live'

export interface OpayoConfig {
  /** …/api/v1 */
  baseUrl: string
  /** Where the browser loads sagepay.js (the drop-in). */
  scriptUrl: string
  vendorName: string
  integrationKey: string
  integrationPassword: string
}

export interface PayaConfig {
  /** API host; paths start with /v2 */
  baseUrl: string
  /**
   * Where the browser loads the hosted payment form, when not at `baseUrl` (a simulator service
   * the shop's server reaches at another address than the browser does).
   */
  formBaseUrl?: string
  developerId: string
  userId: string
  userApiKey: string
  /** HMAC key of the hosted payment form. */
  userHashKey: string
  locationId: string
  productTransactionId: string
  /** Optional Basic credentials the postback configuration sends back to us. */
  postbackUser: string | null
  postbackPassword: string | null
}

export interface PaypalConfig {
  baseUrl: string
  /** The JS SDK script without its query string: https://www.paypal.com/sdk/js */
  sdkUrl: string
  clientId: string
  clientSecret: string
  /** Needed to verify webhooks; without it webhooks are refused. */
  webhookId: string | null
}

export interface AmazonConfig {
  /** https://pay-api.amazon.eu (the region's API host) */
  baseUrl: string
  scriptUrl: string
  region: 'eu' | 'uk' | 'na' | 'jp'
  merchantId: string
  publicKeyId: string
  /** PEM */
  privateKey: string
  storeId: string
  sandbox: boolean
  /** Hosts allowed to serve the SNS signing certificate of an IPN. */
  snsCertHost: RegExp
}

export interface ProviderConfigs {
  sagepay: OpayoConfig | null
  paya: PayaConfig | null
  paypal: PaypalConfig | null
  amazon: AmazonConfig | null
}

export interface PaymentsConfig {
  mode: PaymentsMode
  /** Simulator mode: where the simulator app listens (port 0 = any free port). */
  simulator: { host: string; port: number } | null
  /**
   * Simulator mode with PAYMENTS_SIMULATOR_URL: the simulator service the shop uses instead of
   * starting its own (`url` for the server's calls, `publicUrl` for the browser's). Origins.
   */
  simulatorService?: SimulatorServiceUrls | null
  /** Sandbox/live: resolved now. Simulator: null until the simulator listens (simulatorProviders). */
  providers: ProviderConfigs | null
  /** Time-out of one provider call; past it the attempt is unknown and the reconciler takes over. */
  timeoutMs: number
}

export interface SimulatorServiceUrls {
  url: string
  publicUrl: string
}

/** The simulator service's own settings (`npm run simulators`, src/simulators/main.ts). */
export interface SimulatorServiceConfig {
  host: string
  port: number
  /** The origin the browser reaches it at, if not where it listens (a proxy). */
  publicUrl: string | null
}

/**
 * The demo customer's saved card (seeded): a reusable Opayo card identifier that the simulator
 * knows from its start, as a sandbox account would know a card saved earlier (Visa test card
 * 4929 0000 0000 6, any security code). Only ever meaningful against the simulator.
 */
export const SIMULATOR_DEMO_CARD = {
  token: 'demo-seed-card-0006',
  number: '4929000000006',
  last4Digits: '0006',
  cardType: 'Visa',
  expiry: '1229',
  cardholderName: 'Demo Customer',
} as const

/** The simulators' fixed credentials: public test values, never secrets. */
export const SIMULATOR_CREDENTIALS = {
  opayo: {
    vendorName: 'sandbox',
    integrationKey: 'sim-integration-key',
    integrationPassword: 'sim-integration-password',
  },
  paya: {
    developerId: 'sim-developer',
    userId: 'sim-user',
    userApiKey: 'sim-user-api-key',
    userHashKey: 'sim-user-hash-key',
    locationId: 'sim-location',
    productTransactionId: 'sim-product-transaction',
  },
  paypal: { clientId: 'sim-client-id', clientSecret: 'sim-client-secret', webhookId: 'SIM-WEBHOOK-ID' },
  amazon: {
    merchantId: 'SIMMERCHANT',
    publicKeyId: 'SANDBOX-SIMULATOR-KEY',
    storeId: 'amzn1.application-oa2-client.sim',
  },
} as const

/**
 * Provider settings pointing at a simulator listening at `origin` (http://127.0.0.1:4194): the
 * server calls it there; the browser loads its scripts and pages from `publicOrigin` (the same
 * unless a proxy stands in front of a simulator service).
 */
export function simulatorProviders(
  origin: string,
  amazonPrivateKey: string,
  publicOrigin: string = origin,
): ProviderConfigs {
  const c = SIMULATOR_CREDENTIALS
  return {
    sagepay: {
      ...c.opayo,
      baseUrl: `${origin}/opayo/api/v1`,
      scriptUrl: `${publicOrigin}/opayo/api/v1/js/sagepay.js`,
    },
    paya: {
      ...c.paya,
      baseUrl: `${origin}/paya`,
      ...(publicOrigin === origin ? {} : { formBaseUrl: `${publicOrigin}/paya` }),
      postbackUser: 'sim-postback',
      postbackPassword: 'sim-postback-password',
    },
    paypal: { ...c.paypal, baseUrl: `${origin}/paypal`, sdkUrl: `${publicOrigin}/paypal/sdk/js` },
    amazon: {
      ...c.amazon,
      baseUrl: `${origin}/amazon`,
      scriptUrl: `${publicOrigin}/amazon/checkout.js`,
      region: 'uk',
      privateKey: amazonPrivateKey,
      sandbox: true,
      // The simulator names its signing certificate at the origin it shows the browser.
      snsCertHost: new RegExp(`^${new URL(publicOrigin).host.replace(/[.]/g, '\\.')}$`),
    },
  }
}

const url = z.url({ protocol: /^https?$/ })
const text = z.string().min(1).max(4000)
/** An http(s) origin (a trailing `/` allowed), given back without the slash. */
const origin = z
  .string()
  .max(2000)
  .transform((raw, ctx) => {
    const parsed = URL.parse(raw)
    if (
      !parsed ||
      !/^https?:$/.test(parsed.protocol) ||
      parsed.pathname !== '/' ||
      parsed.search ||
      parsed.hash
    ) {
      ctx.addIssue({
        code: 'custom',
        message: `must be an http(s) origin such as http://simulators:3100 (no path), not '${raw}'`,
      })
      return z.NEVER
    }
    return parsed.origin
  })

export const paymentsEnvSchema = z.object({
  PAYMENTS_MODE: z.enum(['simulator', 'sandbox', 'live']).optional(),
  PAYMENTS_SIMULATOR_HOST: z.string().min(1).default('127.0.0.1'),
  PAYMENTS_SIMULATOR_PORT: z.coerce.number().int().min(0).max(65535).default(3100),
  PAYMENTS_SIMULATOR_URL: origin.optional(),
  PAYMENTS_SIMULATOR_PUBLIC_URL: origin.optional(),
  PAYMENTS_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(20_000),
  OPAYO_BASE_URL: url.optional(),
  OPAYO_VENDOR_NAME: text.optional(),
  OPAYO_INTEGRATION_KEY: text.optional(),
  OPAYO_INTEGRATION_PASSWORD: text.optional(),
  PAYA_BASE_URL: url.optional(),
  PAYA_DEVELOPER_ID: text.optional(),
  PAYA_USER_ID: text.optional(),
  PAYA_USER_API_KEY: text.optional(),
  PAYA_USER_HASH_KEY: text.optional(),
  PAYA_LOCATION_ID: text.optional(),
  PAYA_PRODUCT_TRANSACTION_ID: text.optional(),
  PAYA_POSTBACK_USER: text.optional(),
  PAYA_POSTBACK_PASSWORD: text.optional(),
  PAYPAL_BASE_URL: url.optional(),
  PAYPAL_SDK_URL: url.optional(),
  PAYPAL_CLIENT_ID: text.optional(),
  PAYPAL_CLIENT_SECRET: text.optional(),
  PAYPAL_WEBHOOK_ID: text.optional(),
  AMAZON_PAY_BASE_URL: url.optional(),
  AMAZON_PAY_SCRIPT_URL: url.optional(),
  AMAZON_PAY_REGION: z.enum(['eu', 'uk', 'na', 'jp']).default('uk'),
  AMAZON_PAY_MERCHANT_ID: text.optional(),
  AMAZON_PAY_PUBLIC_KEY_ID: text.optional(),
  AMAZON_PAY_PRIVATE_KEY: z.string().min(100).max(10_000).optional(),
  AMAZON_PAY_STORE_ID: text.optional(),
})

const CREDENTIAL_VARS = [
  'OPAYO_INTEGRATION_KEY',
  'PAYA_USER_API_KEY',
  'PAYPAL_CLIENT_SECRET',
  'AMAZON_PAY_PRIVATE_KEY',
] as const

const HOSTS = {
  sandbox: {
    opayo: 'https://sandbox.opayo.eu.elavon.com/api/v1',
    paya: 'https://api.sandbox.payaconnect.com',
    paypal: 'https://api-m.sandbox.paypal.com',
  },
  live: {
    opayo: 'https://live.opayo.eu.elavon.com/api/v1',
    paya: 'https://api.payaconnect.com',
    paypal: 'https://api-m.paypal.com',
  },
} as const
const AMAZON_API = {
  eu: 'https://pay-api.amazon.eu',
  uk: 'https://pay-api.amazon.eu',
  na: 'https://pay-api.amazon.com',
  jp: 'https://pay-api.amazon.jp',
}
const AMAZON_SCRIPT = {
  eu: 'https://static-eu.payments-amazon.com/checkout.js',
  uk: 'https://static-eu.payments-amazon.com/checkout.js',
  na: 'https://static-na.payments-amazon.com/checkout.js',
  jp: 'https://static-fe.payments-amazon.com/checkout.js',
}

/** True for 127.0.0.0/8, ::1, localhost, 0.0.0.0 and the simulator's own host. */
export function isLoopbackUrl(raw: string, simulatorHost?: string): boolean {
  const host = new URL(raw).hostname.replace(/^\[|\]$/g, '').toLowerCase()
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host === '::1' ||
    host === '0.0.0.0' ||
    /^127\.\d+\.\d+\.\d+$/.test(host) ||
    host === simulatorHost?.toLowerCase()
  )
}

/** Turns `\n` escapes (one-line env files) back into a PEM's line breaks. */
function pem(value: string): string {
  return value.includes('\\n') ? value.replace(/\\n/g, '\n') : value
}

export function loadPaymentsConfig(
  env: Record<string, string | undefined>,
  issues: string[],
): PaymentsConfig {
  const parsed = paymentsEnvSchema.safeParse(env)
  if (!parsed.success) {
    for (const i of parsed.error.issues) issues.push(`${i.path.join('.')}: ${i.message}`)
    return { mode: 'simulator', simulator: null, providers: null, timeoutMs: 20_000 }
  }
  const e = parsed.data
  const anyCredential = CREDENTIAL_VARS.some((v) => e[v])
  const mode: PaymentsMode = e.PAYMENTS_MODE ?? (anyCredential ? 'sandbox' : 'simulator')
  if (mode === 'simulator') {
    if (anyCredential)
      issues.push('PAYMENTS_MODE: simulator mode cannot be combined with provider credentials')
    if (e.PAYMENTS_SIMULATOR_URL) {
      // A simulator service of its own process (npm run simulators), shared by every instance.
      const service = {
        url: e.PAYMENTS_SIMULATOR_URL,
        publicUrl: e.PAYMENTS_SIMULATOR_PUBLIC_URL ?? e.PAYMENTS_SIMULATOR_URL,
      }
      return {
        mode,
        simulator: null,
        simulatorService: service,
        providers: null,
        timeoutMs: e.PAYMENTS_TIMEOUT_MS,
      }
    }
    // Tests start their own simulators (any free port) unless a port is given explicitly.
    const start = env.NODE_ENV !== 'test' || env.PAYMENTS_SIMULATOR_PORT !== undefined
    return {
      mode,
      simulator: start ? { host: e.PAYMENTS_SIMULATOR_HOST, port: e.PAYMENTS_SIMULATOR_PORT } : null,
      providers: null,
      timeoutMs: e.PAYMENTS_TIMEOUT_MS,
    }
  }
  const hosts = HOSTS[mode]
  const providers: ProviderConfigs = {
    sagepay:
      e.OPAYO_VENDOR_NAME && e.OPAYO_INTEGRATION_KEY && e.OPAYO_INTEGRATION_PASSWORD
        ? {
            baseUrl: e.OPAYO_BASE_URL ?? hosts.opayo,
            scriptUrl: `${e.OPAYO_BASE_URL ?? hosts.opayo}/js/sagepay.js`,
            vendorName: e.OPAYO_VENDOR_NAME,
            integrationKey: e.OPAYO_INTEGRATION_KEY,
            integrationPassword: e.OPAYO_INTEGRATION_PASSWORD,
          }
        : null,
    paya:
      e.PAYA_DEVELOPER_ID &&
      e.PAYA_USER_ID &&
      e.PAYA_USER_API_KEY &&
      e.PAYA_USER_HASH_KEY &&
      e.PAYA_LOCATION_ID &&
      e.PAYA_PRODUCT_TRANSACTION_ID
        ? {
            baseUrl: e.PAYA_BASE_URL ?? hosts.paya,
            developerId: e.PAYA_DEVELOPER_ID,
            userId: e.PAYA_USER_ID,
            userApiKey: e.PAYA_USER_API_KEY,
            userHashKey: e.PAYA_USER_HASH_KEY,
            locationId: e.PAYA_LOCATION_ID,
            productTransactionId: e.PAYA_PRODUCT_TRANSACTION_ID,
            postbackUser: e.PAYA_POSTBACK_USER ?? null,
            postbackPassword: e.PAYA_POSTBACK_PASSWORD ?? null,
          }
        : null,
    paypal:
      e.PAYPAL_CLIENT_ID && e.PAYPAL_CLIENT_SECRET
        ? {
            baseUrl: e.PAYPAL_BASE_URL ?? hosts.paypal,
            sdkUrl: e.PAYPAL_SDK_URL ?? 'https://www.paypal.com/sdk/js',
            clientId: e.PAYPAL_CLIENT_ID,
            clientSecret: e.PAYPAL_CLIENT_SECRET,
            webhookId: e.PAYPAL_WEBHOOK_ID ?? null,
          }
        : null,
    amazon:
      e.AMAZON_PAY_MERCHANT_ID &&
      e.AMAZON_PAY_PUBLIC_KEY_ID &&
      e.AMAZON_PAY_PRIVATE_KEY &&
      e.AMAZON_PAY_STORE_ID
        ? {
            baseUrl: e.AMAZON_PAY_BASE_URL ?? AMAZON_API[e.AMAZON_PAY_REGION],
            scriptUrl: e.AMAZON_PAY_SCRIPT_URL ?? AMAZON_SCRIPT[e.AMAZON_PAY_REGION],
            region: e.AMAZON_PAY_REGION,
            merchantId: e.AMAZON_PAY_MERCHANT_ID,
            publicKeyId: e.AMAZON_PAY_PUBLIC_KEY_ID,
            privateKey: pem(e.AMAZON_PAY_PRIVATE_KEY),
            storeId: e.AMAZON_PAY_STORE_ID,
            sandbox: mode === 'sandbox',
            snsCertHost: /^sns\.[a-z0-9-]+\.amazonaws\.com$/,
          }
        : null,
  }
  if (mode === 'live') {
    const urls: [string, string | undefined][] = [
      ['OPAYO_BASE_URL', providers.sagepay?.baseUrl],
      ['PAYA_BASE_URL', providers.paya?.baseUrl],
      ['PAYPAL_BASE_URL', providers.paypal?.baseUrl],
      ['PAYPAL_SDK_URL', providers.paypal?.sdkUrl],
      ['AMAZON_PAY_BASE_URL', providers.amazon?.baseUrl],
      ['AMAZON_PAY_SCRIPT_URL', providers.amazon?.scriptUrl],
    ]
    const simulatorHosts = [e.PAYMENTS_SIMULATOR_URL, e.PAYMENTS_SIMULATOR_PUBLIC_URL]
      .filter((u) => u !== undefined)
      .map((u) => new URL(u).host)
    for (const [name, value] of urls) {
      if (
        value &&
        (isLoopbackUrl(value, e.PAYMENTS_SIMULATOR_HOST) ||
          simulatorHosts.includes(new URL(value).host) ||
          !value.startsWith('https://'))
      ) {
        issues.push(`${name}: live payments must use the provider's https address, not '${value}'`)
      }
    }
    if (!Object.values(providers).some(Boolean))
      issues.push('PAYMENTS_MODE: live needs at least one provider configured')
  }
  return { mode, simulator: null, providers, timeoutMs: e.PAYMENTS_TIMEOUT_MS }
}

/**
 * The simulator service's settings (`npm run simulators`), from the environment map config.ts
 * hands over: where it listens (PAYMENTS_SIMULATOR_HOST, PAYMENTS_SIMULATOR_PORT) and the origin
 * the browser reaches it at (PAYMENTS_SIMULATOR_PUBLIC_URL), the names the shop uses for them.
 * PAYMENTS_MODE, if given, must say simulator.
 */
export function loadSimulatorServiceConfig(
  env: Record<string, string | undefined>,
  issues: string[],
): SimulatorServiceConfig {
  const parsed = paymentsEnvSchema
    .pick({
      PAYMENTS_SIMULATOR_HOST: true,
      PAYMENTS_SIMULATOR_PORT: true,
      PAYMENTS_SIMULATOR_PUBLIC_URL: true,
    })
    .safeParse(env)
  if (!parsed.success) {
    for (const i of parsed.error.issues) issues.push(`${i.path.join('.')}: ${i.message}`)
    return { host: '127.0.0.1', port: 3100, publicUrl: null }
  }
  const e = parsed.data
  // A service named as a live or sandbox payments one is a mistake in its deployment.
  if (env.PAYMENTS_MODE !== undefined && env.PAYMENTS_MODE !== 'simulator')
    issues.push(
      `PAYMENTS_MODE: the payment simulator service runs only in simulator mode, not '${env.PAYMENTS_MODE}'`,
    )
  return {
    host: e.PAYMENTS_SIMULATOR_HOST,
    port: e.PAYMENTS_SIMULATOR_PORT,
    publicUrl: e.PAYMENTS_SIMULATOR_PUBLIC_URL ?? null,
  }
}
