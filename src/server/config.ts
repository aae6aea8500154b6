/**
 * The only reader of process.env. Everything the server can be told from outside is parsed and
 * checked here once; the rest of the code receives a typed Config.
 */
import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { z } from 'zod'
import {
  loadPaymentsConfig,
  loadSimulatorServiceConfig,
  type PaymentsConfig,
  type SimulatorServiceConfig,
} from './config/payments.ts'
import type { UploadConfig } from './lib/upload-store.ts'

export const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..').replace(/\/dist$/, '')

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes')

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  HOST: z.string().min(1).default('localhost'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional(),
  LOG_FORMAT: z.enum(['auto', 'pretty', 'json']).default('auto'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  PGLITE_DIR: z.string().min(1).optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL')
    .optional(),
  SESSION_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  SESSION_TTL_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  COOKIE_SECURE: z.enum(['true', 'false', 'auto']).optional(),
  TRUST_PROXY: bool.default(false),
  BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(50 * 1024 * 1024)
    .default(1024 * 1024),
  SSR: bool.optional(),
  SEED_ON_START: bool.optional(),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(600),
  SHARE_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(10),
  SERVER_TIMING: bool.default(false),
  SEARCH_ENGINE: z.enum(['embedded', 'algolia']).default('embedded'),
  SEARCH_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(300),
  SEARCH_SUGGESTIONS: bool.default(true),
  SEARCH_BEST_SELLERS: bool.default(true),
  SEARCH_INTERNAL_IPS: z.string().max(4000).optional(),
  ALGOLIA_APP_ID: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'letters, digits, - and _ only')
    .optional(),
  ALGOLIA_API_KEY: z.string().min(1).max(256).optional(),
  ALGOLIA_INDEX_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_-]{0,64}$/, 'letters, digits, - and _ only')
    .default('shop_'),
  ALGOLIA_HOSTS: z.string().max(2000).optional(),
  ALGOLIA_INSIGHTS_HOST: z.string().max(500).optional(),
  CONTENT_PROVIDER: z.enum(['local', 'storyblok']).default('local'),
  STORYBLOK_TOKEN: z.string().min(1).optional(),
  STORYBLOK_TOKENS: z
    .string()
    .regex(/^[a-z0-9-]+:[^,\s]+(,[a-z0-9-]+:[^,\s]+)*$/, 'must be site-code:token pairs separated by commas')
    .optional(),
  STORYBLOK_VERSION: z.enum(['draft', 'published']).default('published'),
  STORYBLOK_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  STORYBLOK_WEBHOOK_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
  CONTENT_PREVIEW_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  CONTENT_SCRIPT_ORIGINS: z
    .string()
    .regex(/^https:\/\/[^,\s/]+(,https:\/\/[^,\s/]+)*$/, 'must be https:// origins separated by commas')
    .optional(),
  MAIL_TRANSPORT: z.enum(['outbox', 'smtp']).default('outbox'),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  MAIL_FROM: z.string().min(3).max(200).optional(),
  MAIL_OUTBOX_PAGE: bool.optional(),
  RECAPTCHA_SECRET: z.string().min(1).optional(),
  MAIL_CAPTURE_FILE: z.string().min(1).optional(),
  SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(60_000).optional(),
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  /** Tests only: webhook endpoints may be plain http on this machine or a private address */
  WEBHOOKS_ALLOW_LOCAL_ENDPOINTS: bool.optional(),
  /** Where uploaded and generated files live: a local folder (default) or an S3-compatible bucket */
  UPLOAD_STORE: z.enum(['local', 's3']).default('local'),
  UPLOAD_DIR: z.string().min(1).optional(),
  /** The operator's word that UPLOAD_DIR is one folder every instance reads (a network volume) */
  UPLOAD_DIR_SHARED: bool.default(false),
  S3_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a bucket name')
    .optional(),
  S3_REGION: z.string().min(1).max(64).default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_PREFIX: z
    .string()
    .regex(/^([A-Za-z0-9_-]+\/)*$/, 'must be folder names, each ending in /')
    .default(''),
  /** How often the mail queue worker looks for due order e-mails (ms); 0 turns it off */
  MAIL_QUEUE_INTERVAL_MS: z.coerce.number().int().min(0).max(3_600_000).optional(),
  /** SMTP: time to open the connection, to get the server's greeting, of silence on the socket (ms) */
  SMTP_CONNECTION_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  SMTP_GREETING_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  SMTP_SOCKET_TIMEOUT_MS: z.coerce.number().int().min(100).max(300_000).default(20_000),
  /** Longest one send may take before it is abandoned (ms); must stay below MAIL_LEASE_MS */
  MAIL_SEND_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(45_000),
  /** Job queue driver: auto = pg-boss on PostgreSQL outside tests, the in-process table otherwise */
  JOB_QUEUE: z.enum(['auto', 'local', 'pg-boss']).default('auto'),
  /** How often an idle job worker looks for due jobs (ms) */
  JOB_POLL_MS: z.coerce.number().int().min(50).max(60_000).default(1000),
  /** How long a claimed message is hidden from other workers (ms) */
  MAIL_LEASE_MS: z.coerce.number().int().min(1000).max(3_600_000).default(120_000),
  ADDRESS_LOOKUP: z.enum(['embedded', 'ideal-postcodes']).default('embedded'),
  IDEAL_POSTCODES_API_KEY: z.string().min(1).max(200).optional(),
  IDEAL_POSTCODES_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
  ADDRESS_LOOKUP_TIMEOUT_MS: z.coerce.number().int().min(100).max(30_000).default(3000),
})

