/**
 * The back office's order list and search at scale (ADR 0262; `npm run bench -- --only=backoffice`,
 * or `npx tsx scripts/bench/backoffice-orders.ts` alone).
 *
 * On PostgreSQL only (`BENCH_DATABASE_URL`, else `DATABASE_URL`: a server URL; the bench uses its
 * own database `shop_bench_orders` next to it). `--orders=N` (default 1,000,000) orders are
 * generated in SQL with generate_series (seconds, not minutes) when the database holds fewer, and
 * kept between runs (a second run reuses them; `--reseed` starts again), with a few refunds the
 * provider has not confirmed (the 'needs attention' filter's second part). Then each query the /admin/orders page sends (the list, each filter,
 * each search kind) runs through the route's own function (`listOrders`) `--samples` times
 * (default 200) one after another, and its p50/p95 is printed with its ratio to a baseline
 * measured in the same run: one order read by its primary key, the cheapest query there is.
 */
import { sql } from 'drizzle-orm'
import { openDatabase, migrate, type Database } from '../../src/server/db/client.ts'
import { listOrders } from '../../src/server/modules/staff/order-search.ts'
import { orderListQuerySchema, type OrderListQuery } from '../../src/shared/staff.ts'

const P95_TARGET_MS = 50

export interface BackofficeBenchOptions {
  serverUrl: string
  orders: number
  samples: number
  reseed: boolean
}

/** The rows of a raw statement (node-postgres' result shape). */
function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
}

async function time(samples: number, fn: (i: number) => Promise<unknown>) {
  for (let i = 0; i < 5; i++) await fn(i) // warm-up: plans and buffers
  const ms: number[] = []
  for (let i = 0; i < samples; i++) {
    const t = performance.now()
    await fn(i)
    ms.push(performance.now() - t)
  }
  ms.sort((a, b) => a - b)
  return { p50: percentile(ms, 50), p95: percentile(ms, 95) }
}

async function ensureDatabase(serverUrl: string): Promise<string> {
  const { default: pg } = await import('pg')
  const url = new URL(serverUrl)
  url.pathname = '/shop_bench_orders'
  const admin = new pg.Client({ connectionString: serverUrl })
  await admin.connect()
  const exists = await admin.query(`select 1 from pg_database where datname = 'shop_bench_orders'`)
  if (exists.rowCount === 0) await admin.query('create database shop_bench_orders')
  await admin.end()
  return url.toString()
}

