/**
 * Does the forgot-password answer time tell a registered e-mail from an unknown one?
 * Sends N requests for each, interleaved, through the real app (PGlite, seeded), and compares
 * the two samples with a Mann-Whitney U test. A |z| below 1.96 means no difference at the 5%
 * level; the script prints medians, z and the verdict, and exits 3 when the difference is
 * significant (1 is a crash). `npm run bench` runs it after the load scenarios.
 * Usage: npx tsx scripts/bench/forgot-timing.ts [N=80]
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { buildApp } from '../../src/server/app.ts'
import { loadConfig } from '../../src/server/config.ts'

const N = Number(process.argv[2] ?? 80)
/** The exit code for a significant difference (a crash exits 1). `npm run bench` reads it. */
const SIGNIFICANT_EXIT_CODE = 3
const KNOWN = 'demo@harbour-safety.example'
/**
 * One unknown address, asked for as often as the known one: a burst for one address collapses
 * into one queued job (ADR 0250) whether or not it has an account, so both samples see the same
 * mix of new and collapsed jobs and only the account's existence differs.
 */
const UNKNOWN = 'nobody-here@example.com'

function mannWhitneyZ(a: number[], b: number[]): number {
  const all = [...a.map((v) => ({ v, g: 0 })), ...b.map((v) => ({ v, g: 1 }))].sort((x, y) => x.v - y.v)
  const ranks = new Array<number>(all.length)
  for (let i = 0; i < all.length;) {
    let j = i
    while (j + 1 < all.length && all[j + 1]!.v === all[i]!.v) j++
    for (let k = i; k <= j; k++) ranks[k] = (i + j) / 2 + 1
    i = j + 1
  }
  const rankA = all.reduce((sum, x, i) => (x.g === 0 ? sum + ranks[i]! : sum), 0)
  const u = rankA - (a.length * (a.length + 1)) / 2
  const mean = (a.length * b.length) / 2
  const sd = Math.sqrt((a.length * b.length * (a.length + b.length + 1)) / 12)
  return (u - mean) / sd
}

const median = (xs: number[]) => {
  const s = [...xs].sort((x, y) => x - y)
  return s[Math.floor(s.length / 2)]!
}

const dir = mkdtempSync(join(tmpdir(), 'forgot-timing-'))
const config = loadConfig({
  NODE_ENV: 'production',
  PGLITE_DIR: dir,
  LOG_LEVEL: 'silent',
  RATE_LIMIT_PER_MINUTE: '1000000',
  // Each request comes from its own address (X-Forwarded-For), past the per-address limits.
  TRUST_PROXY: 'true',
  // `npm run bench` gives this app's payment simulators a port of their own (its server holds
  // the default one).
  ...(process.env.PAYMENTS_SIMULATOR_PORT
    ? { PAYMENTS_SIMULATOR_PORT: process.env.PAYMENTS_SIMULATOR_PORT }
    : {}),
})
const app = await buildApp(config)
await app.ready()
try {
  const first = await app.inject({
    url: '/forgot-password',
    headers: { host: 'localhost', accept: 'text/html' },
  })
  const cookies = Object.fromEntries(first.cookies.map((c) => [c.name, c.value]))
  const headers = {
    host: 'localhost',
    cookie: Object.entries(cookies)
      .map(([k, v]) => `${k}=${v}`)
      .join('; '),
    'x-xsrf-token': decodeURIComponent(cookies['XSRF-TOKEN'] ?? ''),
    'x-inertia': 'true',
    accept: 'text/html, application/xhtml+xml',
  }
  const known: number[] = []
  const unknown: number[] = []
  for (let i = 0; i < N * 2; i++) {
    const isKnown = i % 2 === 0
    const email = isKnown ? KNOWN : UNKNOWN
    const started = performance.now()
    const res = await app.inject({
      method: 'POST',
      url: '/forgot-password',
      headers: { ...headers, 'x-forwarded-for': `10.1.${i >> 8}.${i & 255}` },
      payload: { email },
    })
    const ms = performance.now() - started
    if (res.statusCode >= 400) throw new Error(`status ${res.statusCode}`)
    ;(isKnown ? known : unknown).push(ms)
    await new Promise((r) => setTimeout(r, 5))
  }
  const z = mannWhitneyZ(known, unknown)
  const significant = Math.abs(z) >= 1.96
  const [mk, mu] = [median(known), median(unknown)]
  console.log(
    `forgot-password (${N} each): known median ${mk.toFixed(2)} ms, unknown median ${mu.toFixed(2)} ms, ` +
      `ratio known/unknown ${(mk / mu).toFixed(3)}, Mann-Whitney z = ${z.toFixed(2)} -> ` +
      (significant ? 'DIFFERENT (timing leaks)' : 'no significant difference'),
  )
  process.exitCode = significant ? SIGNIFICANT_EXIT_CODE : 0
} finally {
  await app.close()
  rmSync(dir, { recursive: true, force: true })
}
