import { defineConfig } from '@playwright/test'
import base from './playwright.config.ts'
import {
  INSTANCE_PORTS,
  S3_BUCKET,
  S3_PORT,
  SIMULATOR_PORT,
  SIMULATOR_URL,
} from './tests/e2e-instances/ports.ts'

/**
 * The two-instance test (issue 16): two production servers from the same build on ONE PostgreSQL
 * database and ONE Redis, the way the README's deployment runs them. Needs E2E_DATABASE_URL (an
 * empty database: the instances race to migrate and seed it under the advisory lock) and
 * REDIS_URL; `.ci/run` creates the database. Run: `npm run build && npm run test:e2e:instances`.
 *
 * Uploads go to an S3-compatible server (s3rver, started here as a third server in a temporary
 * folder) and nowhere else: each instance has its own upload folder, which it must not use, so a
 * logo uploaded through one is read by the other only through the bucket (issue 32, ADR 0175).
 * Payments go to ONE simulator service (`npm run simulators`, ADR 0195), started here as a fourth
 * server; both instances point at it by URL (PAYMENTS_SIMULATOR_URL), as they would share a real
 * provider, so a payment started through one instance is known to the other.
 * Ports follow E2E_PORT (tests/e2e-instances/ports.ts).
 */
const ports = INSTANCE_PORTS
const databaseUrl = process.env.E2E_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/shop_e2e_instances'
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'

export default defineConfig({
  ...base,
  testDir: 'tests/e2e-instances',
  outputDir: `test-results/instances-${ports[0]}`,
  reporter: process.env.TEST_REPORT_DIR
    ? [['list'], ['json', { outputFile: `${process.env.TEST_REPORT_DIR}/playwright-instances.json` }]]
    : [['list']],
  timeout: 60_000,
  use: { ...base.use, baseURL: `http://localhost:${ports[0]}` },
  webServer: [
    {
      command: 'exec npx tsx tests/e2e-instances/s3-server.ts',
      port: S3_PORT,
      reuseExistingServer: false,
      timeout: 60_000,
      // SIGTERM lets it remove its temporary folder.
      gracefulShutdown: { signal: 'SIGTERM', timeout: 5_000 },
    },
    {
      command: 'npm run simulators',
      url: `${SIMULATOR_URL}/readyz`,
      reuseExistingServer: false,
      timeout: 60_000,
      gracefulShutdown: { signal: 'SIGTERM', timeout: 5_000 },
      env: {
        PAYMENTS_MODE: 'simulator',
        PAYMENTS_SIMULATOR_HOST: '127.0.0.1',
        PAYMENTS_SIMULATOR_PORT: String(SIMULATOR_PORT),
      },
    },
    ...ports.map((port, i) => ({
      command: 'npm run serve',
      url: `http://127.0.0.1:${port}/readyz`,
      reuseExistingServer: false,
      timeout: 120_000,
      env: {
        NODE_ENV: 'production',
        PORT: String(port),
        HOST: 'localhost',
        DATABASE_URL: databaseUrl,
        REDIS_URL: redisUrl,
        // One secret for every instance (the app refuses to start without it here).
        SESSION_SECRET: 'two-instance-e2e-secret-'.padEnd(48, 'x'),
        SEED_ON_START: 'true',
        COOKIE_SECURE: 'false',
        LOG_LEVEL: 'warn',
        RATE_LIMIT_PER_MINUTE: '100000',
        SHUTDOWN_DRAIN_MS: '0',
        // Production on an external database names its payment mode (ADR 0126); the tests pay the simulators.
        PAYMENTS_MODE: 'simulator',
        // The one simulator service, for the server's calls and the browser's pages alike.
        PAYMENTS_SIMULATOR_URL: SIMULATOR_URL,
        PAYMENTS_SIMULATOR_PUBLIC_URL: SIMULATOR_URL,
        // Production on an external database keeps uploads where every instance reads them.
        UPLOAD_STORE: 's3',
        S3_ENDPOINT: `http://127.0.0.1:${S3_PORT}`,
        S3_BUCKET,
        S3_ACCESS_KEY_ID: 'S3RVER',
        S3_SECRET_ACCESS_KEY: 'S3RVER',
        S3_PREFIX: 'e2e/',
        // Each instance's own folder, never shared: a logo found on the other instance came
        // through the bucket.
        UPLOAD_DIR: `var/e2e-instances-uploads-${i + 1}`,
      },
    })),
  ],
})