/** N orders on two sites in SQL: names, e-mails, postcodes and PO numbers varied enough to search. */
async function seedOrders(database: Database, n: number, reseed: boolean): Promise<void> {
  const db = database.db
  if (reseed) await db.execute(sql`truncate orders cascade`)
  const [have] = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from orders`))
  if ((have?.n ?? 0) >= n) return
  await db.execute(sql`truncate orders cascade`)
  await db.execute(sql`
    insert into sites (host, code, name, currency, settings) values
      ('localhost', 'harbour', 'Harbour Safety Supplies', 'GBP', '{}'::jsonb),
      ('127.0.0.1', 'northgate', 'Northgate Workplace', 'USD', '{}'::jsonb)
    on conflict (host) do nothing`)
  const started = performance.now()
  // Indexes are built once after the insert (far faster than maintained row by row): their
  // definitions are read from the catalogue, dropped, and run again below.
  const indexes = rowsOf<{ name: string; def: string }>(
    await db.execute(sql`select indexname as name, indexdef as def from pg_indexes
      where schemaname = 'public' and tablename = 'orders' and indexname <> 'orders_pkey'`),
  )
  for (const i of indexes) await db.execute(sql.raw(`drop index if exists "${i.name}"`))
  // One statement; names from syllables (1,000 last names, 40 first names), postcodes over ten
  // areas, a year of orders 30 s apart, a tenth awaiting payment and a tenth failed. The status and
  // the payment method are hashed from the row number, so no name or e-mail is tied to one.
  await db.execute(sql`
    with s as (select id, code from sites where code in ('harbour', 'northgate')),
    g as (
      select i,
        (array['Amy','Ben','Cara','Dan','Eve','Finn','Gwen','Hal','Isla','Jack','Kate','Liam','Mia','Ned','Olga','Pete','Quin','Rosa','Sam','Tess',
               'Uma','Vic','Wes','Xena','Yuri','Zoe','Abel','Beth','Carl','Dora','Emil','Faye','Gus','Hope','Ivan','Jill','Kurt','Lena','Milo','Nora'])[1 + (i * 7) % 40] as first,
        initcap((array['har','bro','win','ash','mor','kel','dun','fair','stan','ley'])[1 + (i * 13) % 10]
          || (array['ton','by','ford','well','wood','ham','more','field','worth','son'])[1 + (i / 10 * 3) % 10]
          || (array['','e','er','ley','s','ing','ard','ell','ock','y'])[1 + (i / 100 * 7) % 10]) as last,
        (array['BS','CF','M','SW','EC','LS','B','G','EH','NE'])[1 + i % 10] || (1 + (i / 10) % 20)::text || ' '
          || ((i / 200) % 10)::text || chr(65 + (i / 7) % 26) || chr(65 + (i / 11) % 26) as postcode
      from generate_series(1, ${n}) as i
    )
    insert into orders (site_id, order_number, cart_ref, status, currency, payment_method, po_number,
      contact, shipping_address, billing_address, goods_net, shipping_net, shipping_vat, vat, discount,
      total_inc_vat, order_date)
    select
      (select id from s where code = case when g.i % 4 = 0 then 'northgate' else 'harbour' end),
      100000000 + g.i,
      gen_random_uuid(),
      (array['placed','placed','placed','placed','placed','placed','placed','placed','pending_payment','payment_failed'])[1 + abs(hashint4(g.i)) % 10],
      case when g.i % 4 = 0 then 'USD' else 'GBP' end,
      (array['sagepay','paypal','amazon','purchase_order','paya'])[1 + abs(hashint4(g.i + 1)) % 5],
      case when g.i % 3 = 0 then 'PO-' || lpad(((g.i::bigint * 7919) % 1000000)::text, 6, '0') else upper(g.first || g.last) end,
      jsonb_build_object('first_name', g.first, 'last_name', g.last, 'phone', '01632 960000', 'company', '',
        'email', lower(g.first || '.' || g.last || (g.i % 997)::text || '@example.com')),
      jsonb_build_object('company', '', 'address1', g.i::text || ' High Street', 'address2', '', 'town', 'Town',
        'county', '', 'postcode', g.postcode, 'country', 'GB'),
      jsonb_build_object('company', '', 'address1', g.i::text || ' High Street', 'address2', '', 'town', 'Town',
        'county', '', 'postcode', g.postcode, 'country', 'GB'),
      1000 + g.i % 50000, 595, 119, 200 + g.i % 10000, 0, 1000 + g.i % 50000 + 595 + 200 + g.i % 10000,
      now() - (g.i * interval '30 seconds')
    from g`)
  // 20 orders with a refund still pending at the provider, spread over the year (attention.ts).
  await db.execute(sql`delete from payment_refunds where idempotency_key like 'bench-%'`)
  await db.execute(sql`
    insert into payment_refunds (id, order_id, method, amount_minor, currency, status, how,
      idempotency_key, reason, actor_kind, actor_name)
    select gen_random_uuid()::text, o.id::text, o.payment_method, 100, o.currency, 'pending', 'refund',
      'bench-' || o.id, 'bench', 'staff', 'bench'
    from orders o where o.order_number in (select 100000000 + k * ${Math.max(1, Math.floor(n / 20))}
      from generate_series(1, 20) as k)`)
  await db.execute(sql`set maintenance_work_mem = '256MB'`)
  for (const i of indexes) await db.execute(sql.raw(i.def))
  await db.execute(sql`analyze orders`)
  console.log(
    `seeded ${n.toLocaleString('en-GB')} orders in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  )
}

