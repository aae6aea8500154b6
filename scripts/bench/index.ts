/**
 * `npm run bench`: starts the production build on a fresh PGlite database and a bare Fastify
 * server (the machine's ceiling), loads each scenario for a fixed time with the same client, and
 * prints req/s, p50/p95/p99 and the ratio to the ceiling. All figures come from this one run.
 *
 * `--faults` runs the load test with faults instead (scripts/ops/fault-load.ts: two instances on
 * PostgreSQL and Redis, one killed and the database restarted mid-run, then a reconciliation).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, rmSync } from 'node:fs'
import http from 'node:http'
import { call } from './http.ts'
import { resolve } from 'node:path'
import { authScenarios } from './auth.ts'
import { bundleBench } from './bundle.ts'
import { htmlBench } from './html.ts'
import { lighthouseBench } from './lighthouse.ts'
import { basketBench } from './basket.ts'
import { load, rateLoad, type LoadResult } from './load.ts'
import { orderBench } from './order.ts'
import { serverCommand } from './server-command.ts'
import { search100kBench, startupBench } from './startup.ts'
import { backofficeOrdersBench } from './backoffice-orders.ts'

// A production server on PostgreSQL refuses to start without a session secret (every instance
// must share one): the bench's own seed and servers share one made for this run.
process.env.SESSION_SECRET ??= randomBytes(32).toString('hex')

const root = resolve(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '../..')
const args = new Map(
  process.argv.slice(2).map((a) => {
    const [k, ...v] = a.replace(/^--/, '').split('=')
    return [k!, v.length ? v.join('=') : 'true'] as const
  }),
)
const durationMs = Number(args.get('duration') ?? 10) * 1000
const benchProducts = Number(args.get('products') ?? 10000)
const connections = Number(args.get('connections') ?? 10)
/** `--only=search`: measure only the scenarios whose name contains this text (the ceiling always runs). */
const only = args.get('only')
// Ports 4190 and similar are on the WHATWG bad-port list (fetch refuses them); keep to 43xx.
const appPort = Number(args.get('port') ?? 4310)
/** `--ceiling-port=N`: the bare Fastify server's port (default: the app's + 1), so two benches can run side by side */
const ceilingPort = Number(args.get('ceiling-port') ?? appPort + 1)
/** Visitors with a basket in the cart scenarios */
const BASKETS = 20
/** Orders a second in the order scenario (issue 13's target rate) */
const ORDER_RATE = Number(args.get('order-rate') ?? 20)

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
  /** Default GET, or POST when there is a body (JSON) */
  method?: 'GET' | 'POST'
  body?: string
  variants?: { headers: Record<string, string>; body?: string }[]
}

/**
 * Seeds the demo shop plus the generated benchmark catalogue into the bench database, then picks
 * the busiest paginated category under /bench and one of its products as load targets.
 */
/** The bench database: PostgreSQL when DATABASE_URL is set, else the PGlite directory. */
function benchDatabase(dbDir: string) {
  return process.env.DATABASE_URL
    ? ({ driver: 'postgres', url: process.env.DATABASE_URL, poolSize: 1 } as const)
    : ({ driver: 'pglite', dataDir: dbDir, poolSize: 1 } as const)
}

async function prepareCatalog(
  dbDir: string,
): Promise<{ product: string; listing: string; skus: { id: number; categoryId: number }[] }> {
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
  const database = await openDatabase(benchDatabase(dbDir))
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
    // SKUs for a basket of several lines (the cart scenarios).
    const skus = await database.db.execute<{ id: number; category_id: number }>(sql`
      select p.id, g.category_id from products p join product_groups g on g.id = p.group_id
      join sites s on s.id = p.site_id
      where s.host = 'localhost' and p.published and g.published and p.minimum_order = 1
      order by p.id limit 5`)
    const skuRows = (skus as unknown as { rows: { id: number; category_id: number }[] }).rows
    return {
      listing: row.url,
      product: productRow.url,
      skus: skuRows.map((r) => ({ id: Number(r.id), categoryId: Number(r.category_id) })),
    }
  } finally {
    await database.close()
  }
}

/**
 * Search scenarios (issue 4): the dropdown's multi-query (suggestions, categories, products) for
 * an as-you-type prefix and for a misspelt query, and the Search page. POSTs carry the CSRF
 * cookie and token a browser would.
 */
