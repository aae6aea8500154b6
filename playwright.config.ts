import { defineConfig } from '@playwright/test'
import { E2E_DIR, E2E_PORT, MAIL_FILE } from './tests/e2e/helpers/paths.ts'

const port = E2E_PORT
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

/**
 * End-to-end tests drive Debian's Chromium against the production build (`npm run build`)
 * served on a throwaway PGlite database. The two demo brands are reached by host name:
 * localhost (GBP) and 127.0.0.1 (USD).
 */
export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  // In CI, also write a JSON report so .ci/run can print one closing count for every runner.
  reporter: process.env.TEST_REPORT_DIR
    ? [
        ['list'],
        ['json', { outputFile: `${process.env.TEST_REPORT_DIR}/playwright-${port}-${process.pid}.json` }],
      ]
    : [['list']],
  timeout: 30_000,
  // Each run's own traces and files: a run clears its output folder when it starts, so two runs
  // side by side (CI's lanes) must not share one.
  outputDir: `test-results/e2e-${port}`,
  use: {
    baseURL: `http://localhost:${port}`,
    // An action waiting for an element that never comes fails in 20 s, not at the test's timeout
    // (five minutes for the longest): the report names it and a retry starts sooner.
    actionTimeout: 20_000,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: chromium,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-dev-shm-usage',
      ],
    },
  },
  webServer: {
    // The ERP's API token is made on the fresh database before the server holds it (one process
    // at a time on the embedded database): tests/e2e/helpers/admin-token.ts.
    command: `rm -rf ${E2E_DIR} && npx tsx tests/e2e/helpers/admin-token.ts && npm run serve`,
    url: `http://127.0.0.1:${port}/healthz`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: {
      NODE_ENV: 'production',
      PORT: String(port),
      // The embedded payment simulators' port follows the server's, so two checkouts' browser
      // tests (E2E_PORT set apart) never fight over the default 3100.
      PAYMENTS_SIMULATOR_PORT: String(port - 1000),
      HOST: 'localhost',
      PGLITE_DIR: `${E2E_DIR}/db`,
      E2E_PORT: String(port),
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '100000',
      // The XSS corpus test shares a basket once per batch of names.
      SHARE_RATE_LIMIT_PER_MINUTE: '1000',
      MAIL_OUTBOX_PAGE: 'true',
      // Auth e-mails (verification, reset) land here so browser tests can follow their links.
      MAIL_CAPTURE_FILE: MAIL_FILE,
      // The order lifecycle's webhook receiver listens on http://127.0.0.1 (refused in production).
      WEBHOOKS_ALLOW_LOCAL_ENDPOINTS: 'true',
    },
  },
})
