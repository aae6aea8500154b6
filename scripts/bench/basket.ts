/**
 * The basket's bench (issue 18, `--only=basket`): add to basket at 10 concurrent visitors, the
 * Cart page of a five-line basket, the SQL statements per request (the server's `x-db-queries`
 * header, sent with SERVER_TIMING), and what a logged-in visitor's page costs beside an anonymous
 * one. Every target is printed with its figure and "met" or "NOT met", and every scenario with
 * the CPU time the server and PostgreSQL's backends spent per request (scripts/bench/proc-cpu.ts).
 */
import { call, type Answer } from './http.ts'
import { demoCustomerCookie } from './auth.ts'
import { load, rateLoad, type LoadResult } from './load.ts'
import { cpuSince, type CpuSpent } from './proc-cpu.ts'

export interface BasketBenchOptions {
  base: string
  host: string
  /** Inertia headers with the current asset version */
  inertia: Record<string, string>
  skus: { id: number; categoryId: number }[]
  connections: number
  durationMs: number
  postgres: boolean
  /** The server's process id (its CPU time per request is printed) */
  appPid?: number
  /** The bench's PostgreSQL database: its backends' CPU time per request is printed */
  databaseUrl?: string
}

/** The process ids of the PostgreSQL backends connected to the bench database (the app's pool). */
async function backendPids(
  url: string,
): Promise<{ pids: () => Promise<number[]>; close: () => Promise<void> }> {
  const { default: pg } = await import('pg')
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  return {
    pids: async () =>
      (
        await client.query<{ pid: number }>(
          `select pid from pg_stat_activity
           where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend'`,
        )
      ).rows.map((r) => r.pid),
    close: () => client.end(),
  }
}

function perRequest(ms: number | null, requests: number): string {
  return ms === null || requests === 0 ? '?' : (ms / requests).toFixed(3)
}

/** Visitors adding to their baskets at once (issue 18: 10 concurrent visitors). */
const VISITORS = 10

/** A visitor with a basket of one line per SKU, its cookies and CSRF token. */
async function visitorWithBasket(
  o: BasketBenchOptions,
  cookie = '',
): Promise<{ headers: Record<string, string> }> {
  const jar = new Map<string, string>()
  for (const pair of cookie.split('; ').filter(Boolean)) {
    const i = pair.indexOf('=')
    jar.set(pair.slice(0, i), pair.slice(i + 1))
  }
  const keep = (cookies: string[]) => {
    for (const c of cookies) {
      const [pair] = c.split(';')
      const i = pair!.indexOf('=')
      jar.set(pair!.slice(0, i), pair!.slice(i + 1))
    }
  }
  const jarHeader = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ')
  keep((await call(`${o.base}/`, 'GET', { host: o.host, accept: 'text/html', cookie: jarHeader() })).cookies)
  const xsrf = decodeURIComponent(jar.get('XSRF-TOKEN') ?? '')
  const res = await call(
    `${o.base}/cart/add`,
    'POST',
    { host: o.host, accept: 'application/json', cookie: jarHeader(), 'x-xsrf-token': xsrf },
    JSON.stringify({
      items: o.skus.map((s) => ({ listing_id: s.id, quantity: 1, category_id: s.categoryId })),
    }),
  )
  if (res.status !== 200) throw new Error(`filling a bench basket failed: ${res.status} ${res.text}`)
  keep(res.cookies)
  return { headers: { host: o.host, cookie: jarHeader(), 'x-xsrf-token': xsrf } }
}

/** The statements of `n` requests one after another (after one to warm up): the largest count. */
async function queriesPerRequest(n: number, send: () => Promise<Answer>): Promise<number | null> {
  await send()
  let most: number | null = null
  for (let i = 0; i < n; i++) {
    const r = await send()
    if (r.status >= 400) throw new Error(`query count request failed: ${r.status} ${r.text.slice(0, 200)}`)
    if (r.queries !== null) most = Math.max(most ?? 0, r.queries)
  }
  return most
}

function verdict(met: boolean): string {
  return met ? 'met' : 'NOT met'
}

