import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from './config.ts'

function issuesOf(env: Record<string, string>): string[] {
  try {
    loadConfig({ NODE_ENV: 'test', ...env })
  } catch (err) {
    if (err instanceof ConfigError) return err.issues
    throw err
  }
  return []
}

/** Uploads every instance reads: a production start on an external database needs them. */
const sharedUploads = { UPLOAD_DIR: '/srv/shop-uploads', UPLOAD_DIR_SHARED: 'true' }

describe('loadConfig', () => {
  it('keeps uploads in var/uploads by default and names every missing S3 variable for UPLOAD_STORE=s3', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).uploads).toMatchObject({ kind: 'local' })
    expect(issuesOf({ UPLOAD_STORE: 's3', S3_ENDPOINT: 'http://127.0.0.1:9000' })).toEqual([
      'S3_BUCKET: required when UPLOAD_STORE is s3',
      'S3_ACCESS_KEY_ID: required when UPLOAD_STORE is s3',
      'S3_SECRET_ACCESS_KEY: required when UPLOAD_STORE is s3',
    ])
    const s3 = loadConfig({
      NODE_ENV: 'test',
      UPLOAD_STORE: 's3',
      S3_ENDPOINT: 'https://s3.eu-west-2.amazonaws.com',
      S3_BUCKET: 'shop-uploads',
      S3_REGION: 'eu-west-2',
      S3_ACCESS_KEY_ID: 'AKIA',
      S3_SECRET_ACCESS_KEY: 'secret',
      S3_PREFIX: 'live/',
    }).uploads
    expect(s3).toMatchObject({ kind: 's3', bucket: 'shop-uploads', region: 'eu-west-2', prefix: 'live/' })
  })

  describe('uploads and rate limits shared between instances (issue 32)', () => {
    const deployed = {
      NODE_ENV: 'production',
      DATABASE_URL: 'postgres://u@127.0.0.1:5432/shop',
      SESSION_SECRET: 's'.repeat(32),
      PAYMENTS_MODE: 'simulator',
    }
    const s3 = {
      UPLOAD_STORE: 's3',
      S3_ENDPOINT: 'https://s3.eu-west-2.amazonaws.com',
      S3_BUCKET: 'shop-uploads',
      S3_ACCESS_KEY_ID: 'AKIA',
      S3_SECRET_ACCESS_KEY: 'secret',
    }

    it('refuses a production start on an external database with uploads in its private folder, in one line naming what to set', () => {
      const issues = issuesOf(deployed)
      expect(issues).toHaveLength(1)
      expect(issues[0]).toMatch(
        /^UPLOAD_STORE: production with DATABASE_URL needs uploads every instance can read/,
      )
      expect(issues[0]).toContain('UPLOAD_STORE=s3')
      expect(issues[0]).toContain('UPLOAD_DIR_SHARED=true')
      expect(issues[0]).not.toContain('\n')
    })

    it('refuses a named folder until the operator says it is shared', () => {
      expect(issuesOf({ ...deployed, UPLOAD_DIR: '/srv/shop-uploads' })).toEqual([
        expect.stringMatching(/^UPLOAD_DIR_SHARED: set it to true once UPLOAD_DIR \(\/srv\/shop-uploads\)/),
      ])
      expect(
        issuesOf({ ...deployed, UPLOAD_DIR: '/srv/shop-uploads', UPLOAD_DIR_SHARED: 'false' }),
      ).toHaveLength(1)
      // The acknowledgement alone names no folder: the private default is still refused.
      expect(issuesOf({ ...deployed, UPLOAD_DIR_SHARED: 'true' })).toEqual([
        expect.stringMatching(/^UPLOAD_STORE: production with DATABASE_URL/),
      ])
    })

    it('starts with a shared folder or a bucket', () => {
      expect(loadConfig({ ...deployed, ...sharedUploads }).uploads).toEqual({
        kind: 'local',
        dir: '/srv/shop-uploads',
      })
      expect(loadConfig({ ...deployed, ...s3 }).uploads).toMatchObject({ kind: 's3', bucket: 'shop-uploads' })
    })

    it('keeps the private folder where one process serves: the embedded database, development and tests', () => {
      expect(issuesOf({ NODE_ENV: 'production', SESSION_SECRET: 's'.repeat(32) })).toEqual([])
      expect(issuesOf({ NODE_ENV: 'development', DATABASE_URL: deployed.DATABASE_URL })).toEqual([])
      expect(issuesOf({ DATABASE_URL: deployed.DATABASE_URL })).toEqual([])
    })

    it('rejects an acknowledgement that is not a yes or a no', () => {
      expect(issuesOf({ UPLOAD_DIR_SHARED: 'sure' })).toEqual([expect.stringMatching(/^UPLOAD_DIR_SHARED: /)])
    })

    it('counts rate limits in Redis, else in PostgreSQL, else in memory on the embedded database', () => {
      const url = deployed.DATABASE_URL
      expect(loadConfig({ NODE_ENV: 'test' }).rateLimitStore).toBe('memory')
      expect(loadConfig({ NODE_ENV: 'test', DATABASE_URL: url }).rateLimitStore).toBe('postgres')
      expect(
        loadConfig({ NODE_ENV: 'test', DATABASE_URL: url, REDIS_URL: 'redis://127.0.0.1:6379' })
          .rateLimitStore,
      ).toBe('redis')
      expect(loadConfig({ ...deployed, ...s3 }).rateLimitStore).toBe('postgres')
    })
  })

  it('uses the embedded database and sensible defaults when nothing is set', () => {
    const c = loadConfig({ NODE_ENV: 'test' })
    expect(c.db.driver).toBe('pglite')
    expect(c.port).toBe(3000)
    expect(c.bodyLimit).toBe(1024 * 1024)
    expect(c.session.cookieSecure).toBe('auto')
  })

  it('switches to PostgreSQL when DATABASE_URL is set', () => {
    const c = loadConfig({ NODE_ENV: 'test', DATABASE_URL: 'postgres://u@127.0.0.1:5432/shop' })
    expect(c.db).toMatchObject({ driver: 'postgres', url: 'postgres://u@127.0.0.1:5432/shop' })
  })

  it('names the variable and the problem for a bad port', () => {
    expect(issuesOf({ PORT: 'eighty' })).toEqual([expect.stringMatching(/^PORT: /)])
    expect(issuesOf({ PORT: '70000' })[0]).toMatch(/^PORT: /)
  })

  it('rejects a database URL that is not PostgreSQL', () => {
    expect(issuesOf({ DATABASE_URL: 'mysql://x' })).toEqual([
      'DATABASE_URL: must be a postgres:// or postgresql:// URL',
    ])
  })

  it('rejects a session secret shorter than 32 characters', () => {
    expect(issuesOf({ SESSION_SECRET: 'short' })).toEqual(['SESSION_SECRET: must be at least 32 characters'])
  })

  it('keeps mail in the outbox by default and needs SMTP_URL for SMTP', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).mail).toMatchObject({ transport: 'outbox', outboxPage: false })
    expect(loadConfig({ NODE_ENV: 'development', SESSION_SECRET: 'x'.repeat(32) }).mail.outboxPage).toBe(true)
    expect(issuesOf({ MAIL_TRANSPORT: 'smtp' })).toEqual(['SMTP_URL: required when MAIL_TRANSPORT is smtp'])
    expect(issuesOf({ MAIL_TRANSPORT: 'smtp', SMTP_URL: 'http://x' })).toEqual([
      'SMTP_URL: must be an smtp:// or smtps:// URL',
    ])
    const smtp = loadConfig({
      NODE_ENV: 'test',
      MAIL_TRANSPORT: 'smtp',
      SMTP_URL: 'smtp://u:p@mail.example:587',
    })
    expect(smtp.mail).toMatchObject({ transport: 'smtp', smtpUrl: 'smtp://u:p@mail.example:587' })
  })

  it('reports every bad value at once', () => {
    expect(issuesOf({ PORT: '-1', NODE_ENV: 'staging', COOKIE_SECURE: 'maybe' })).toHaveLength(3)
  })

  it('treats an empty value as unset', () => {
    expect(loadConfig({ NODE_ENV: 'test', DATABASE_URL: '' }).db.driver).toBe('pglite')
  })

  it('keeps cookies non-Secure in development so http://localhost works', () => {
    expect(loadConfig({ NODE_ENV: 'development' }).session.cookieSecure).toBe(false)
    expect(loadConfig({ NODE_ENV: 'test', COOKIE_SECURE: 'true' }).session.cookieSecure).toBe(true)
  })

  it('refuses to start in production on an external database without SESSION_SECRET, naming it', () => {
    const env = {
      NODE_ENV: 'production',
      DATABASE_URL: 'postgres://u@127.0.0.1:5432/shop',
      PAYMENTS_MODE: 'simulator',
      ...sharedUploads,
    }
    expect(() => loadConfig(env)).toThrow(ConfigError)
    expect(issuesOf(env)).toEqual([
      expect.stringMatching(/^SESSION_SECRET: required in production with DATABASE_URL/),
    ])
    expect(loadConfig({ ...env, SESSION_SECRET: 's'.repeat(32) }).session.secret).toBe('s'.repeat(32))
  })

  it('needs the webhook secret too when several instances take Storyblok content', () => {
    const env = {
      NODE_ENV: 'production',
      DATABASE_URL: 'postgres://u@127.0.0.1:5432/shop',
      SESSION_SECRET: 's'.repeat(32),
      PAYMENTS_MODE: 'simulator',
      ...sharedUploads,
      CONTENT_PROVIDER: 'storyblok',
      STORYBLOK_TOKEN: 'token',
    }
    expect(issuesOf(env)).toEqual([expect.stringMatching(/^STORYBLOK_WEBHOOK_SECRET: required/)])
    expect(issuesOf({ ...env, STORYBLOK_WEBHOOK_SECRET: 'w'.repeat(16) })).toEqual([])
  })

  it('lets webhooks reach local endpoints only outside production, or when a test says so on the embedded database', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).webhooks.allowLocalEndpoints).toBe(true)
    expect(loadConfig({ NODE_ENV: 'production' }).webhooks.allowLocalEndpoints).toBe(false)
    expect(
      loadConfig({ NODE_ENV: 'production', WEBHOOKS_ALLOW_LOCAL_ENDPOINTS: 'true' }).webhooks
        .allowLocalEndpoints,
    ).toBe(true)
    const external = {
      NODE_ENV: 'production',
      DATABASE_URL: 'postgres://u@127.0.0.1:5432/shop',
      SESSION_SECRET: 's'.repeat(32),
      PAYMENTS_MODE: 'simulator',
      ...sharedUploads,
    }
    expect(issuesOf({ ...external, WEBHOOKS_ALLOW_LOCAL_ENDPOINTS: 'true' })).toEqual([
      expect.stringMatching(/^WEBHOOKS_ALLOW_LOCAL_ENDPOINTS: not allowed in production with DATABASE_URL/),
    ])
    expect(issuesOf({ ...external, WEBHOOKS_ALLOW_LOCAL_ENDPOINTS: 'false' })).toEqual([])
  })

  it('seeds the demo shop by default only on the embedded database', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).seedOnStart).toBe(true)
    const url = 'postgres://u@127.0.0.1:5432/shop'
    expect(loadConfig({ NODE_ENV: 'test', DATABASE_URL: url }).seedOnStart).toBe(false)
    expect(loadConfig({ NODE_ENV: 'test', DATABASE_URL: url, SEED_ON_START: 'true' }).seedOnStart).toBe(true)
    expect(loadConfig({ NODE_ENV: 'test', SEED_ON_START: 'false' }).seedOnStart).toBe(false)
  })

  it('uses the embedded address lookup unless Ideal Postcodes is chosen with its key', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).addressLookup).toEqual({ provider: 'embedded' })
    expect(issuesOf({ ADDRESS_LOOKUP: 'ideal-postcodes' })).toEqual([
      'ADDRESS_LOOKUP: ideal-postcodes needs IDEAL_POSTCODES_API_KEY',
    ])
    expect(
      loadConfig({ NODE_ENV: 'test', ADDRESS_LOOKUP: 'ideal-postcodes', IDEAL_POSTCODES_API_KEY: 'ak_test' })
        .addressLookup,
    ).toEqual({
      provider: 'ideal-postcodes',
      apiKey: 'ak_test',
      baseUrl: 'https://api.ideal-postcodes.co.uk',
      timeoutMs: 3000,
    })
    expect(issuesOf({ ADDRESS_LOOKUP: 'getaddress' })[0]).toMatch(/^ADDRESS_LOOKUP: /)
  })

  describe('payments mode: simulators are never live by accident (issue 29, defect 13)', () => {
    // What compose.yaml runs: production on an external database, SESSION_SECRET given.
    const deployed = {
      NODE_ENV: 'production',
      DATABASE_URL: 'postgres://u@127.0.0.1:5432/shop',
      SESSION_SECRET: 's'.repeat(32),
      ...sharedUploads,
    }
    const opayo = { OPAYO_VENDOR_NAME: 'shop', OPAYO_INTEGRATION_KEY: 'k', OPAYO_INTEGRATION_PASSWORD: 'p' }
    const refusal =
      'PAYMENTS_MODE: required in production with DATABASE_URL (simulator, sandbox or live; the shop does not guess whether it takes real payments)'

    it('refuses to start in production on an external database when PAYMENTS_MODE is not set, naming it', () => {
      expect(() => loadConfig(deployed)).toThrow(ConfigError)
      expect(issuesOf(deployed)).toEqual([refusal])
    })

    it('treats an empty PAYMENTS_MODE as unset and refuses it too', () => {
      expect(issuesOf({ ...deployed, PAYMENTS_MODE: '' })).toEqual([refusal])
    })

    it('refuses even when provider credentials are set (they used to imply sandbox)', () => {
      expect(issuesOf({ ...deployed, ...opayo })).toEqual([refusal])
    })

    it('names PAYMENTS_MODE beside the other missing production settings', () => {
      const { SESSION_SECRET: _unset, ...noSecret } = deployed
      expect(issuesOf(noSecret)).toEqual([
        expect.stringMatching(/^SESSION_SECRET: required in production with DATABASE_URL/),
        refusal,
      ])
    })

    it('refuses a PAYMENTS_MODE that is not one of the three modes', () => {
      expect(issuesOf({ ...deployed, PAYMENTS_MODE: 'demo' })).toEqual([
        expect.stringMatching(/^PAYMENTS_MODE: /),
      ])
    })

    it('starts when the mode is chosen explicitly: simulator, sandbox or live', () => {
      const simulator = loadConfig({ ...deployed, PAYMENTS_MODE: 'simulator' }).payments
      expect(simulator.mode).toBe('simulator')
      expect(simulator.simulator).toEqual({ host: '127.0.0.1', port: 3100 })
      const sandbox = loadConfig({ ...deployed, ...opayo, PAYMENTS_MODE: 'sandbox' }).payments
      expect(sandbox).toMatchObject({ mode: 'sandbox', simulator: null })
      expect(sandbox.providers?.sagepay?.baseUrl).toBe('https://sandbox.opayo.eu.elavon.com/api/v1')
      const live = loadConfig({ ...deployed, ...opayo, PAYMENTS_MODE: 'live' }).payments
      expect(live).toMatchObject({ mode: 'live', simulator: null })
      expect(live.providers?.sagepay?.baseUrl).toBe('https://live.opayo.eu.elavon.com/api/v1')
    })

    it('keeps the demo in simulator mode with no setting: production on the embedded database', () => {
      const demo = loadConfig({ NODE_ENV: 'production', SESSION_SECRET: 's'.repeat(32) })
      expect(demo.db.driver).toBe('pglite')
      expect(demo.payments).toMatchObject({ mode: 'simulator', simulator: { host: '127.0.0.1', port: 3100 } })
    })

    it('keeps the simulator default in development and tests, also on an external database', () => {
      const url = 'postgres://u@127.0.0.1:5432/shop'
      expect(
        loadConfig({ NODE_ENV: 'development', DATABASE_URL: url, SESSION_SECRET: 's'.repeat(32) }).payments
          .mode,
      ).toBe('simulator')
      expect(loadConfig({ NODE_ENV: 'test', DATABASE_URL: url }).payments.mode).toBe('simulator')
    })
  })
})
