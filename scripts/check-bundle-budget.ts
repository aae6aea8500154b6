/**
 * `npm run build` ends with this: prints every page's first-load JavaScript (raw, gzip, Brotli)
 * from dist/client and exits 1 when the product page is over 100 KB Brotli or any page over
 * 130 KB, or, for a page listed in the budget's allowances (over target today), when it grows
 * past its allowance (scripts/bundle-budget.ts has the calculation and its tests).
 */
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { BUDGET, firstLoads, formatTable, judge, type Manifest } from './bundle-budget.ts'

const root = resolve(import.meta.dirname, '..')
const client = resolve(root, 'dist/client')
const manifest = JSON.parse(readFileSync(resolve(client, '.vite/manifest.json'), 'utf8')) as Manifest
const loads = firstLoads(manifest, (file) => readFileSync(resolve(client, file)))
const verdicts = judge(loads)
console.log('First-load JavaScript per page (compressed; KB = 1,000 bytes):')
console.log(formatTable(loads, verdicts))
const over = verdicts.filter((v) => !v.withinLimit)
const unmet = verdicts.filter((v) => !v.met)
const spare = verdicts.filter((v) => v.met && BUDGET.allowances[v.page] !== undefined)
if (spare.length > 0)
  console.log(`Met now, so their allowance can go: ${spare.map((v) => v.page).join(', ')}`)
if (over.length > 0) {
  console.error(
    `\nBundle budget exceeded (Brotli; product page <= ${BUDGET.productPage / 1000} KB, any page <= ${BUDGET.anyPage / 1000} KB):\n` +
      over
        .map((v) => `  ${v.page}: ${(v.brotli / 1000).toFixed(1)} KB > ${(v.limit / 1000).toFixed(1)} KB`)
        .join('\n') +
      '\nSplit what only some pages use (a dynamic import) or drop it; scripts/bundle-budget.ts explains the figure.',
  )
  process.exit(1)
}
console.log(
  unmet.length === 0
    ? 'Bundle budget met.'
    : `Bundle budget: no page grew past its limit; ${unmet.length} page(s) still over the issue's target (allowances in scripts/bundle-budget.ts).`,
)
