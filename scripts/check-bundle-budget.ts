/**
 * `npm run build` ends with this: prints every page's first-load JavaScript (raw, gzip, Brotli)
 * from dist/client and exits 1 when the product page is over 100 KB compressed or any page over
 * 130 KB (scripts/bundle-budget.ts has the calculation and its tests).
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
const over = verdicts.filter((v) => !v.met)
if (over.length > 0) {
  console.error(
    `\nBundle budget exceeded (product page <= ${BUDGET.productPage / 1000} KB, any page <= ${BUDGET.anyPage / 1000} KB):\n` +
      over.map((v) => `  ${v.page}: ${(v.compressed / 1000).toFixed(1)} KB > ${v.limit / 1000} KB`).join('\n'),
  )
  process.exit(1)
}
console.log('Bundle budget met.')