export interface Config {
  env: 'development' | 'production' | 'test'
  isDev: boolean
  host: string
  port: number
  logLevel: string
  /** Human-readable log lines (a terminal) rather than JSON (piped, collected) */
  logPretty: boolean
  db:
    | { driver: 'pglite'; dataDir: string | null; poolSize: number }
    | { driver: 'postgres'; url: string; poolSize: number }
  redisUrl: string | null
  /** 'auto': Secure on HTTPS requests (behind TLS or a trusted proxy), not on plain HTTP. */
  session: { secret: string; ttlSeconds: number; cookieSecure: boolean | 'auto' }
  trustProxy: boolean
  bodyLimit: number
  ssr: boolean
  /** Seed the demo shop into an empty database at start (default: embedded database only). */
  seedOnStart: boolean
  rateLimitPerMinute: number
  /**
   * Where rate-limit counts live (ADR 0176): Redis when REDIS_URL is set, else PostgreSQL when
   * DATABASE_URL is (several instances share one count), else this process's memory.
   */
  rateLimitStore: 'redis' | 'postgres' | 'memory'
  /** Basket shares per minute per client address (each one may send e-mails) */
  shareRateLimitPerMinute: number
  /** Adds `Server-Timing: app;dur=<ms>` to every response (the bench reads it). Off by default. */
  serverTiming: boolean
  search: {
    engine: 'embedded' | 'algolia'
    rateLimitPerMinute: number
    /** The dropdown shows query suggestions (hits per section follow, spec §9) */
    suggestions: boolean
    /** /search shows 'Best selling products' when nothing matches */
    bestSellers: boolean
    /** Visitor addresses whose searches and clicks are not recorded (the shop's own offices) */
    internalIps: string[]
    algolia: {
      appId: string
      apiKey: string
      indexPrefix: string
      /** Override of Algolia's hosts (a local stand-in in tests): 'http://127.0.0.1:4399' */
      hosts: AlgoliaHost[] | null
      insightsHost: AlgoliaHost | null
    } | null
  }
  /** outbox: messages are stored in the mail_outbox table; smtp: sent through smtpUrl */
  mail: {
    transport: 'outbox' | 'smtp'
    smtpUrl: string | null
    from: string
    outboxPage: boolean
    /** Mail queue polling interval (ms); 0: no polling (a placed order still kicks the worker) */
    queueIntervalMs: number
    /** SMTP socket timeouts (ms); their sum stays below sendTimeoutMs */
    smtpTimeouts: { connectionMs: number; greetingMs: number; socketMs: number }
    /** Longest one send may take (ms); below leaseMs, so a send never outlives its claim */
    sendTimeoutMs: number
    /** How long a claimed message is hidden from other workers (ms) */
    leaseMs: number
  }
  /** The job queue (ADR 0185) */
  jobs: { driver: 'auto' | 'local' | 'pg-boss'; pollMs: number }
  /** Secret key for sites whose bot check is reCAPTCHA. */
  recaptchaSecret: string | null
  /** Development and browser tests: auth e-mails appended to this file as JSON lines. */
  mailCaptureFile: string | null
  /** Bearer token `/metrics` requires; null = open. */
  metricsToken: string | null
  /**
   * Webhook endpoints may be http on this machine and private addresses (development, tests);
   * false in production unless WEBHOOKS_ALLOW_LOCAL_ENDPOINTS (a browser test's receiver) says so.
   */
  webhooks: { allowLocalEndpoints: boolean }
  /** On SIGTERM: how long /readyz says 503 while still serving, before the server closes. */
  shutdownDrainMs: number
  paths: { root: string; var: string; dist: string }
  /** The upload store (workwear logos, sign proofs): ADR 0083, shared between instances: ADR 0175 */
  uploads: UploadConfig
  content: {
    provider: 'local' | 'storyblok'
    storyblok: {
      /** Content delivery token per site code ('*' = any site) */
      tokens: Record<string, string>
      version: 'draft' | 'published'
      /** API base URL, e.g. https://api.storyblok.com/v2 (default) or a stand-in */
      endpoint: string | null
      webhookSecret: string | null
    }
    /** Extra origins allowed to serve scripts (the reviews widget) */
    scriptOrigins: string[]
    /** `?_preview=<token>` shows a page's draft version; null = no preview */
    previewToken: string | null
  }
  /** Payment providers and their mode (PAYMENTS_MODE and the provider variables). */
  payments: PaymentsConfig
  /** Checkout address search: the embedded offline lookup, or Ideal Postcodes (UK, PAF) */
  addressLookup:
    | { provider: 'embedded' }
    | { provider: 'ideal-postcodes'; apiKey: string; baseUrl: string; timeoutMs: number }
}

