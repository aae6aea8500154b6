/**
 * Issue 18, compression and first-load JavaScript (`--only=bundle`):
 * - the first-load JavaScript of every page from the build's manifest (scripts/bundle-budget.ts),
 *   with the targets (product page <= 100 KB, every page <= 130 KB, Brotli) met or NOT met;
 * - what the product page's HTML and Inertia JSON weigh on the wire without compression, with
 *   gzip and with Brotli, and what a hashed script weighs (precompressed at build time);
 * - req/s of the product page (SSR HTML and Inertia JSON) asked for with and without
 *   `Accept-Encoding`, beside the same run's ceiling, so compression's CPU cost shows as a ratio.
 */
import { readFileSync } from 'node:fs'
import http from 'node:http'
import { resolve } from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import { BROTLI_QUALITY_ON_THE_FLY, GZIP_LEVEL } from '../../src/server/plugins/compression.ts'
import { BUDGET, firstLoads, formatTable, judge, type Manifest } from '../bundle-budget.ts'
import { load, type LoadResult } from './load.ts'

export interface BundleBenchOptions {
  root: string
  /** http://127.0.0.1:port of the app */
  base: string
  host: string
  productPath: string
  inertiaHeaders: Record<string, string>
  ceilingRps: number
  connections: number
  durationMs: number
}

const kb = (n: number) => `${(n / 1000).toFixed(1)} KB`

/** One GET's body, uncompressed. */
function body(url: string, headers: Record<string, string>): Promise<Buffer> {
  return new Promise((resolveBody, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => resolveBody(Buffer.concat(chunks)))
        res.on('error', reject)
      })
      .on('error', reject)
  })
}

/** Median milliseconds of `fn` over `n` runs (after 20 unmeasured ones). */
function medianMs(fn: () => void, n = 200): number {
  for (let i = 0; i < 20; i++) fn()
  const times: number[] = []
  for (let i = 0; i < n; i++) {
    const t0 = performance.now()
    fn()
    times.push(performance.now() - t0)
  }
  return times.sort((a, b) => a - b)[Math.floor(n / 2)]!
}

/** One GET; the body's size as it came over the wire (not decoded) and its Content-Encoding. */
function wireSize(
  url: string,
  headers: Record<string, string>,
): Promise<{ bytes: number; encoding: string }> {
  return new Promise((resolveSize, reject) => {
    http
      .get(url, { headers }, (res) => {
        let bytes = 0
        res.on('data', (c: Buffer) => (bytes += c.length))
        res.on('end', () =>
          resolveSize({ bytes, encoding: String(res.headers['content-encoding'] ?? 'identity') }),
        )
        res.on('error', reject)
      })
      .on('error', reject)
  })
}

