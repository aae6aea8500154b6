/**
 * Crash test (issue 16): two production instances on one PostgreSQL database and Redis, a steady
 * load of page views and basket changes alternating between them (the site on 127.0.0.1); instance 1 is killed with
 * SIGKILL and restarted. Afterwards every basket is read back: each change answered 2xx must be
 * there exactly once. A change sent to the killed instance that got no answer may or may not
 * have been applied (it is counted apart and bounds the check from above).
 *
 *   npm run build && DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \
 *     REDIS_URL=redis://127.0.0.1:6379 npx tsx scripts/ops/crash-test.ts
 *
 * Only loopback addresses; bounded in time (CRASH_SECONDS, default 30) and stops by itself.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { resolve } from 'node:path'
import pg from 'pg'

const base = process.env.DATABASE_URL
if (!base) throw new Error('DATABASE_URL (any database on the server; a fresh one is created next to it)')
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'
const seconds = Number(process.env.CRASH_SECONDS ?? 30)
const ports = [Number(process.env.CRASH_PORT_1 ?? 4185), Number(process.env.CRASH_PORT_2 ?? 4195)]
const shoppers = Number(process.env.CRASH_SHOPPERS ?? 8)
const root = resolve(import.meta.dirname, '../..')

const name = `shop_crash_${process.pid}`
const admin = new pg.Client({ connectionString: base })
await admin.connect()
await admin.query(`create database "${name}"`)
const url = new URL(base)
url.pathname = `/${name}`

function start(port: number, seed: boolean): ChildProcess {
  const child = spawn(process.execPath, ['dist/node/server/main.js'], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_URL: url.toString(),
      REDIS_URL: redisUrl,
      SESSION_SECRET: 'crash-test-secret-'.padEnd(48, 'x'),
      SEED_ON_START: seed ? 'true' : 'false',
      COOKIE_SECURE: 'false',
      RATE_LIMIT_PER_MINUTE: '100000',
      SHUTDOWN_DRAIN_MS: '0',
      LOG_LEVEL: 'warn',
      SSR: 'false',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  })
  return child
}

async function ready(port: number, timeoutMs = 120_000): Promise<void> {
  const until = Date.now() + timeoutMs
  while (Date.now() < until) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/readyz`)).ok) return
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 250))
  }
  throw new Error(`instance on ${port} not ready`)
}

class Shopper {
  cookies = new Map<string, string>()
  acked = 0
  unanswered = 0
  failed = 0
  constructor(readonly id: number) {}
  header() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
  }
  keep(res: Response) {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';')
      const i = pair!.indexOf('=')
      this.cookies.set(pair!.slice(0, i), pair!.slice(i + 1))
    }
  }
  async request(port: number, path: string, body?: unknown): Promise<Response> {
    const res = await fetch(`http://127.0.0.1:${port}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: {
        accept: body === undefined ? 'text/html' : 'application/json',
        cookie: this.header(),
        ...(body === undefined
          ? {}
          : {
              'content-type': 'application/json',
              'x-xsrf-token': decodeURIComponent(this.cookies.get('XSRF-TOKEN') ?? ''),
            }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(10_000),
    })
    this.keep(res)
    return res
  }
}

const instances: (ChildProcess | null)[] = [start(ports[0]!, true), null]
let result: Record<string, number> | undefined
try {
  await ready(ports[0]!)
  instances[1] = start(ports[1]!, false)
  await ready(ports[1]!)
  const db = new pg.Client({ connectionString: url.toString() })
  await db.connect()
  const { rows } = await db.query<{ id: number; category_id: number }>(
    `select p.id, g.category_id from products p join product_groups g on g.id = p.group_id
     join sites s on s.id = p.site_id
     where s.host = '127.0.0.1' and p.published and g.published and p.minimum_order = 1 order by p.id limit 1`,
  )
  const item = rows[0]!
  const people = Array.from({ length: shoppers }, (_, i) => new Shopper(i))
  for (const p of people) await p.request(ports[p.id % 2]!, '/')

  let pageViews = 0
  let pageErrors = 0
  const stopAt = Date.now() + seconds * 1000
  const killAt = Date.now() + (seconds * 1000) / 3
  const killer = (async () => {
    await new Promise((r) => setTimeout(r, killAt - Date.now()))
    instances[0]!.kill('SIGKILL')
    await new Promise((r) => setTimeout(r, 2000))
    instances[0] = start(ports[0]!, false)
    await ready(ports[0]!)
  })()
  const started = Date.now()
  let restartedAfterMs = 0
  void killer.then(() => (restartedAfterMs = Date.now() - killAt))

  await Promise.all(
    people.map(async (p) => {
      let n = 0
      while (Date.now() < stopAt) {
        const port = ports[n++ % 2]!
        try {
          const res = await p.request(port, '/cart/add', {
            items: [{ listing_id: item.id, quantity: 1, category_id: item.category_id }],
          })
          if (res.ok) p.acked++
          else p.failed++
        } catch {
          // No answer: the change may or may not have been applied.
          p.unanswered++
        }
        try {
          const page = await p.request(ports[n % 2]!, '/')
          if (page.ok) pageViews++
          else pageErrors++
        } catch {
          pageErrors++
        }
      }
    }),
  )
  await killer

  let lost = 0
  let doubled = 0
  let uncertainApplied = 0
  for (const p of people) {
    const res = await p.request(ports[1]!, '/cart/init', {})
    const cart = (await res.json()) as { items: { quantity: number }[] }
    const quantity = cart.items.reduce((s, l) => s + l.quantity, 0)
    if (quantity < p.acked) lost += p.acked - quantity
    if (quantity > p.acked + p.unanswered) doubled += quantity - p.acked - p.unanswered
    uncertainApplied += Math.max(0, quantity - p.acked)
  }
  await db.end()
  result = {
    seconds: Math.round((Date.now() - started) / 1000),
    shoppers,
    basketChangesAcknowledged: people.reduce((s, p) => s + p.acked, 0),
    basketChangesRefused: people.reduce((s, p) => s + p.failed, 0),
    basketChangesUnanswered: people.reduce((s, p) => s + p.unanswered, 0),
    unansweredButApplied: uncertainApplied,
    pageViews,
    pageErrors,
    restartedAfterMs,
    acknowledgedLost: lost,
    doubled,
  }
  console.log(JSON.stringify(result, null, 2))
} finally {
  for (const c of instances) c?.kill('SIGKILL')
  await admin.query(`drop database if exists "${name}" with (force)`)
  await admin.end()
}
if (!result || result.acknowledgedLost || result.doubled) process.exit(1)