export class ConfigError extends Error {
  constructor(public readonly issues: string[]) {
    super(`Invalid configuration:\n${issues.map((i) => `  - ${i}`).join('\n')}`)
    this.name = 'ConfigError'
  }
}

/** Reads the persisted development secret, creating it the first time, so sessions survive restarts. */
function localSecret(varDir: string): string {
  const file = resolve(varDir, 'session-secret')
  if (existsSync(file)) return readFileSync(file, 'utf8').trim()
  const secret = randomBytes(32).toString('hex')
  mkdirSync(varDir, { recursive: true })
  writeFileSync(file, secret, { mode: 0o600 })
  return secret
}

/** A host as Algolia's client takes it. */
export interface AlgoliaHost {
  url: string
  protocol: 'http' | 'https'
  port?: number
}

/** 'https://host' or 'http://host:port' → an Algolia host. */
function parseHost(raw: string, variable: string, issues: string[]): AlgoliaHost | null {
  try {
    const u = new URL(raw)
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('protocol')
    return {
      url: u.hostname,
      protocol: u.protocol === 'http:' ? 'http' : 'https',
      ...(u.port ? { port: Number(u.port) } : {}),
    }
  } catch {
    issues.push(`${variable}: '${raw}' is not an http(s) URL`)
    return null
  }
}

/**
 * The payment simulator service's settings (`npm run simulators`, src/simulators/main.ts; ADR 0195):
 * it is no shop, so it reads only its own few variables, with the same empty-means-unset rule.
 */
export function loadSimulatorServiceSettings(
  source: Record<string, string | undefined> = process.env,
): SimulatorServiceConfig {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ''))
  const issues: string[] = []
  const settings = loadSimulatorServiceConfig(cleaned, issues)
  if (issues.length) throw new ConfigError(issues)
  return settings
}

