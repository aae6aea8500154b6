/**
 * pg-boss against graphile-worker on this machine's PostgreSQL, on the shop's kind of work (ADR
 * 0185): set-up time, enqueue inside a caller's transaction (and nothing after a rollback),
 * latency from enqueue to the handler's start, throughput of N mail-like jobs (each waits a few
 * ms, as an SMTP hand-off does) with two workers in two "instances".
 *
 *   npx tsx scripts/bench/job-queues.ts postgres://postgres@127.0.0.1:5432/postgres [N]
 *
 * Each library gets a database of its own, created and dropped here.
 */
import pg from 'pg'
import { PgBoss } from 'pg-boss'
import { Logger, run, runMigrations } from 'graphile-worker'

const admin = process.argv[2] ?? 'postgres://postgres@127.0.0.1:5432/postgres'
const N = Number(process.argv[3] ?? 2000)
const SEND_MS = 5
/** pg-boss: LISTEN/NOTIFY wake-ups (PGBOSS_NOTIFY=1) or polling every 0.5 s */
const NOTIFY = process.env.PGBOSS_NOTIFY === '1'
/** pg-boss: jobs per fetch (each worker runs its batch's jobs side by side) */
const BATCH = Number(process.env.PGBOSS_BATCH ?? 1)
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

async function withDatabase<T>(name: string, fn: (url: string) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: admin })
  await c.connect()
  await c.query(`drop database if exists ${name} with (force)`)
  await c.query(`create database ${name}`)
  const url = new URL(admin)
  url.pathname = `/${name}`
  try {
    return await fn(url.toString())
  } finally {
    await c.query(`drop database if exists ${name} with (force)`)
    await c.end()
  }
}

/** Runs `enqueue` inside a transaction on a connection of the caller's, then rolls back or commits. */
async function inTransaction(url: string, commit: boolean, enqueue: (c: pg.Client) => Promise<void>) {
  const c = new pg.Client({ connectionString: url })
  await c.connect()
  await c.query('begin')
  await enqueue(c)
  await c.query(commit ? 'commit' : 'rollback')
  await c.end()
}

async function benchPgBoss(url: string) {
  const t0 = performance.now()
  const bosses = [0, 1].map(() => new PgBoss({ connectionString: url, useListenNotify: NOTIFY, max: 4 }))
  for (const b of bosses) b.on('error', () => {})
  await bosses[0]!.start()
  await bosses[0]!.createQueue('mail', { notify: NOTIFY })
  const setupMs = performance.now() - t0
  await bosses[1]!.start()
  const db = (c: pg.Client) => ({
    executeSql: async (text: string, values?: unknown[]) => c.query(text, values as unknown[]),
  })

  // Transactional enqueue: a rolled-back send leaves nothing, a committed one a job.
  await inTransaction(url, false, async (c) => void (await bosses[0]!.send('mail', { n: -1 }, { db: db(c) })))
  await inTransaction(url, true, async (c) => void (await bosses[0]!.send('mail', { n: -2 }, { db: db(c) })))
  const probe = new pg.Client({ connectionString: url })
  await probe.connect()
  const afterTx = Number(
    (await probe.query(`select count(*) from pgboss.job where name = 'mail'`)).rows[0].count,
  )
  await probe.end()

  let started = 0
  let startedAt = 0
  let done = 0
  let resolveAll: () => void = () => {}
  const all = new Promise<void>((r) => (resolveAll = r))
  for (const b of bosses) {
    await b.work(
      'mail',
      { localConcurrency: 5, batchSize: BATCH, pollingIntervalSeconds: 0.5 },
      async (jobs) => {
        await Promise.all(
          jobs.map(async (job) => {
            startedAt = performance.now()
            started++
            await sleep(SEND_MS)
            if (((job.data as { n: number }).n ?? 0) >= 0 && ++done === N) resolveAll()
          }),
        )
      },
    )
  }
  await sleep(1500) // the committed job from above runs first
  const latencies: number[] = []
  for (let i = 0; i < 20; i++) {
    const before = started
    const t = performance.now()
    await bosses[0]!.send('mail', { n: -3 })
    const give = performance.now() + 10_000
    while (started === before && performance.now() < give) await sleep(1)
    latencies.push(startedAt - t)
    await sleep(50)
  }
  const t1 = performance.now()
  await bosses[0]!.insert(
    'mail',
    Array.from({ length: N }, (_, n) => ({ data: { n } })),
  )
  const enqueueMs = performance.now() - t1
  await all
  const totalMs = performance.now() - t1
  for (const b of bosses) await b.stop({ graceful: true, timeout: 5000 })
  return { setupMs, afterTx, latencies, enqueueMs, totalMs }
}