export async function basketBench(o: BasketBenchOptions): Promise<void> {
  if (o.skus.length < 5) throw new Error('the basket bench needs five SKUs')
  const db = o.postgres ? 'PostgreSQL' : 'PGlite'
  const visitors = []
  for (let i = 0; i < VISITORS; i++) visitors.push(await visitorWithBasket(o))
  // The same page for both, neither with a basket: only being logged in differs.
  const loggedInCookie = await demoCustomerCookie(o.base, o.host)

  // One more of a line already in the basket, each visitor in turn (10 connections, 10 baskets).
  const addBody = (k: number) =>
    JSON.stringify({
      items: [{ listing_id: o.skus[k]!.id, quantity: 1, category_id: o.skus[k]!.categoryId }],
    })
  const add = {
    url: `${o.base}/cart/add`,
    method: 'POST' as const,
    variants: visitors.flatMap((v) =>
      o.skus.map((_, k) => ({ headers: { ...v.headers, accept: 'application/json' }, body: addBody(k) })),
    ),
  }
  const cartPage = {
    url: `${o.base}/cart`,
    variants: visitors.map((v) => ({ headers: { ...v.headers, ...o.inertia } })),
  }
  const anonymousHome = { url: `${o.base}/`, headers: { host: o.host, ...o.inertia } }
  const loggedInHome = { url: `${o.base}/`, headers: { host: o.host, cookie: loggedInCookie, ...o.inertia } }

  const scenarios: [string, Parameters<typeof load>[0]][] = [
    [
      `basket: add to basket, ${VISITORS} visitors at once (5-line baskets)`,
      { ...add, connections: o.connections, durationMs: o.durationMs },
    ],
    [
      'basket: Cart page, Inertia JSON (5 lines)',
      { ...cartPage, connections: o.connections, durationMs: o.durationMs },
    ],
    [
      'basket: Cart page, SSR HTML (5 lines)',
      {
        url: cartPage.url,
        variants: visitors.map((v) => ({ headers: { ...v.headers, accept: 'text/html' } })),
        connections: o.connections,
        durationMs: o.durationMs,
      },
    ],
    [
      'basket: home page, Inertia JSON, anonymous',
      { ...anonymousHome, connections: o.connections, durationMs: o.durationMs },
    ],
    [
      'basket: home page, Inertia JSON, logged-in customer',
      { ...loggedInHome, connections: o.connections, durationMs: o.durationMs },
    ],
  ]
  // Warm every scenario once (V8 and PGlite's WebAssembly tier up), then measure each, counting
  // the CPU time of the server and of the database's backends over the measured part only.
  for (const [, s] of scenarios) await load({ ...s, durationMs: 2000 })
  const backends = o.databaseUrl ? await backendPids(o.databaseUrl) : null
  const cpu = new Map<string, CpuSpent>()
  const results: [string, LoadResult][] = []
  try {
    for (const [name, s] of scenarios) {
      await load({ ...s, durationMs: 1000 })
      const spent = await cpuSince(o.appPid, backends?.pids ?? null)
      results.push([name, await load(s)])
      cpu.set(name, await spent())
    }
    const spent = await cpuSince(o.appPid, backends?.pids ?? null)
    const cartFixed = await rateLoad({ ...cartPage, rate: 200, durationMs: o.durationMs })
    cpu.set('basket: Cart page, Inertia JSON, fixed 200 req/s', await spent())
    results.push(['basket: Cart page, Inertia JSON, fixed 200 req/s', cartFixed])
  } finally {
    await backends?.close()
  }
  const cartFixed = results.at(-1)![1]

  const queries = {
    cartPage: await queriesPerRequest(10, () => call(cartPage.url, 'GET', cartPage.variants[0]!.headers)),
    add: await queriesPerRequest(10, () =>
      call(add.url, 'POST', add.variants[0]!.headers, add.variants[0]!.body),
    ),
    anonymousHome: await queriesPerRequest(10, () => call(anonymousHome.url, 'GET', anonymousHome.headers)),
    loggedInHome: await queriesPerRequest(10, () => call(loggedInHome.url, 'GET', loggedInHome.headers)),
  }

  console.log(`\nbasket bench on ${db}, ${o.connections} connections, ${o.durationMs / 1000} s per scenario`)
  console.table(
    results.map(([name, r]) => ({
      scenario: name,
      'req/s': r.rps.toFixed(0),
      'p50 ms': r.p50.toFixed(2),
      'p95 ms': r.p95.toFixed(2),
      'p99 ms': r.p99.toFixed(2),
      'server p50': r.server ? r.server.p50.toFixed(2) : '',
      'server p95': r.server ? r.server.p95.toFixed(2) : '',
      'app CPU ms/req': perRequest(cpu.get(name)?.app ?? null, r.requests),
      'db CPU ms/req': o.postgres ? perRequest(cpu.get(name)?.database ?? null, r.requests) : 'in app',
      errors: r.errors + r.non2xx,
    })),
  )
  console.table(
    Object.entries(queries).map(([request, most]) => ({
      request,
      'statements per request (most)': most ?? '?',
    })),
  )

  const byName = new Map(results)
  const addResult = byName.get(scenarios[0]![0])!
  const cartResult = byName.get(scenarios[1]![0])!
  const anon = byName.get(scenarios[3]![0])!
  const logged = byName.get(scenarios[4]![0])!
  const addTarget = o.postgres ? 30 : 60
  const ratio = logged.server && anon.server ? logged.server.p50 / anon.server.p50 : NaN
  const rpsRatio = anon.rps / logged.rps
  const lines = [
    `add to basket at ${VISITORS} concurrent visitors, p95 ${addResult.p95.toFixed(1)} ms (${addResult.rps.toFixed(0)} req/s, ${addResult.errors + addResult.non2xx} errors); target under ${addTarget} ms on ${db}: ${verdict(addResult.p95 < addTarget && addResult.errors + addResult.non2xx === 0)}`,
    `Cart page (5 lines), ${queries.cartPage ?? '?'} statements per request; target at most 5: ${verdict(queries.cartPage !== null && queries.cartPage <= 5)}`,
    `Cart page (5 lines), server p50 ${cartResult.server?.p50.toFixed(2) ?? '?'} ms at ${o.connections} connections (${cartFixed.server?.p50.toFixed(2) ?? '?'} ms at a fixed 200 req/s); target under 2 ms on PostgreSQL: ${o.postgres ? verdict((cartResult.server?.p50 ?? Infinity) < 2) : 'n/a on PGlite'}`,
    `logged-in page cost, server p50 ${logged.server?.p50.toFixed(2) ?? '?'} ms ÷ anonymous ${anon.server?.p50.toFixed(2) ?? '?'} ms = ${ratio.toFixed(2)}× (req/s ${rpsRatio.toFixed(2)}×; statements ${queries.loggedInHome ?? '?'} vs ${queries.anonymousHome ?? '?'}); target within 1.3×: ${verdict(ratio <= 1.3)}`,
  ]
  console.log(`\nissue 18, basket targets (${db}):\n${lines.map((l) => `- ${l}`).join('\n')}`)
}
