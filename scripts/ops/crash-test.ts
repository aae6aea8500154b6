/**
 * Crash test (issue 16): two production instances on one PostgreSQL database and Redis, a steady
 * load of page views and basket changes (the site on 127.0.0.1) and of purchase-order orders (the
 * site on localhost) alternating between them; instance 1 is killed with SIGKILL and restarted.
 * Afterwards every basket is read back: each change answered 2xx must be there exactly once; and
 * every order answered 2xx must be in the database once, with no basket ordered twice. A request
 * sent to the killed instance that got no answer may or may not have been applied (it is counted
 * apart and bounds the check from above).
 *
 *   npm run build && DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \
 *     REDIS_URL=redis://127.0.0.1:6379 npx tsx scripts/ops/crash-test.ts
 *
 * Payments in simulator mode go to one simulator service (`npm run simulators`, ADR 0195) started
 * here on CRASH_SIMULATOR_PORT (3185), which both instances point at by URL.
 *
 * Only loopback addresses; bounded in time (CRASH_SECONDS, default 30) and stops by itself.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { resolve } from 'node:path'
import pg from 'pg'
import { serverCommand } from '../bench/server-command.ts'

const base = process.env.DATABASE_URL
if (!base) throw new Error('DATABASE_URL (any database on the server; a fresh one is created next to it)')
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'
const seconds = Number(process.env.CRASH_SECONDS ?? 30)
const ports = [Number(process.env.CRASH_PORT_1 ?? 4185), Number(process.env.CRASH_PORT_2 ?? 4195)]
/** The one payment simulator service both instances point at (ADR 0195) */
const simulatorPort = Number(process.env.CRASH_SIMULATOR_PORT ?? 3185)
const simulatorUrl = `http://127.0.0.1:${simulatorPort}`
const shoppers = Number(process.env.CRASH_SHOPPERS ?? 8)
const orderers = Number(process.env.CRASH_ORDERERS ?? 4)
const root = resolve(import.meta.dirname, '../..')

const name = `shop_crash_${process.pid}`
const admin = new pg.Client({ connectionString: base })
await admin.connect()
await admin.query(`create database "${name}"`)
const url = new URL(base)
url.pathname = `/${name}`