export function loadConfig(
  source: Record<string, string | undefined> = process.env,
  overrides: Partial<Config> = {},
): Config {
  // Empty strings mean "unset": a blank line in an env file must not become a value.
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ''))
  const parsed = envSchema.safeParse(cleaned)
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => `${issue.path.join('.') || 'env'}: ${issue.message}`),
    )
  }
  const e = parsed.data
  if (e.MAIL_TRANSPORT === 'smtp' && !e.SMTP_URL) {
    throw new ConfigError(['SMTP_URL: required when MAIL_TRANSPORT is smtp'])
  }
  // A send must end before its claim does, or another worker could send the message again.
  if (e.MAIL_SEND_TIMEOUT_MS >= e.MAIL_LEASE_MS) {
    throw new ConfigError(['MAIL_SEND_TIMEOUT_MS: must be below MAIL_LEASE_MS'])
  }
  const root = projectRoot
  const varDir = resolve(root, 'var')
  const isDev = e.NODE_ENV === 'development'
  const issues: string[] = []
  // Several instances on one external database must share every key that signs or encrypts:
  // sessions, sealed two-factor secrets and bot-check challenges all derive from SESSION_SECRET,
  // and the content webhook's signature is checked with STORYBLOK_WEBHOOK_SECRET. A key made up
  // on one machine would log visitors out (or fail their checks) on the next.
  if (e.NODE_ENV === 'production' && e.DATABASE_URL) {
    if (!e.SESSION_SECRET) {
      issues.push(
        'SESSION_SECRET: required in production with DATABASE_URL (the same value on every instance; it signs sessions and encrypts two-factor secrets and bot-check challenges)',
      )
    }
    // Payments are never in simulator mode by accident (ADR 0126): a deployment says which mode
    // it means. The demo (no DATABASE_URL) and development keep the simulator default.
    if (!cleaned.PAYMENTS_MODE) {
      issues.push(
        'PAYMENTS_MODE: required in production with DATABASE_URL (simulator, sandbox or live; the shop does not guess whether it takes real payments)',
      )
    }
    // A logo uploaded through one instance must be readable by the next (ADR 0175): the bucket,
    // or a folder the operator names and says is shared. The private default folder is refused.
    if (e.UPLOAD_STORE === 'local' && !(e.UPLOAD_DIR && e.UPLOAD_DIR_SHARED)) {
      issues.push(
        e.UPLOAD_DIR
          ? `UPLOAD_DIR_SHARED: set it to true once UPLOAD_DIR (${e.UPLOAD_DIR}) is one folder every instance shares, or use UPLOAD_STORE=s3 (required in production with DATABASE_URL)`
          : 'UPLOAD_STORE: production with DATABASE_URL needs uploads every instance can read: set UPLOAD_STORE=s3 with S3_ENDPOINT, S3_BUCKET, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or UPLOAD_DIR to a shared folder with UPLOAD_DIR_SHARED=true',
      )
    }
    if (e.WEBHOOKS_ALLOW_LOCAL_ENDPOINTS) {
      issues.push(
        'WEBHOOKS_ALLOW_LOCAL_ENDPOINTS: not allowed in production with DATABASE_URL (it lets webhooks reach this machine and its private network)',
      )
    }
    if (e.CONTENT_PROVIDER === 'storyblok' && !e.STORYBLOK_WEBHOOK_SECRET) {
      issues.push(
        'STORYBLOK_WEBHOOK_SECRET: required in production with DATABASE_URL when CONTENT_PROVIDER is storyblok (every instance checks the publish webhook with it)',
      )
    }
  }
  if (e.UPLOAD_STORE === 's3') {
    for (const name of ['S3_ENDPOINT', 'S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const) {
      if (!e[name]) issues.push(`${name}: required when UPLOAD_STORE is s3`)
    }
  }
  if (issues.length) throw new ConfigError(issues)
  const secret =
    e.SESSION_SECRET ?? (e.NODE_ENV === 'test' ? 'test-secret-'.padEnd(40, 'x') : localSecret(varDir))

  const hosts = (e.ALGOLIA_HOSTS ?? '')
    .split(',')
    .map((h) => h.trim())
    .filter(Boolean)
    .map((h) => parseHost(h, 'ALGOLIA_HOSTS', issues))
    .filter((h): h is NonNullable<typeof h> => h !== null)
  const insightsHost = e.ALGOLIA_INSIGHTS_HOST
    ? parseHost(e.ALGOLIA_INSIGHTS_HOST, 'ALGOLIA_INSIGHTS_HOST', issues)
    : null
  if (e.SEARCH_ENGINE === 'algolia' && (!e.ALGOLIA_APP_ID || !e.ALGOLIA_API_KEY)) {
    issues.push('SEARCH_ENGINE: algolia needs ALGOLIA_APP_ID and ALGOLIA_API_KEY')
  }
  const payments = loadPaymentsConfig(cleaned, issues)
  if (e.ADDRESS_LOOKUP === 'ideal-postcodes' && !e.IDEAL_POSTCODES_API_KEY) {
    issues.push('ADDRESS_LOOKUP: ideal-postcodes needs IDEAL_POSTCODES_API_KEY')
  }
  if (issues.length) throw new ConfigError(issues)

  const config: Config = {
    env: e.NODE_ENV,
    isDev,
    host: e.HOST,
    port: e.PORT,
    logLevel: e.LOG_LEVEL ?? (e.NODE_ENV === 'test' ? 'silent' : 'info'),
    // auto: pretty in a terminal (or in development), JSON when the output is piped or collected.
    logPretty:
      e.LOG_FORMAT === 'pretty' ||
      (e.LOG_FORMAT === 'auto' && e.NODE_ENV !== 'test' && (isDev || process.stdout.isTTY === true)),
    db: e.DATABASE_URL
      ? { driver: 'postgres', url: e.DATABASE_URL, poolSize: e.DATABASE_POOL_SIZE }
      : {
          driver: 'pglite',
          dataDir: e.NODE_ENV === 'test' ? null : resolve(root, e.PGLITE_DIR ?? 'var/db'),
          poolSize: 1,
        },
    redisUrl: e.REDIS_URL ?? null,
    session: {
      secret,
      ttlSeconds: e.SESSION_TTL_DAYS * 86400,
      cookieSecure:
        e.COOKIE_SECURE === undefined
          ? isDev
            ? false
            : 'auto'
          : e.COOKIE_SECURE === 'auto'
            ? 'auto'
            : e.COOKIE_SECURE === 'true',
    },
    trustProxy: e.TRUST_PROXY,
    bodyLimit: e.BODY_LIMIT_BYTES,
    ssr: e.SSR ?? e.NODE_ENV !== 'test',
    // The demo seed (customers with published passwords) only on the embedded database by default.
    seedOnStart: e.SEED_ON_START ?? !e.DATABASE_URL,
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    rateLimitStore: e.REDIS_URL ? 'redis' : e.DATABASE_URL ? 'postgres' : 'memory',
    shareRateLimitPerMinute: e.SHARE_RATE_LIMIT_PER_MINUTE,
    serverTiming: e.SERVER_TIMING,
    search: {
      engine: e.SEARCH_ENGINE,
      rateLimitPerMinute: e.SEARCH_RATE_LIMIT_PER_MINUTE,
      suggestions: e.SEARCH_SUGGESTIONS,
      bestSellers: e.SEARCH_BEST_SELLERS,
      internalIps: (e.SEARCH_INTERNAL_IPS ?? '')
        .split(',')
        .map((ip) => ip.trim())
        .filter(Boolean),
      algolia:
        e.ALGOLIA_APP_ID && e.ALGOLIA_API_KEY
          ? {
              appId: e.ALGOLIA_APP_ID,
              apiKey: e.ALGOLIA_API_KEY,
              indexPrefix: e.ALGOLIA_INDEX_PREFIX,
              hosts: hosts.length ? hosts : null,
              insightsHost,
            }
          : null,
    },
    mail: {
      transport: e.MAIL_TRANSPORT,
      smtpUrl: e.SMTP_URL ?? null,
      from: e.MAIL_FROM ?? 'Shop <no-reply@localhost>',
      outboxPage: e.MAIL_OUTBOX_PAGE ?? isDev,
      queueIntervalMs: e.MAIL_QUEUE_INTERVAL_MS ?? (e.NODE_ENV === 'test' ? 0 : 5000),
      smtpTimeouts: {
        connectionMs: e.SMTP_CONNECTION_TIMEOUT_MS,
        greetingMs: e.SMTP_GREETING_TIMEOUT_MS,
        socketMs: e.SMTP_SOCKET_TIMEOUT_MS,
      },
      sendTimeoutMs: e.MAIL_SEND_TIMEOUT_MS,
      leaseMs: e.MAIL_LEASE_MS,
    },
    jobs: { driver: e.JOB_QUEUE, pollMs: e.JOB_POLL_MS },
    recaptchaSecret: e.RECAPTCHA_SECRET ?? null,
    mailCaptureFile: e.MAIL_CAPTURE_FILE ? resolve(root, e.MAIL_CAPTURE_FILE) : null,
    metricsToken: e.METRICS_TOKEN ?? null,
    webhooks: { allowLocalEndpoints: e.WEBHOOKS_ALLOW_LOCAL_ENDPOINTS ?? e.NODE_ENV !== 'production' },
    shutdownDrainMs: e.SHUTDOWN_DRAIN_MS ?? (e.NODE_ENV === 'production' ? 5000 : 0),
    paths: { root, var: varDir, dist: resolve(root, 'dist') },
    uploads:
      e.UPLOAD_STORE === 's3'
        ? {
            kind: 's3',
            endpoint: e.S3_ENDPOINT!,
            bucket: e.S3_BUCKET!,
            region: e.S3_REGION,
            accessKeyId: e.S3_ACCESS_KEY_ID!,
            secretAccessKey: e.S3_SECRET_ACCESS_KEY!,
            prefix: e.S3_PREFIX,
          }
        : { kind: 'local', dir: resolve(root, e.UPLOAD_DIR ?? 'var/uploads') },
    content: {
      provider: e.CONTENT_PROVIDER,
      storyblok: {
        tokens: {
          ...(e.STORYBLOK_TOKEN ? { '*': e.STORYBLOK_TOKEN } : {}),
          ...Object.fromEntries(
            (e.STORYBLOK_TOKENS ?? '')
              .split(',')
              .filter(Boolean)
              .map((pair) => [pair.slice(0, pair.indexOf(':')), pair.slice(pair.indexOf(':') + 1)]),
          ),
        },
        version: e.STORYBLOK_VERSION,
        endpoint: e.STORYBLOK_ENDPOINT ?? null,
        webhookSecret: e.STORYBLOK_WEBHOOK_SECRET ?? null,
      },
      scriptOrigins: (e.CONTENT_SCRIPT_ORIGINS ?? '').split(',').filter(Boolean),
      previewToken: e.CONTENT_PREVIEW_TOKEN ?? null,
    },
    payments,
    addressLookup:
      e.ADDRESS_LOOKUP === 'ideal-postcodes' && e.IDEAL_POSTCODES_API_KEY
        ? {
            provider: 'ideal-postcodes',
            apiKey: e.IDEAL_POSTCODES_API_KEY,
            baseUrl: e.IDEAL_POSTCODES_BASE_URL ?? 'https://api.ideal-postcodes.co.uk',
            timeoutMs: e.ADDRESS_LOOKUP_TIMEOUT_MS,
          }
        : { provider: 'embedded' },
  }
  if (config.content.provider === 'storyblok' && Object.keys(config.content.storyblok.tokens).length === 0) {
    throw new ConfigError([
      'STORYBLOK_TOKEN: required when CONTENT_PROVIDER is storyblok (or set STORYBLOK_TOKENS)',
    ])
  }
  return { ...config, ...overrides }
}
