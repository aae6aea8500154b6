/**
 * The only reader of process.env. Everything the server can be told from outside is parsed and
 * checked here once; the rest of the code receives a typed Config.
 */
import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { z } from 'zod'

export const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..').replace(/\/dist$/, '')

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes')

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  HOST: z.string().min(1).default('localhost'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional(),
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
  SEED_ON_START: bool.default(true),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(600),
  RECAPTCHA_SECRET: z.string().min(1).optional(),
  MAIL_CAPTURE_FILE: z.string().min(1).optional(),
})

export type Env = z.input<typeof envSchema>

export interface Config {
  env: 'development' | 'production' | 'test'
  isDev: boolean
  host: string
  port: number
  logLevel: string
  db:
    | { driver: 'pglite'; dataDir: string | null; poolSize: number }
    | { driver: 'postgres'; url: string; poolSize: number }
  redisUrl: string | null
  /** 'auto': Secure on HTTPS requests (behind TLS or a trusted proxy), not on plain HTTP. */
  session: { secret: string; ttlSeconds: number; cookieSecure: boolean | 'auto' }
  trustProxy: boolean
  bodyLimit: number
  ssr: boolean
  seedOnStart: boolean
  rateLimitPerMinute: number
  /** Secret key for sites whose bot check is reCAPTCHA. */
  recaptchaSecret: string | null
  /** Development and browser tests: auth e-mails appended to this file as JSON lines. */
  mailCaptureFile: string | null
  paths: { root: string; var: string; dist: string }
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
  const root = projectRoot
  const varDir = resolve(root, 'var')
  const isDev = e.NODE_ENV === 'development'
  const secret =
    e.SESSION_SECRET ?? (e.NODE_ENV === 'test' ? 'test-secret-'.padEnd(40, 'x') : localSecret(varDir))

  const config: Config = {
    env: e.NODE_ENV,
    isDev,
    host: e.HOST,
    port: e.PORT,
    logLevel: e.LOG_LEVEL ?? (e.NODE_ENV === 'test' ? 'silent' : 'info'),
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
    seedOnStart: e.SEED_ON_START,
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    recaptchaSecret: e.RECAPTCHA_SECRET ?? null,
    mailCaptureFile: e.MAIL_CAPTURE_FILE ? resolve(root, e.MAIL_CAPTURE_FILE) : null,
    paths: { root, var: varDir, dist: resolve(root, 'dist') },
  }
  return { ...config, ...overrides }
}
