import { availableParallelism } from 'node:os'
import { configDefaults, defineConfig } from 'vitest/config'
import { preactAliases } from './src/client/preact/aliases.ts'

// In CI, also write a JSON report so .ci/run can print one closing count for every runner.
const report = process.env.TEST_REPORT_DIR

export default defineConfig({
  test: {
    // Vitest's default is one worker fewer than the cores: a single worker on a two-core machine,
    // where the HTTP tests spend much of their time waiting on the database. Every test file has
    // its own database (tests/helpers/database.ts), so files run side by side safely.
    maxWorkers: Math.max(2, availableParallelism()),
    ...(report
      ? {
          reporters: ['default', 'json'],
          outputFile: { json: `${report}/vitest-${process.env.TEST_REPORT_NAME ?? 'run'}.json` },
        }
      : {}),
    projects: [
      {
        test: {
          name: 'unit',
          include: ['src/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts'],
          // Component tests run in the 'components' project; a payment method's simulator contract
          // test sits in its folder but needs the database.
          exclude: [...configDefaults.exclude, 'src/client/**/*.test.tsx', 'src/**/*.contract.test.ts'],
          environment: 'node',
          // A few unit tests open an embedded database in their hooks: seconds on a busy machine.
          hookTimeout: 30_000,
        },
      },
      // The component tests run on Preact's React layer, as the shipped pages do (ADR 0155):
      // the production build's aliases, and @inertiajs/react bundled so its `react` is aliased too.
      {
        resolve: { alias: preactAliases('compat-test') },
        test: {
          name: 'components',
          include: ['src/client/**/*.test.tsx'],
          environment: 'node',
          server: { deps: { inline: ['@inertiajs/react'] } },
        },
      },
      {
        test: {
          name: 'http',
          include: ['tests/http/**/*.test.ts', 'src/**/*.contract.test.ts'],
          environment: 'node',
          globalSetup: ['tests/helpers/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
})