async function searchScenarios(base: string, host: { host: string }, version: string): Promise<Scenario[]> {
  const first = await fetch(`${base}/`, { headers: { ...host, accept: 'text/html' } })
  const cookies = first.headers.getSetCookie().map((c) => c.split(';')[0]!)
  const token = cookies.find((c) => c.startsWith('XSRF-TOKEN='))?.slice('XSRF-TOKEN='.length) ?? ''
  const headers = {
    ...host,
    accept: 'application/json',
    cookie: cookies.join('; '),
    'x-xsrf-token': decodeURIComponent(token),
  }
  const dropdown = (query: string) =>
    JSON.stringify({
      requests: [
        { indexName: 'products_query_suggestions', query, hitsPerPage: 5 },
        {
          indexName: 'products',
          query,
          filters: 'type:category AND status:published',
          hitsPerPage: 4,
          clickAnalytics: true,
        },
        {
          indexName: 'products',
          query,
          filters: 'type:product_group OR type:product AND status:published',
          hitsPerPage: 3,
          clickAnalytics: true,
        },
      ],
    })
  return [
    {
      name: `search dropdown, prefix 'fire ex' (${benchProducts} products)`,
      url: `${base}/search/1/indexes/*/queries`,
      headers,
      body: dropdown('fire ex'),
    },
    {
      name: `search dropdown, typo 'fier exti' (${benchProducts} products)`,
      url: `${base}/search/1/indexes/*/queries`,
      headers,
      body: dropdown('fier exti'),
    },
    {
      name: `search page 2 for 'sign', Inertia JSON (${benchProducts} products)`,
      url: `${base}/search?q=sign&page=2`,
      headers: { ...host, ...inertiaHeaders, 'x-inertia-version': version },
    },
  ]
}

/** Builds the embedded search index of the bench database in this process: build time and heap. */
async function measureSearchIndex(dbDir: string): Promise<void> {
  const { openDatabase } = await import('../../src/server/db/client.ts')
  const { loadCategoryRecords, loadProductRecords } =
    await import('../../src/server/modules/search/documents.ts')
  const { EmbeddedSearchEngine } = await import('../../src/server/modules/search/search.engine.ts')
  const { sites } = await import('../../src/server/db/schema.ts')
  const database = await openDatabase(benchDatabase(dbDir))
  try {
    const engine = new EmbeddedSearchEngine()
    global.gc?.()
    const heapBefore = process.memoryUsage().heapUsed
    const started = performance.now()
    let records = 0
    let loadMs = 0
    for (const { id } of await database.db.select({ id: sites.id }).from(sites)) {
      const t0 = performance.now()
      const all = [
        ...(await loadCategoryRecords(database.db, { siteId: id })),
        ...(await loadProductRecords(database.db, { siteId: id })),
      ]
      loadMs += performance.now() - t0
      await engine.replaceAll(id, 'products', all)
      records += all.length
    }
    const totalMs = performance.now() - started
    global.gc?.()
    const heapMB = (process.memoryUsage().heapUsed - heapBefore) / 1048576
    console.log(
      `search index: ${records} records in ${(totalMs / 1000).toFixed(2)} s (database read ${(loadMs / 1000).toFixed(2)} s, indexing ${((totalMs - loadMs) / 1000).toFixed(2)} s), heap +${heapMB.toFixed(0)} MB${global.gc ? '' : ' (run node with --expose-gc for an exact figure)'}`,
    )
  } finally {
    await database.close()
  }
}

