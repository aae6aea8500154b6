/**
 * The load test with faults (issue 32, item 8): `npm run bench -- --faults` (after the build
 * the bench script runs), or `npx tsx scripts/bench/index.ts --faults` on an existing build.
 *
 * Two production instances on a PostgreSQL cluster of the run's own (initdb in a temporary
 * folder, so restarting it disturbs nobody) and Redis (one database number of the machine's,
 * flushed before and after), e-mails through an SMTP stand-in, payments through the one payment
 * simulator service both instances point at by URL (`npm run simulators`, ADR 0195), as in
 * production. Mixed traffic at a fixed arrival rate (fault-traffic.ts)
 * for `--faults-seconds` (300); at 30 % of the run instance 1 is killed with SIGKILL and started
 * again 2 s later; at 60 % the database is restarted (`pg_ctl restart -m immediate`: a crash and
 * recovery; `--faults-db-restart=fast` for a clean one). Then the mail queue is given up to
 * `--faults-drain-seconds` (180) to drain, the baskets are read back and everything is
 * reconciled (fault-reconcile.ts); the run exits 1 when reconciliation fails.
 *
 * `--faults-kill=mid-order` times the kill to land while an order's Complete Order is in flight
 * to instance 1 (by default it comes on time, whatever is in flight).
 *
 * Ports (4400–4499): instances 4410 and 4420, the simulator service 4411, the SMTP stand-in
 * 4430, PostgreSQL 4450 (`--faults-port-base=N` moves them all by N - 4400). Loopback only.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { loadavg } from 'node:os'
import { resolve } from 'node:path'
import { Redis } from 'ioredis'
import pg from 'pg'
import { serverCommand } from '../bench/server-command.ts'
import { errorsByKind, markdownTable, summarise, type Phase } from './fault-report.ts'
import { pendingMail, reconcile } from './fault-reconcile.ts'
import { Balancer } from './fault-balancer.ts'
import { readBackBaskets, runTraffic, type Targets } from './fault-traffic.ts'
import { startPgCluster } from './pg-cluster.ts'
import { startSmtpStandIn } from './smtp-stand-in.ts'

export interface FaultLoadOptions {
  root: string
  seconds: number
  /** Arrivals per second (each one action: a page, a search, a basket change or a whole order) */
  rate: number
  portBase: number
  redisUrl: string
  dbRestart: 'fast' | 'immediate'
  drainSeconds: number
  /** `mid-order`: the kill waits (at most 15 s) for an order's Complete Order in flight to instance 1 */
  kill: 'on-time' | 'mid-order'
}