export async function backofficeOrdersBench(opts: BackofficeBenchOptions): Promise<void> {
  const url = await ensureDatabase(opts.serverUrl)
  const database = await openDatabase({ driver: 'postgres', url, poolSize: 4 })
  try {
    await migrate(database)
    await seedOrders(database, opts.orders, opts.reseed)
    const db = database.db
    // What autovacuum does after a bulk insert or a migration that rewrote the table: the
    // visibility map lets a walk of an index that holds all it tests skip the table (ADR 0285).
    await db.execute(sql`vacuum analyze orders`)
    const [{ id: maxId } = { id: 1 }] = rowsOf<{ id: number }>(
      await db.execute(sql`select max(id)::int as id from orders`),
    )
    const [site] = rowsOf<{ id: number }>(
      await db.execute(sql`select id from sites where code = 'northgate'`),
    )
    const sample = rowsOf<{
      order_number: number
      email: string
      last: string
      postcode: string
      po_number: string
    }>(
      await db.execute(
        sql`select order_number, contact ->> 'email' as email, contact ->> 'last_name' as last,
                 shipping_address ->> 'postcode' as postcode, po_number
          from orders tablesample system (0.1) limit 200`,
      ),
    )
    const pick = <T>(i: number, f: (r: (typeof sample)[number]) => T) => f(sample[i % sample.length]!)
    const q = (input: Record<string, string>): OrderListQuery => orderListQuerySchema.parse(input)
    const first = await listOrders(db, q({}))

    const cases: [string, (i: number) => Promise<unknown>][] = [
      [
        'baseline: one order by primary key',
        (i) => db.execute(sql`select * from orders where id = ${1 + ((i * 7919) % maxId)}`),
      ],
      ['list, newest first (first page)', () => listOrders(db, q({}))],
      ['list, next page (keyset)', () => listOrders(db, q({ after: first.next ?? '' }))],
      ['filter: site', () => listOrders(db, q({ site: String(site?.id ?? 1) }))],
      ['filter: status (payment failed)', () => listOrders(db, q({ status: 'payment_failed' }))],
      ['filter: payment method', () => listOrders(db, q({ method: 'paypal' }))],
      [
        'filter: date range (one week, a month ago)',
        () => {
          const to = new Date(Date.now() - 30 * 86_400_000)
          const from = new Date(to.getTime() - 7 * 86_400_000)
          return listOrders(
            db,
            q({ from: from.toISOString().slice(0, 10), to: to.toISOString().slice(0, 10) }),
          )
        },
      ],
      ['filter: needs attention', () => listOrders(db, q({ attention: '1' }))],
      ['search: order number', (i) => listOrders(db, q({ q: String(pick(i, (r) => r.order_number)) }))],
      ['search: e-mail (whole)', (i) => listOrders(db, q({ q: pick(i, (r) => r.email) }))],
      [
        'search: e-mail (first 3 letters, common)',
        (i) => listOrders(db, q({ q: pick(i, (r) => r.email.slice(0, 3)), kind: 'email' })),
      ],
      [
        'search: e-mail (prefix)',
        (i) => listOrders(db, q({ q: pick(i, (r) => r.email.slice(0, 8)), kind: 'email' })),
      ],
      [
        'search: name (part of the last name)',
        (i) => listOrders(db, q({ q: pick(i, (r) => r.last.slice(1, 6)), kind: 'name' })),
      ],
      [
        'search: name (3 letters, common)',
        (i) => listOrders(db, q({ q: pick(i, (r) => r.last.slice(0, 3)), kind: 'name' })),
      ],
      [
        'search: PO number (prefix)',
        (i) => listOrders(db, q({ q: pick(i, (r) => r.po_number.slice(0, 7)), kind: 'po' })),
      ],
      ['search: postcode (whole)', (i) => listOrders(db, q({ q: pick(i, (r) => r.postcode) }))],
      [
        'search: postcode (outward part)',
        (i) => listOrders(db, q({ q: pick(i, (r) => r.postcode.split(' ')[0]!), kind: 'postcode' })),
      ],
      [
        'search: postcode (outward and sector)',
        (i) => listOrders(db, q({ q: pick(i, (r) => r.postcode.slice(0, -2)), kind: 'postcode' })),
      ],
      [
        'search: e-mail prefix and status filter',
        (i) =>
          listOrders(
            db,
            q({ q: pick(i, (r) => r.email.slice(0, 6)), kind: 'email', status: 'payment_failed' }),
          ),
      ],
    ]
    console.log(
      `\nBack office order list and search: ${opts.orders.toLocaleString('en-GB')} orders on PostgreSQL, ${opts.samples} sequential samples each`,
    )
    console.log(
      `${'query'.padEnd(44)} ${'p50 ms'.padStart(8)} ${'p95 ms'.padStart(8)} ${'× baseline'.padStart(11)}  target p95 < ${P95_TARGET_MS} ms`,
    )
    let baseline = 0
    let failed = 0
    for (const [name, fn] of cases) {
      const r = await time(opts.samples, fn)
      if (!baseline) baseline = r.p95
      const met = r.p95 < P95_TARGET_MS
      if (!met) failed++
      console.log(
        `${name.padEnd(44)} ${r.p50.toFixed(2).padStart(8)} ${r.p95.toFixed(2).padStart(8)} ${(r.p95 / baseline).toFixed(1).padStart(11)}  ${met ? 'met' : 'MISSED'}`,
      )
    }
    console.log(failed ? `${failed} queries missed the target` : 'Every query met the target.')
  } finally {
    await database.close()
  }
}

/** `npx tsx scripts/bench/backoffice-orders.ts [--orders=N] [--samples=N] [--reseed]` */
if (import.meta.url === `file://${process.argv[1]}`) {
  const args = new Map(
    process.argv.slice(2).map((a) => {
      const [k, ...v] = a.replace(/^--/, '').split('=')
      return [k!, v.length ? v.join('=') : 'true'] as const
    }),
  )
  const serverUrl = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL
  if (!serverUrl) {
    console.error(
      'Set BENCH_DATABASE_URL (or DATABASE_URL) to a PostgreSQL server: postgres://user@host:5432/postgres',
    )
    process.exit(1)
  }
  await backofficeOrdersBench({
    serverUrl,
    orders: Number(args.get('orders') ?? 1_000_000),
    samples: Number(args.get('samples') ?? 200),
    reseed: args.has('reseed'),
  })
}