async function benchGraphile(url: string) {
  const t0 = performance.now()
  await runMigrations({ connectionString: url })
  const setupMs = performance.now() - t0
  await inTransaction(
    url,
    false,
    async (c) => void (await c.query(`select graphile_worker.add_job('mail', '{"n":-1}')`)),
  )
  await inTransaction(
    url,
    true,
    async (c) => void (await c.query(`select graphile_worker.add_job('mail', '{"n":-2}')`)),
  )
  const probe = new pg.Client({ connectionString: url })
  await probe.connect()
  const afterTx = Number((await probe.query(`select count(*) from graphile_worker.jobs`)).rows[0].count)

  let started = 0
  let startedAt = 0
  let done = 0
  let resolveAll: () => void = () => {}
  const all = new Promise<void>((r) => (resolveAll = r))
  const runners = await Promise.all(
    [0, 1].map(() =>
      run({
        connectionString: url,
        concurrency: 5,
        noHandleSignals: true,
        pollInterval: 2000,
        logger: new Logger(() => () => {}),
        taskList: {
          mail: async (payload) => {
            startedAt = performance.now()
            started++
            await sleep(SEND_MS)
            if (((payload as { n: number }).n ?? 0) >= 0 && ++done === N) resolveAll()
          },
        },
      }),
    ),
  )
  await sleep(1500)
  const latencies: number[] = []
  for (let i = 0; i < 20; i++) {
    const before = started
    const t = performance.now()
    await probe.query(`select graphile_worker.add_job('mail', '{"n":-3}')`)
    const give = performance.now() + 10_000
    while (started === before && performance.now() < give) await sleep(1)
    latencies.push(startedAt - t)
    await sleep(50)
  }
  const t1 = performance.now()
  await probe.query(
    `select graphile_worker.add_job('mail', json_build_object('n', n)) from generate_series(0, $1::int - 1) n`,
    [N],
  )
  const enqueueMs = performance.now() - t1
  await all
  const totalMs = performance.now() - t1
  for (const r of runners) await r.stop()
  await probe.end()
  return { setupMs, afterTx, latencies, enqueueMs, totalMs }
}

function report(name: string, r: Awaited<ReturnType<typeof benchPgBoss>>) {
  console.log(
    `${name}: set-up ${r.setupMs.toFixed(0)} ms; jobs after a rolled-back and a committed enqueue in a caller's transaction: ${r.afterTx}; ` +
      `enqueue→start median ${median(r.latencies).toFixed(1)} ms (max ${Math.max(...r.latencies).toFixed(1)}); ` +
      `${N} jobs of ${SEND_MS} ms with 2 workers × 5: enqueue ${r.enqueueMs.toFixed(0)} ms, all done in ${r.totalMs.toFixed(0)} ms = ${(N / (r.totalMs / 1000)).toFixed(0)} jobs/s`,
  )
}

process.on('uncaughtException', () => {}) // a pool's idle client when its database is dropped
const only = process.env.ONLY
if (only !== 'graphile')
  report(`pg-boss (batch ${BATCH}, notify ${NOTIFY})`, await withDatabase('bench_pgboss', benchPgBoss))
if (only !== 'pg-boss')
  report(
    'graphile-worker',
    await withDatabase('bench_graphile', benchGraphile).catch((err) => {
      console.log('graphile-worker failed:', err)
      process.exit(1)
    }),
  )
process.exit(0)