export function faultLoadOptions(root: string, args: Map<string, string>): FaultLoadOptions {
  const dbRestart = args.get('faults-db-restart') ?? 'immediate'
  if (dbRestart !== 'fast' && dbRestart !== 'immediate')
    throw new Error('--faults-db-restart: fast or immediate')
  return {
    root,
    seconds: Number(args.get('faults-seconds') ?? 300),
    rate: Number(args.get('faults-rate') ?? 15),
    portBase: Number(args.get('faults-port-base') ?? 4400),
    redisUrl: args.get('faults-redis') ?? 'redis://127.0.0.1:6379/12',
    dbRestart,
    drainSeconds: Number(args.get('faults-drain-seconds') ?? 180),
    kill: args.get('faults-kill') === 'mid-order' ? 'mid-order' : 'on-time',
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

async function ready(port: number, timeoutMs = 180_000): Promise<void> {
  const until = Date.now() + timeoutMs
  while (Date.now() < until) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/readyz`, { signal: AbortSignal.timeout(2000) })).ok) return
    } catch {
      /* not yet */
    }
    await sleep(250)
  }
  throw new Error(`service on ${port} not ready`)
}

async function targetsOf(db: pg.Client): Promise<Targets> {
  const cats = await db.query<{ url: string }>(
    `select c.url from categories c join sites s on s.id = c.site_id
     where s.host = 'localhost' and c.published and exists (select 1 from category_products cp where cp.category_id = c.id)
     order by c.id limit 20`,
  )
  const products = await db.query<{ url: string }>(
    `select g.url from product_groups g join sites s on s.id = g.site_id
     where s.host = 'localhost' and g.published order by g.id limit 40`,
  )
  const sku = (host: string, minPrice: number) =>
    db.query<{ id: number; category_id: number }>(
      `select p.id, g.category_id from products p join product_groups g on g.id = p.group_id
       join sites s on s.id = p.site_id
       where s.host = $1 and p.published and g.published and p.minimum_order = 1
         and (select min((b->>'price')::int) from jsonb_array_elements(p.price_list) b) >= $2
       order by p.id limit 1`,
      [host, minPrice],
    )
  // Harbour orders: a SKU from £1 so that 50 clear the £20 minimum order (as the crash test).
  const order = (await sku('localhost', 100)).rows[0]
  const basket = (await sku('127.0.0.1', 0)).rows[0]
  if (!order || !basket || !cats.rows.length || !products.rows.length)
    throw new Error('the demo shop is missing categories, products or SKUs')
  return {
    categories: cats.rows.map((r) => r.url),
    products: products.rows.map((r) => r.url),
    orderItem: { id: Number(order.id), categoryId: Number(order.category_id) },
    orderQuantity: 50,
    basketItem: { id: Number(basket.id), categoryId: Number(basket.category_id) },
  }
}

/** The instances' logged errors (pino level 50 and up) by message: what the shop said went wrong. */
function loggedErrors(logDir: string): Record<string, number> {
  const out: Record<string, number> = {}
  for (const file of readdirSync(logDir).filter((f) => f.endsWith('.log'))) {
    for (const line of readFileSync(resolve(logDir, file), 'utf8').split('\n')) {
      if (!line.startsWith('{')) continue
      try {
        const entry = JSON.parse(line) as { level?: number; msg?: string; err?: { message?: string } }
        if ((entry.level ?? 0) < 50) continue
        const what =
          `${entry.msg ?? ''}: ${(entry.err?.message ?? '').split('\n')[0]!.replace(/\d+/g, 'N')}`.slice(
            0,
            100,
          )
        out[what] = (out[what] ?? 0) + 1
      } catch {
        /* not a log line */
      }
    }
  }
  return out
}

export async function faultLoad(o: FaultLoadOptions): Promise<number> {
  if (!existsSync(resolve(o.root, 'dist/node/server/main.js'))) {
    console.error('No production build found: run `npm run build` first (npm run bench does).')
    return 1
  }
  const port = (n: number) => o.portBase + n
  const appPorts = [port(10), port(20)]
  const simulatorPort = port(11)
  const simulatorUrl = `http://127.0.0.1:${simulatorPort}`
  const logDir = resolve(o.root, 'var/fault-load')
  rmSync(logDir, { recursive: true, force: true })
  mkdirSync(resolve(logDir, 'uploads'), { recursive: true })
  const load0 = loadavg()
  console.log(
    `fault load test: ${o.seconds} s at ${o.rate} arrivals/s, node ${process.version}, load average ${load0.map((l) => l.toFixed(1)).join(' ')}`,
  )

  const cluster = await startPgCluster(port(50))
  const redis = new Redis(o.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 })
  const smtp = await startSmtpStandIn(port(30))
  const instances: (ChildProcess | null)[] = [null, null]
  // The payment simulator service, its own process as in production (not killed by the faults).
  const simulators = spawn(
    process.execPath,
    [resolve(o.root, 'node_modules/tsx/dist/cli.mjs'), 'src/simulators/main.ts'],
    {
      cwd: o.root,
      env: {
        ...process.env,
        PAYMENTS_MODE: 'simulator',
        PAYMENTS_SIMULATOR_HOST: '127.0.0.1',
        PAYMENTS_SIMULATOR_PORT: String(simulatorPort),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  const simulatorLog = createWriteStream(resolve(logDir, 'simulators.log'))
  simulators.stdout!.pipe(simulatorLog)
  simulators.stderr!.pipe(simulatorLog)
  /** Faults the shop did not recover from (an instance that died or never became ready again) */
  const problems: string[] = []
  let t0 = 0
  let db: pg.Client | null = null
  let starts = 0
  try {
    await redis.connect()
    await redis.flushdb()
    const admin = new pg.Client({ connectionString: cluster.url })
    await admin.connect()
    await admin.query('create database shop')
    await admin.end()
    const url = cluster.url.replace(/\/postgres$/, '/shop')
    const secret = `fault-load-${process.pid}-`.padEnd(48, 'x')

    const start = (i: number, seed: boolean): ChildProcess => {
      const serve = serverCommand(o.root)
      const log = createWriteStream(resolve(logDir, `instance-${i + 1}.${++starts}.log`))
      const child = spawn(serve.command, serve.args, {
        cwd: o.root,
        env: {
          ...process.env,
          ...serve.env,
          NODE_ENV: 'production',
          HOST: '127.0.0.1',
          PORT: String(appPorts[i]),
          DATABASE_URL: url,
          REDIS_URL: o.redisUrl,
          SESSION_SECRET: secret,
          SEED_ON_START: seed ? 'true' : 'false',
          COOKIE_SECURE: 'false',
          RATE_LIMIT_PER_MINUTE: '1000000',
          SEARCH_RATE_LIMIT_PER_MINUTE: '1000000',
          LOG_LEVEL: 'warn',
          // Every simulated shopper has its own address, as behind the proxy.
          TRUST_PROXY: 'true',
          PAYMENTS_MODE: 'simulator',
          // The one simulator service (the instances register their Amazon Pay keys with it).
          PAYMENTS_SIMULATOR_URL: simulatorUrl,
          UPLOAD_DIR: resolve(logDir, 'uploads'),
          UPLOAD_DIR_SHARED: 'true',
          MAIL_TRANSPORT: 'smtp',
          SMTP_URL: smtp.url,
          MAIL_FROM: 'Shop <no-reply@shop.example>',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      child.stdout!.pipe(log)
      child.stderr!.pipe(log)
      // An instance that dies by itself (not the test's SIGKILL or the final clean-up) fails the run.
      child.on('exit', (code, signal) => {
        if (signal !== 'SIGKILL')
          problems.push(
            `instance ${i + 1} exited by itself (${code ?? signal}) at ${((performance.now() - t0) / 1000).toFixed(1)} s: see ${logDir}`,
          )
      })
      return child
    }

    await ready(simulatorPort)
    instances[0] = start(0, true)
    await ready(appPorts[0]!)
    instances[1] = start(1, false)
    await ready(appPorts[1]!)
    db = new pg.Client({ connectionString: url })
    db.on('error', () => undefined)
    await db.connect()
    const targets = await targetsOf(db)
    await db.end()
    db = null

    const lb = new Balancer(appPorts)
    lb.startProbes()
    const events: Record<string, number> = {}
    const durationMs = o.seconds * 1000
    const faults = (async () => {
      while (!t0) await sleep(50)
      await sleep(t0 + durationMs * 0.3 - performance.now())
      if (o.kill === 'mid-order') {
        const until = performance.now() + 15_000
        while (lb.busy(0, '/checkout/complete') === 0 && performance.now() < until) await sleep(1)
        // Into the request's handling (its provider call or its transaction), not its arrival.
        await sleep(3)
      }
      events.killed = performance.now()
      instances[0]!.kill('SIGKILL')
      await sleep(2000)
      instances[0] = start(0, false)
      await ready(appPorts[0]!).catch(() => problems.push('instance 1 not ready within 180 s of its restart'))
      events.instanceReady = performance.now()
      await sleep(t0 + durationMs * 0.6 - performance.now())
      events.dbRestart = performance.now()
      await cluster.restart(o.dbRestart)
      events.dbBack = performance.now()
      await Promise.all(
        appPorts.map((p, i) =>
          ready(p, 60_000).catch(() =>
            problems.push(`instance ${i + 1} not ready within 60 s of the database restart`),
          ),
        ),
      )
      events.instancesReadyAfterDb = performance.now()
    })()
    // Never an unhandled rejection mid-traffic (the clean-up below must run).
    faults.catch(() => undefined)
    const traffic = await runTraffic({
      balancer: lb,
      targets,
      rate: o.rate,
      durationMs,
      onStart: (at) => (t0 = at),
    })
    await faults
    const end = performance.now()
    const load1 = loadavg()

    // Let the mail queue drain (bounded): a job claimed when its instance died waits out its lease.
    db = new pg.Client({ connectionString: url })
    db.on('error', () => undefined)
    await db.connect()
    const drainStart = performance.now()
    let drainedAfterMs: number | null = null
    while (performance.now() - drainStart < o.drainSeconds * 1000) {
      if ((await pendingMail(db)) === 0) {
        drainedAfterMs = performance.now() - drainStart
        break
      }
      await sleep(2000)
    }
    // Messages handed over at the last moment are still on the wire.
    await sleep(2000)
    const baskets = await readBackBaskets(lb, traffic.baskets).catch((err: unknown) => {
      problems.push(`the baskets could not be read back: ${String(err)}`)
      return null
    })
    lb.stop()
    const result = await reconcile(db, {
      acked: traffic.orders,
      unanswered: traffic.ordersUnanswered.po + traffic.ordersUnanswered.card,
      received: smtp.received,
      emailSuffix: '@example.com',
      drainedAfterMs,
      startedAt: Date.now() - (performance.now() - t0),
    })
    result.failures.push(...problems)
    if (baskets?.lost) result.failures.push(`${baskets.lost} acknowledged basket changes lost`)
    if (baskets?.doubled) result.failures.push(`${baskets.doubled} basket changes applied twice`)

    const faultsEnd = Math.max(events.instanceReady!, events.instancesReadyAfterDb!) + 10_000
    const phases: Phase[] = [
      { name: 'before', from: t0, to: events.killed! },
      { name: 'faults', from: events.killed!, to: faultsEnd },
      { name: 'after', from: faultsEnd, to: end },
    ]
    const rows = summarise(traffic.samples, phases)
    const s = (ms: number) => (ms / 1000).toFixed(1)
    const flows = rows.filter((r) => r.type.startsWith('order: whole flow'))
    const ordersPerSecond = phases.map((p) => {
      const n = flows.reduce((sum, r) => sum + r.phases[p.name]!.requests - r.phases[p.name]!.errors, 0)
      return `${p.name} ${(n / ((p.to - p.from) / 1000)).toFixed(2)}`
    })
    console.log(`\n## Figures (times from the start of the traffic)\n`)
    console.log(
      `kill at ${s(events.killed! - t0)} s, instance 1 ready again ${s(events.instanceReady! - events.killed!)} s later; ` +
        `database restart (${o.dbRestart}) at ${s(events.dbRestart! - t0)} s, back after ${s(events.dbBack! - events.dbRestart!)} s, ` +
        `both instances ready ${s(events.instancesReadyAfterDb! - events.dbRestart!)} s after the restart began; ` +
        `fault window ${s(events.killed! - t0)}–${s(faultsEnd - t0)} s of ${s(end - t0)} s`,
    )
    console.log(
      `arrivals ${traffic.arrivals} (${traffic.lateStarts} started over 100 ms late); load average at start ${load0.map((l) => l.toFixed(1)).join(' ')}, at end ${load1.map((l) => l.toFixed(1)).join(' ')}\n`,
    )
    console.log(markdownTable(rows, phases))
    console.log(`\norders answered 2xx per second: ${ordersPerSecond.join(', ')}`)
    console.log(
      `orders: ${traffic.orders.filter((x) => x.kind === 'po').length} purchase order and ${traffic.orders.filter((x) => x.kind === 'card').length} card answered 2xx; ` +
        `refused ${JSON.stringify(traffic.ordersRefused)}, unanswered ${JSON.stringify(traffic.ordersUnanswered)}`,
    )
    console.log('\nerrors by kind:', JSON.stringify(errorsByKind(traffic.samples), null, 1))
    console.log('\nerrors the instances logged:', JSON.stringify(loggedErrors(logDir), null, 1))
    console.log('\n## Reconciliation\n')
    console.log(JSON.stringify({ baskets, ...result, failures: undefined }, null, 1))
    if (result.failures.length) {
      console.log(`\nRECONCILIATION FAILED:\n- ${result.failures.join('\n- ')}`)
      return 1
    }
    console.log('\nreconciliation: every acknowledged order once, every e-mail once, nothing stuck')
    return 0
  } finally {
    for (const c of instances) c?.kill('SIGKILL')
    simulators.kill('SIGTERM')
    await db?.end().catch(() => undefined)
    await smtp.close()
    await redis
      .flushdb()
      .catch(() => undefined)
      .finally(() => redis.disconnect())
    await cluster.stop()
  }
}
