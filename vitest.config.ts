import { configDefaults, defineConfig } from 'vitest/config'

// In CI, also write a JSON report so .ci/run can print one closing count for every runner.
const report = process.env.TEST_REPORT_DIR

export default defineConfig({
  test: {
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
          // A payment method's simulator contract test sits in its folder but needs the database.
          exclude: [...configDefaults.exclude, 'src/**/*.contract.test.ts'],
          environment: 'node',
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
