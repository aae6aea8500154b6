/**
 * `npm run bench`: starts the production build on a fresh PGlite database and a bare Fastify
 * server (the machine's ceiling), loads each scenario for a fixed time with the same client, and
 * prints req/s, p50/p95/p99 and the ratio to the ceiling. All figures come from this one run.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, rmSync } from 'node:fs'
import http from 'node:http'
import { resolve } from 'node:path'
import { authScenarios } from './auth.ts'
import { load, rateLoad, type LoadResult } from './load.ts'

const root = resolve(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '../..')
const args = new Map(
  process.argv.slice(2).map((a) => {
    const [k, v] = a.replace(/^--/, '').split('=')
    return [k!, v ?? 'true'] as const
  }),
)
const durationMs = Number(args.get('duration') ?? 10) * 1000
const benchProducts = Number(args.get('products') ?? 10000)
const connections = Number(args.get('connections') ?? 10)
// Ports 4190 and similar are on the WHATWG bad-port list (fetch refuses them); keep to 43xx.
const appPort = Number(args.get('port') ?? 4310)
const ceilingPort = appPort + 1

function start(name: string, command: string, argv: string[], env: Record<string, string>): ChildProcess {
  const child = spawn(command, argv, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  child.stderr?.on('data', (d: Buffer) => process.stderr.write(`[${name}] ${d}`))
  child.stdout?.on('data', (d: Buffer) => {
    if (process.env.BENCH_VERBOSE) process.stderr.write(`[${name}] ${d}`)
  })
  child.on('exit', (code, signal) => {
    if (code !== 0 && signal !== 'SIGTERM') process.stderr.write(`[${name}] exited with ${code ?? signal}\n`)
  })
  return child
}

async function waitFor(url: string, timeoutMs = 60_000) {
  const until = Date.now() + timeoutMs
  while (Date.now() < until) {
    try {
      const r = await fetch(url)
      if (r.ok) return
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 200))
  }
  throw new Error(`timed out waiting for ${url}`)
}

const inertiaHeaders = {
  'x-inertia': 'true',
  'x-requested-with': 'XMLHttpRequest',
  accept: 'text/html, application/xhtml+xml',
}

interface Scenario {
  name: string
  url: string
  headers?: Record<string, string>
}

/**
 * Seeds the demo shop plus the generated benchmark catalogue into the bench database, then picks
 * the busiest paginated category under /bench and one of its products as load targets.
 */
