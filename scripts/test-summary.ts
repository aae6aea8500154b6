/** Sums the JSON reports in TEST_REPORT_DIR into one closing line: `N passed, N failed`. */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

const dir = process.argv[2] ?? 'var/test-reports'
let passed = 0
let failed = 0
let skipped = 0
for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
  const report = JSON.parse(readFileSync(join(dir, file), 'utf8')) as {
    numPassedTests?: number
    numFailedTests?: number
    numPendingTests?: number
    stats?: { expected: number; unexpected: number; flaky: number; skipped: number }
  }
  if (report.stats) {
    passed += report.stats.expected + report.stats.flaky
    failed += report.stats.unexpected
    skipped += report.stats.skipped
  } else {
    passed += report.numPassedTests ?? 0
    failed += report.numFailedTests ?? 0
    skipped += report.numPendingTests ?? 0
  }
}
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`)
process.exit(failed > 0 || passed === 0 ? 1 : 0)
