import { defineConfig } from '@playwright/test'
import base from './playwright.config.ts'

/**
 * The two-instance test (issue 16): two production servers from the same build on ONE PostgreSQL
 * database and ONE Redis, the way the README's deployment runs them. Needs E2E_DATABASE_URL (an
 * empty database: the instances race to migrate and seed it under the advisory lock) and
 * REDIS_URL; `.ci/run` creates the database. Run: `npm run build && npm run test:e2e:instances`.
 */
const ports = [Number(process.env.E2E_PORT ?? 4173), Number(process.env.E2E_PORT_2 ?? 4183)]
const simulatorPorts = [
  Number(process.env.PAYMENTS_SIMULATOR_PORT ?? 3100),
  Number(process.env.PAYMENTS_SIMULATOR_PORT_2 ?? Number(process.env.PAYMENTS_SIMULATOR_PORT ?? 3100) + 10),
]
const databaseUrl = process.env.E2E_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/shop_e2e_instances'
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'

export default defineConfig({
  ...base,
  testDir: 'tests/e2e-instances',
  reporter: process.env.TEST_REPORT_DIR
    ? [['list'], ['json', { outputFile: `${process.env.TEST_REPORT_DIR}/playwright-instances.json` }]]
    : [['list']],
  timeout: 60_000,
  use: { ...base.use, baseURL: `http://localhost:${ports[0]}` },
  webServer: ports.map((port, i) => ({
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
      PAYMENTS_SIMULATOR_PORT: String(simulatorPorts[i]),
      UPLOAD_DIR: 'var/e2e-instances-uploads',
    },
  })),
})