async function prepareCatalog(dbDir: string): Promise<{ product: string; listing: string }> {
  const started = performance.now()
  await new Promise<void>((resolveRun, reject) => {
    const seedRun = spawn(
      process.execPath,
      ['--import', 'tsx', 'src/server/db/seed/cli.ts', '--products', String(benchProducts)],
      { cwd: root, env: { ...process.env, PGLITE_DIR: dbDir, NODE_ENV: 'production' }, stdio: 'inherit' },
    )
    seedRun.on('exit', (code) => (code === 0 ? resolveRun() : reject(new Error(`seed exited with ${code}`))))
  })
  console.log(
    `seeded demo + ${benchProducts} generated products in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  )
  const { openDatabase } = await import('../../src/server/db/client.ts')
  const { sql } = await import('drizzle-orm')
  const database = await openDatabase({ driver: 'pglite', dataDir: dbDir, poolSize: 1 })
  try {
    const listing = await database.db.execute<{ url: string; id: number }>(sql`
      select c.url, c.id from categories c
      join category_products cp on cp.category_id = c.id
      where c.url like '/bench/%' and c.display = 'paginated'
      group by c.id order by count(*) desc limit 1`)
    const row = (listing as unknown as { rows: { url: string; id: number }[] }).rows[0]
    if (!row) throw new Error('no paginated /bench category: did the generator run?')
    const product = await database.db.execute<{ url: string }>(sql`
      select g.url from product_groups g join category_products cp on cp.group_id = g.id
      where cp.category_id = ${row.id} and g.published order by g.id limit 1`)
    const productRow = (product as unknown as { rows: { url: string }[] }).rows[0]
    if (!productRow) throw new Error('no product in the bench category')
    return { listing: row.url, product: productRow.url }
  } finally {
    await database.close()
  }
}

async function main() {
  if (!existsSync(resolve(root, 'dist/node/server/main.js'))) {
    console.error('No production build found: run `npm run build` first (npm run bench does).')
    process.exit(1)
  }
  const dbDir = resolve(root, 'var/bench-db')
  rmSync(dbDir, { recursive: true, force: true })
  const targets = await prepareCatalog(dbDir)
  const app = start('app', process.execPath, ['dist/node/server/main.js'], {
    NODE_ENV: 'production',
    PORT: String(appPort),
    HOST: '127.0.0.1',
    PGLITE_DIR: dbDir,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MINUTE: '100000000',
  })
  const ceiling = start('ceiling', process.execPath, ['--import', 'tsx', 'scripts/bench/ceiling.ts'], {
    PORT: String(ceilingPort),
  })
  try {
    await waitFor(`http://127.0.0.1:${appPort}/healthz`)
    await waitFor(`http://127.0.0.1:${ceilingPort}/`)
    // The demo sites are keyed by host; localhost is the GBP brand.
    const host = { host: 'localhost' }
    const scenarios: Scenario[] = [
      { name: 'ceiling: bare Fastify route', url: `http://127.0.0.1:${ceilingPort}/` },
      {
        name: 'home page, SSR HTML',
        url: `http://127.0.0.1:${appPort}/`,
        headers: { ...host, accept: 'text/html' },
      },
      {
        name: 'home page, Inertia JSON',
        url: `http://127.0.0.1:${appPort}/`,
        headers: { ...host, ...inertiaHeaders },
      },
      {
        name: 'content page, SSR HTML',
        url: `http://127.0.0.1:${appPort}/about-us`,
        headers: { ...host, accept: 'text/html' },
      },
      {
        name: `product page, SSR HTML (${benchProducts} products)`,
        url: `http://127.0.0.1:${appPort}${targets.product}`,
        headers: { ...host, accept: 'text/html' },
      },
      {
        name: `product page, Inertia JSON (${benchProducts} products)`,
        url: `http://127.0.0.1:${appPort}${targets.product}`,
        headers: { ...host, ...inertiaHeaders },
      },
      {
        name: `category listing, SSR HTML (${benchProducts} products)`,
        url: `http://127.0.0.1:${appPort}${targets.listing}?page=2`,
        headers: { ...host, accept: 'text/html' },
      },
      ...(await authScenarios(`http://127.0.0.1:${appPort}`, 'localhost', inertiaHeaders)),
    ]
    // Inertia visits must carry the current asset version, as the browser does.
    // A stale version is answered with 409 and the current one in X-Inertia-Version.
    const version = await new Promise<string>((resolve, reject) => {
      http
        .get(
          `http://127.0.0.1:${appPort}/`,
          { headers: { ...host, ...inertiaHeaders, 'x-inertia-version': 'x' } },
          (res) => {
            res.resume()
            resolve(String(res.headers['x-inertia-version'] ?? ''))
          },
        )
        .on('error', reject)
    })
    for (const s of scenarios) if (s.headers?.['x-inertia']) s.headers['x-inertia-version'] = version

    console.log(
      `bench: ${connections} connections, ${durationMs / 1000} s per scenario (+2 s warm-up each, after a 3 s warm-up of every scenario), node ${process.version}`,
    )
    // Right after start V8 is still optimising (PGlite's WebAssembly tiers up on background
    // threads for several seconds): warm every scenario once before measuring any of them.
    for (const s of scenarios)
      await load({ url: s.url, headers: s.headers ?? {}, connections, durationMs: 3000 })
    const results: [Scenario, LoadResult][] = []
    for (const s of scenarios) {
      const r = await load({ url: s.url, headers: s.headers ?? {}, connections, durationMs, warmupMs: 2000 })
      results.push([s, r])
    }
    // The target: an anonymous product page at 200 req/s with p95 under 20 ms.
    const product = scenarios.find((s) => s.name.startsWith('product page, SSR'))!
    const fixed = await rateLoad({
      url: product.url,
      headers: product.headers ?? {},
      rate: 200,
      durationMs: durationMs,
    })
    results.push([{ ...product, name: 'product page, SSR HTML at a fixed 200 req/s' }, fixed])
    const ceilingRps = results[0]![1].rps
    const rows = results.map(([s, r]) => ({
      scenario: s.name,
      'req/s': r.rps.toFixed(0),
      'p50 ms': r.p50.toFixed(2),
      'p95 ms': r.p95.toFixed(2),
      'p99 ms': r.p99.toFixed(2),
      'x ceiling': (r.rps / ceilingRps).toFixed(3),
      'bytes/resp': r.bytesPerResponse.toFixed(0),
      errors: r.errors + r.non2xx,
    }))
    console.table(rows)
  } finally {
    app.kill('SIGTERM')
    ceiling.kill('SIGTERM')
  }
}

await main()