export async function bundleBench(o: BundleBenchOptions): Promise<void> {
  // 1. First-load JavaScript per page.
  const client = resolve(o.root, 'dist/client')
  const manifest = JSON.parse(readFileSync(resolve(client, '.vite/manifest.json'), 'utf8')) as Manifest
  const loads = firstLoads(manifest, (file) => readFileSync(resolve(client, file)))
  const verdicts = judge(loads)
  console.log('\nFirst-load JavaScript per page (KB = 1,000 bytes; the budget is checked on Brotli):')
  console.log(formatTable(loads, verdicts))
  const product = verdicts.find((v) => v.page === BUDGET.productName)!
  const productGzip = loads.find((l) => l.page === BUDGET.productName)!.jsSize.gzip
  const largest = verdicts.reduce((a, b) => (b.brotli > a.brotli ? b : a))
  const over = verdicts.filter((v) => v.brotli > BUDGET.anyPage)
  console.log(
    `product page first-load JS: ${kb(product.brotli)} Brotli (${kb(productGzip)} gzip), target <= ${kb(BUDGET.productPage)}: ${product.met ? 'met' : 'NOT met'}`,
  )
  console.log(
    `largest first-load JS: ${largest.page} ${kb(largest.brotli)} Brotli, target every page <= ${kb(BUDGET.anyPage)}: ${over.length === 0 ? 'met' : `NOT met (${over.length} pages over)`}`,
  )

  // 2. Transfer sizes.
  const url = `${o.base}${o.productPath}`
  const html = { host: o.host, accept: 'text/html' }
  const json = { host: o.host, ...o.inertiaHeaders }
  const entry = Object.values(manifest).find((c) => c.isEntry)!.file
  const rows = []
  for (const [what, target, headers] of [
    ['product page HTML', url, html],
    ['product page Inertia JSON', url, json],
    [`entry script ${entry}`, `${o.base}/${entry}`, { host: o.host }],
  ] as const) {
    const sizes = []
    for (const enc of [null, 'gzip', 'br']) {
      const r = await wireSize(target, enc ? { ...headers, 'accept-encoding': enc } : headers)
      sizes.push(`${kb(r.bytes)} (${r.encoding})`)
    }
    rows.push({ response: what, 'no Accept-Encoding': sizes[0], gzip: sizes[1], br: sizes[2] })
  }
  console.log('\nTransfer sizes (body bytes on the wire):')
  console.table(rows)

  // 3. Compression's CPU time per answer, with the server's settings, in this process: less noisy
  // on a shared machine than req/s, and comparable with the server's own time (Server-Timing is
  // taken before compression).
  const cpu = []
  for (const [what, headers] of [
    ['product page HTML', html],
    ['product page Inertia JSON', json],
  ] as const) {
    const raw = await body(url, headers)
    cpu.push({
      response: what,
      'raw KB': (raw.byteLength / 1000).toFixed(1),
      [`br q${BROTLI_QUALITY_ON_THE_FLY} ms`]: medianMs(() =>
        brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY_ON_THE_FLY } }),
      ).toFixed(3),
      [`gzip -${GZIP_LEVEL} ms`]: medianMs(() => gzipSync(raw, { level: GZIP_LEVEL })).toFixed(3),
      'br q11 ms (build only)': medianMs(
        () => brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
        20,
      ).toFixed(3),
    })
  }
  console.log('\nCompression CPU time per answer (median, this process):')
  console.table(cpu)

  // 4. Compression's cost under load.
  const scenarios: [string, Record<string, string>][] = [
    ['product page, SSR HTML, identity', html],
    ['product page, SSR HTML, br', { ...html, 'accept-encoding': 'br' }],
    ['product page, SSR HTML, gzip', { ...html, 'accept-encoding': 'gzip' }],
    ['product page, Inertia JSON, identity', json],
    ['product page, Inertia JSON, br', { ...json, 'accept-encoding': 'br' }],
  ]
  const results: [string, LoadResult][] = []
  for (const [name, headers] of scenarios) {
    results.push([
      name,
      await load({ url, headers, connections: o.connections, durationMs: o.durationMs, warmupMs: 2000 }),
    ])
  }
  console.log(`\nCompression under load (ceiling ${o.ceilingRps.toFixed(0)} req/s in this run):`)
  console.table(
    results.map(([name, r]) => ({
      scenario: name,
      'req/s': r.rps.toFixed(0),
      'p50 ms': r.p50.toFixed(2),
      'p95 ms': r.p95.toFixed(2),
      'server p50': r.server ? r.server.p50.toFixed(2) : '',
      'x ceiling': (r.rps / o.ceilingRps).toFixed(3),
      'bytes/resp': r.bytesPerResponse.toFixed(0),
      errors: r.errors + r.non2xx,
    })),
  )
  const rps = Object.fromEntries(results.map(([n, r]) => [n, r.rps]))
  const cost = (a: string, b: string) => `${(((rps[b]! - rps[a]!) / rps[a]!) * 100).toFixed(0)}%`
  console.log(
    `Brotli on the fly changes req/s by ${cost('product page, SSR HTML, identity', 'product page, SSR HTML, br')} (SSR HTML) and ${cost('product page, Inertia JSON, identity', 'product page, Inertia JSON, br')} (Inertia JSON) against identity in this run`,
  )
}