/** Starts a visitor's session the way a browser does and fills a basket; returns its credentials. */
async function prepareBasket(
  base: string,
  skus: { id: number; categoryId: number }[],
): Promise<{ cookie: string; xsrf: string; lineIds: number[] }> {
  if (skus.length === 0) throw new Error('no SKUs for the basket scenarios')
  const jar = new Map<string, string>()
  const keep = (cookies: string[]) => {
    for (const c of cookies) {
      const [pair] = c.split(';')
      const i = pair!.indexOf('=')
      jar.set(pair!.slice(0, i), pair!.slice(i + 1))
    }
  }
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ')
  keep((await call(`${base}/`, 'GET', { host: 'localhost', accept: 'text/html' })).cookies)
  const xsrf = decodeURIComponent(jar.get('XSRF-TOKEN') ?? '')
  const res = await call(
    `${base}/cart/add`,
    'POST',
    { host: 'localhost', accept: 'application/json', cookie: cookie(), 'x-xsrf-token': xsrf },
    JSON.stringify({
      items: skus.map((s) => ({ listing_id: s.id, quantity: 1, category_id: s.categoryId })),
    }),
  )
  if (res.status !== 200) throw new Error(`filling the bench basket failed: ${res.status} ${res.text}`)
  keep(res.cookies)
  const cart = JSON.parse(res.text) as { items: { id: number }[] }
  return { cookie: cookie(), xsrf, lineIds: cart.items.map((i) => i.id) }
}

/**
 * Issue 11 (item 9): does the forgot-password answer take longer for a registered e-mail? Runs
 * scripts/bench/forgot-timing.ts (its own app and database), which prints both medians, their
 * ratio and a Mann-Whitney test; a significant difference is reported, not fatal to the bench.
 */
async function forgotTiming(): Promise<void> {
  const code = await new Promise<number>((resolveRun) => {
    const run = spawn(
      process.execPath,
      ['--import', 'tsx', 'scripts/bench/forgot-timing.ts', String(args.get('forgot-n') ?? 80)],
      // Its own app's payment simulators on a port of their own: the main run's server, still
      // up, holds the default one.
      { cwd: root, env: { ...process.env, PAYMENTS_SIMULATOR_PORT: String(appPort + 9) }, stdio: 'inherit' },
    )
    run.on('exit', (c) => resolveRun(c ?? 2))
  })
  // forgot-timing.ts exits 3 for a significant difference; any other code is a failed run.
  if (code === 3) console.log('forgot-password timing: the two answers differ measurably (see above)')
  else if (code !== 0) console.log(`forgot-password timing: the run failed (exit code ${code}; see above)`)
}