function start(port: number, seed: boolean): ChildProcess {
  const serve = serverCommand(root)
  const child = spawn(serve.command, serve.args, {
    cwd: root,
    env: {
      ...process.env,
      ...serve.env,
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
      // Each simulated shopper has its own address (X-Forwarded-For), as behind the proxy.
      TRUST_PROXY: 'true',
      // Production on an external database names its payment mode (ADR 0126).
      PAYMENTS_MODE: 'simulator',
      // Both instances run on this one machine: one upload folder is truly shared (ADR 0175).
      UPLOAD_DIR: 'var/crash-test-uploads',
      UPLOAD_DIR_SHARED: 'true',
      // The one simulator service (purchase orders do not use it; the instances register their
      // Amazon Pay keys with it at start, as in production).
      PAYMENTS_SIMULATOR_URL: simulatorUrl,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  })
  return child
}

/** The payment simulator service (`npm run simulators`), its own process as in production. */
function startSimulators(): ChildProcess {
  return spawn(process.execPath, [resolve(root, 'node_modules/tsx/dist/cli.mjs'), 'src/simulators/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PAYMENTS_MODE: 'simulator',
      PAYMENTS_SIMULATOR_HOST: '127.0.0.1',
      PAYMENTS_SIMULATOR_PORT: String(simulatorPort),
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  })
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
  constructor(
    readonly id: number,
    /** The site: 127.0.0.1 (Northgate) for basket shoppers, localhost (Harbour) for orderers */
    readonly host = '127.0.0.1',
  ) {}
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
    const res = await fetch(`http://${this.host}:${port}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: {
        accept: body === undefined ? 'text/html' : 'application/json',
        'x-forwarded-for': `10.2.${this.id >> 8}.${this.id & 255}`,
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

const simulators = startSimulators()
const instances: (ChildProcess | null)[] = [null, null]
let result: Record<string, number> | undefined
try {
  await ready(simulatorPort, 60_000)
  instances[0] = start(ports[0]!, true)
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
  // Orders on Harbour (GBP, UK address): a SKU priced from £1 so 50 clear the £20 minimum order.
  const harbour = await db.query<{ id: number; category_id: number }>(
    `select p.id, g.category_id from products p join product_groups g on g.id = p.group_id
     join sites s on s.id = p.site_id
     where s.host = 'localhost' and p.published and g.published and p.minimum_order = 1
       and (select min((b->>'price')::int) from jsonb_array_elements(p.price_list) b) >= 100
     order by p.id limit 1`,
  )
  const orderItem = harbour.rows[0]!
  const buyers = Array.from({ length: orderers }, (_, i) => new Shopper(1000 + i, 'localhost'))
  for (const b of buyers) await b.request(ports[b.id % 2]!, '/')
  const ordered: number[] = []
  let ordersRefused = 0
  const refusedWhy = new Map<string, number>()
  const refuse = async (what: string, res: Response) => {
    ordersRefused++
    const body = (await res.text().catch(() => '')).slice(0, 80)
    const why = `${what} ${res.status} ${body}`
    refusedWhy.set(why, (refusedWhy.get(why) ?? 0) + 1)
  }
  let ordersUnanswered = 0
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

  type CartJson = {
    id: string
    cart_total_price_inc_tax: number
    shippingRates: { id: number; selected: boolean }[]
  }
  const orderForm = (b: Shopper, cart: CartJson) => ({
    cart_id: cart.id,
    payment_method: 'purchase_order',
    contact: {
      firstName: 'Crash',
      lastName: `Buyer ${b.id}`,
      email: `crash-buyer-${b.id}@example.com`,
      phone: '01632 960 901',
      company: 'Crash Test Ltd',
    },
    shipping_address: {
      company: 'Crash Test Ltd',
      address1: '5 Harbour Way',
      address2: '',
      town: 'Plymouth',
      county: 'Devon',
      postcode: 'PL1 2AA',
      country: 'GB',
    },
    showingBillingAddress: false,
    transactions: [
      {
        amount: cart.cart_total_price_inc_tax,
        paymentDetails: { PONumber: `CRASH-${b.id}` },
        paymentProvider: 'purchase_order',
        message: '',
        authCode: 'empty',
      },
    ],
    delivery_option: cart.shippingRates.find((r) => r.selected)?.id ?? 1,
    Notes: '',
  })
  const ordering = buyers.map(async (b) => {
    let n = b.id
    while (Date.now() < stopAt) {
      let cart: CartJson
      try {
        const res = await b.request(ports[n++ % 2]!, '/cart/add', {
          items: [{ listing_id: orderItem.id, quantity: 50, category_id: orderItem.category_id }],
        })
        if (!res.ok) {
          await refuse('add', res)
          continue
        }
        cart = (await res.json()) as CartJson
      } catch {
        ordersUnanswered++
        continue
      }
      try {
        const res = await b.request(ports[n++ % 2]!, '/checkout/complete', orderForm(b, cart))
        if (res.ok) ordered.push(((await res.json()) as { order: { OrderNumber: number } }).order.OrderNumber)
        else {
          await refuse('complete', res)
          // Start the next order from an empty basket rather than a growing one.
          await b.request(ports[n % 2]!, '/cart/clear', {}).catch(() => undefined)
        }
      } catch {
        // No answer: the order may or may not have been placed.
        ordersUnanswered++
      }
    }
  })

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
  await Promise.all(ordering)
  await killer

  // Orders: every acknowledged one is there once; no basket became two orders.
  const placed = await db.query<{ order_number: string; cart_ref: string }>(
    `select o.order_number, o.cart_ref from orders o join sites s on s.id = o.site_id where s.host = 'localhost'`,
  )
  const numbers = new Set(placed.rows.map((r) => Number(r.order_number)))
  const ordersLost = ordered.filter((o) => !numbers.has(o)).length
  const acknowledgedTwice = ordered.length - new Set(ordered).size
  const perCart = new Map<string, number>()
  for (const r of placed.rows) perCart.set(r.cart_ref, (perCart.get(r.cart_ref) ?? 0) + 1)
  const basketsOrderedTwice = [...perCart.values()].filter((c) => c > 1).length

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
    ordersAcknowledged: ordered.length,
    ordersRefused,
    ordersUnanswered,
    ordersInDatabase: placed.rows.length,
    ordersLost,
    ordersDoubled: acknowledgedTwice + basketsOrderedTwice,
    // More orders than requests that could have placed one would mean a doubled order.
    ordersBeyondRequests: Math.max(0, placed.rows.length - ordered.length - ordersUnanswered),
  }
  console.log(JSON.stringify(result, null, 2))
  // Why orders were refused (4xx answers: the basket changed under an unanswered request, ...).
  console.log(Object.fromEntries(refusedWhy))
} finally {
  for (const c of instances) c?.kill('SIGKILL')
  simulators.kill('SIGTERM')
  await admin.query(`drop database if exists "${name}" with (force)`)
  await admin.end()
}
if (
  !result ||
  result.acknowledgedLost ||
  result.doubled ||
  result.ordersLost ||
  result.ordersDoubled ||
  result.ordersBeyondRequests
)
  process.exit(1)