async function main() {
  // Issue 32: the load test with faults instead of the bench (scripts/ops/fault-load.ts).
  if (args.has('faults')) {
    const { faultLoad, faultLoadOptions } = await import('../ops/fault-load.ts')
    process.exitCode = await faultLoad(faultLoadOptions(root, args))
    return
  }
  if (!existsSync(resolve(root, 'dist/node/server/main.js'))) {
    console.error('No production build found: run `npm run build` first (npm run bench does).')
    process.exit(1)
  }
  // Issue 18: cold start and memory on the demo data, and the Search page at 100k products, each
  // with its own servers before the main run's (--only=startup or --only=search100k for just one).
  // `--runs=N`: starts measured by the startup bench; `--node-args=--a,--b`: flags for every server's
  // node (e.g. `--cpu-prof,--cpu-prof-dir=var/prof` to profile the main run's server).
  const own = {
    root,
    port: appPort,
    durationMs,
    connections,
    runs: args.has('runs') ? Number(args.get('runs')) : undefined,
    nodeArgs: args.get('node-args')?.split(',').filter(Boolean),
  }
  if (!only || only === 'startup') await startupBench(own)
  if (!only || only === 'search100k') await search100kBench(own)
  // Issue 34: the back office's order list and search on PostgreSQL (`--orders=N`, default 1M;
  // skipped without BENCH_DATABASE_URL or DATABASE_URL), `--only=backoffice` for just this part.
  const ordersServer = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL
  if (!only || only === 'backoffice') {
    if (ordersServer)
      await backofficeOrdersBench({
        serverUrl: ordersServer,
        orders: Number(args.get('orders') ?? 1_000_000),
        samples: Number(args.get('samples') ?? 200),
        reseed: args.has('reseed'),
      })
    else console.log('backoffice: skipped (set BENCH_DATABASE_URL to a PostgreSQL server)')
  }
  if (only === 'startup' || only === 'search100k' || only === 'backoffice') return
  const dbDir = resolve(root, 'var/bench-db')
  rmSync(dbDir, { recursive: true, force: true })
  const targets = await prepareCatalog(dbDir)
  await measureSearchIndex(dbDir)
  const serve = serverCommand(root, own.nodeArgs)
  const app = start('app', serve.command, serve.args, {
    ...serve.env,
    NODE_ENV: 'production',
    PORT: String(appPort),
    HOST: '127.0.0.1',
    PGLITE_DIR: dbDir,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MINUTE: '100000000',
    SERVER_TIMING: 'true',
    SEARCH_RATE_LIMIT_PER_MINUTE: '100000000',
    // The order scenario's shoppers each come from their own address (X-Forwarded-For).
    TRUST_PROXY: 'true',
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
        name: 'content page with blocks, Inertia JSON',
        url: `http://127.0.0.1:${appPort}/delivery-information`,
        headers: { ...host, ...inertiaHeaders },
      },
      {
        name: 'blog post, SSR HTML',
        url: `http://127.0.0.1:${appPort}/blog/how-often-should-fire-extinguishers-be-serviced`,
        headers: { ...host, accept: 'text/html' },
      },
      {
        name: 'blog post, Inertia JSON',
        url: `http://127.0.0.1:${appPort}/blog/how-often-should-fire-extinguishers-be-serviced`,
        headers: { ...host, ...inertiaHeaders },
      },
      {
        name: 'blog category, SSR HTML',
        url: `http://127.0.0.1:${appPort}/blog/fire-safety`,
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
    // Visitors with a basket of five lines each: their cookies and CSRF tokens drive the cart
    // scenarios, taken in turn (one basket's writes queue behind each other by design).
    const baskets: Awaited<ReturnType<typeof prepareBasket>>[] = []
    for (let i = 0; i < BASKETS; i++)
      baskets.push(await prepareBasket(`http://127.0.0.1:${appPort}`, targets.skus))
    // Issue 18: product page HTML sizes against their budgets and the HTML checker's errors.
    if (!only || 'html: product page size and valid HTML'.includes(only))
      await htmlBench({
        base: `http://127.0.0.1:${appPort}`,
        hosts: { harbour: 'localhost', northgate: '127.0.0.1' },
        basketCookie: baskets[0]?.cookie,
        benchProduct: targets.product,
      })
    const visitorOf = (b: (typeof baskets)[number]) => ({ ...host, cookie: b.cookie, 'x-xsrf-token': b.xsrf })
    const visitor = visitorOf(baskets[0]!)
    scenarios.push(
      {
        name: 'Cart page, SSR HTML (5 lines)',
        url: `http://127.0.0.1:${appPort}/cart`,
        headers: { ...visitor, accept: 'text/html' },
      },
      {
        name: 'Cart page, Inertia JSON (5 lines)',
        url: `http://127.0.0.1:${appPort}/cart`,
        headers: { ...visitor, ...inertiaHeaders },
      },
      {
        name: `POST /cart/update-items (${BASKETS} baskets of 5 lines)`,
        url: `http://127.0.0.1:${appPort}/cart/update-items`,
        method: 'POST',
        variants: baskets.flatMap((b) =>
          [12, 13].map((quantity) => ({
            headers: { ...visitorOf(b), accept: 'application/json' },
            body: JSON.stringify({ items: [{ id: b.lineIds[0], quantity }] }),
          })),
        ),
      },
    )
    for (const s of scenarios) if (s.headers?.['x-inertia']) s.headers['x-inertia-version'] = version
    scenarios.push(...(await searchScenarios(`http://127.0.0.1:${appPort}`, host, version)))
    if (only) {
      for (let i = scenarios.length - 1; i > 0; i--)
        if (!scenarios[i]!.name.includes(only)) scenarios.splice(i, 1)
    }

    console.log(
      `bench: ${connections} connections, ${durationMs / 1000} s per scenario (+2 s warm-up each, after a 3 s warm-up of every scenario), node ${process.version}`,
    )
    // Right after start V8 is still optimising (PGlite's WebAssembly tiers up on background
    // threads for several seconds): warm every scenario once before measuring any of them.
    for (const s of scenarios)
      await load({
        url: s.url,
        headers: s.headers ?? {},
        method: s.method,
        body: s.body,
        variants: s.variants,
        connections,
        durationMs: 3000,
      })
    const results: [Scenario, LoadResult][] = []
    for (const s of scenarios) {
      const r = await load({
        url: s.url,
        headers: s.headers ?? {},
        method: s.method,
        body: s.body,
        variants: s.variants,
        connections,
        durationMs,
        warmupMs: 2000,
      })
      results.push([s, r])
    }
    // The target: an anonymous product page at 200 req/s with p95 under 20 ms. Open-loop
    // runs are at the mercy of this shared VM's hiccups, so the bench makes three and prints each.
    const product = scenarios.find((s) => s.name.startsWith('product page, SSR'))
    if (product)
      await load({ url: product.url, headers: product.headers ?? {}, connections, durationMs: 2000 })
    for (let run = 1; product && run <= 3; run++) {
      const fixed = await rateLoad({
        url: product.url,
        headers: product.headers ?? {},
        rate: 200,
        durationMs: durationMs,
      })
      results.push([{ ...product, name: `product page, SSR HTML at a fixed 200 req/s (run ${run})` }, fixed])
    }
    // The basket issue's target: update-items and the Cart page at 200 req/s with p95 under 15 ms.
    for (const name of [
      `POST /cart/update-items (${BASKETS} baskets of 5 lines)`,
      'Cart page, Inertia JSON (5 lines)',
    ]) {
      const s = scenarios.find((x) => x.name === name)
      if (!s) continue
      const r = await rateLoad({
        url: s.url,
        headers: s.headers ?? {},
        method: s.method,
        body: s.body,
        variants: s.variants,
        rate: 200,
        durationMs,
      })
      results.push([{ ...s, name: `${name} at a fixed 200 req/s` }, r])
    }
    // The checkout issue's target: placing a purchase-order order, p95 under 60 ms at 20 orders/s
    // (on PostgreSQL: run the bench with DATABASE_URL; without it this is the PGlite figure).
    const orderName = `POST /checkout/complete, purchase order, fresh basket each, fixed ${ORDER_RATE} orders/s`
    if (!only || orderName.includes(only)) {
      const r = await orderBench(`http://127.0.0.1:${appPort}`, targets.skus, {
        rate: ORDER_RATE,
        durationMs,
      })
      results.push([{ name: orderName, url: '' }, r])
    }
    const ceilingRps = results[0]![1].rps
    const rows = results.map(([s, r]) => ({
      scenario: s.name,
      'req/s': r.rps.toFixed(0),
      'p50 ms': r.p50.toFixed(2),
      'p95 ms': r.p95.toFixed(2),
      'p99 ms': r.p99.toFixed(2),
      'server p50': r.server ? r.server.p50.toFixed(2) : '',
      'server p95': r.server ? r.server.p95.toFixed(2) : '',
      'x ceiling': (r.rps / ceilingRps).toFixed(3),
      'bytes/resp': r.bytesPerResponse.toFixed(0),
      errors: r.errors + r.non2xx,
    }))
    console.table(rows)
    // Issue 18: first-load JavaScript per page, transfer sizes, compression's cost (--only=bundle).
    if (!only || only === 'bundle')
      await bundleBench({
        root,
        base: `http://127.0.0.1:${appPort}`,
        host: host.host,
        productPath: targets.product,
        inertiaHeaders: { ...inertiaHeaders, 'x-inertia-version': version },
        ceilingRps,
        connections,
        durationMs,
      })
    // Issue 18: Lighthouse mobile on every page type of both sites (scripts/bench/lighthouse.ts).
    if (!only || 'lighthouse mobile'.includes(only))
      await lighthouseBench(`http://127.0.0.1:${appPort}`, args.get('lighthouse-filter'))
    // Issue 18's basket targets (scripts/bench/basket.ts): its own scenarios and verdicts.
    if (!only || 'basket: add to basket, Cart page, logged-in cost'.includes(only))
      await basketBench({
        base: `http://127.0.0.1:${appPort}`,
        host: host.host,
        inertia: { ...inertiaHeaders, 'x-inertia-version': version },
        skus: targets.skus,
        connections,
        durationMs,
        postgres: Boolean(process.env.DATABASE_URL),
        appPid: app.pid,
        databaseUrl: process.env.DATABASE_URL,
      })
    if (!only || 'forgot-password timing'.includes(only)) await forgotTiming()
  } finally {
    app.kill('SIGTERM')
    ceiling.kill('SIGTERM')
  }
}

await main()
