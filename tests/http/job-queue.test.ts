/**
 * The job queue's drivers against a real database: the in-process driver everywhere, pg-boss on
 * PostgreSQL. Two queue instances stand for two app instances.
 */
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { queueJobs } from '../../src/server/db/schema.ts'
import type { JobQueue } from '../../src/server/jobs/queue.ts'
import { LocalJobQueue } from '../../src/server/jobs/queue.local.ts'
import { PgBossJobQueue } from '../../src/server/jobs/queue.pgboss.ts'
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts'

let tdb: TestDatabase
beforeAll(async () => {
  tdb = await createTestDatabase()
})
afterAll(() => tdb?.dispose())

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
async function until(check: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting')
    await sleep(20)
  }
}

type Make = () => JobQueue
const drivers: [string, Make, boolean][] = [
  ['the in-process driver', () => new LocalJobQueue(tdb.database.db, { pollMs: 50 }), true],
  [
    'the pg-boss driver',
    () =>
      new PgBossJobQueue({ connectionString: tdb.database.connectionString!, pollingIntervalSeconds: 0.5 }),
    !!process.env.DATABASE_URL,
  ],
]

describe.each(drivers)('%s', (label, make, enabled) => {
  const queues: JobQueue[] = []
  const open = (register: (q: JobQueue) => void) => {
    const q = make()
    register(q)
    queues.push(q)
    return q
  }
  afterAll(async () => {
    for (const q of queues) await q.stop()
  })
  const prefix = label.includes('pg-boss') ? 'boss' : 'local'

  it.runIf(enabled)(
    'runs a job enqueued in a committed transaction, and none from a rolled-back one',
    async () => {
      const seen: unknown[] = []
      const name = `${prefix}-tx`
      const q = open((q) => q.work(name, async (p) => void seen.push(p), { timeoutMs: 1000 }))
      await q.start()
      await tdb.database.db
        .transaction(async (tx) => {
          await q.enqueue(tx, name, { n: 'rolled back' })
          throw new Error('the order failed')
        })
        .catch(() => {})
      await tdb.database.db.transaction(async (tx) => q.enqueue(tx, name, { n: 'committed' }))
      q.wake()
      await until(() => seen.length >= 1)
      await sleep(700)
      expect(seen).toEqual([{ n: 'committed' }])
    },
  )

  it.runIf(enabled)(
    'retries a failing job with back-off until it succeeds',
    async () => {
      let calls = 0
      const name = `${prefix}-retry`
      const q = open((q) =>
        q.work(
          name,
          async () => {
            if (++calls < 2) throw new Error('provider unavailable')
          },
          { timeoutMs: 1000, retryLimit: 3, retryDelayMs: 1000 },
        ),
      )
      await q.start()
      await q.enqueue(tdb.database.db, name, {})
      q.wake()
      await until(() => calls >= 2, 15_000)
      await sleep(300)
      expect(calls).toBe(2)
      expect(q.status().find((s) => s.name === name)).toMatchObject({ runs: 1, failures: 1 })
    },
    20_000,
  )

  it.runIf(enabled)(
    'never runs a scheduled job twice at once across two instances',
    async () => {
      let active = 0
      let maxActive = 0
      let runs = 0
      const name = `${prefix}-sched`
      const register = (q: JobQueue) => {
        q.work(
          name,
          async () => {
            active++
            maxActive = Math.max(maxActive, active)
            await sleep(300)
            active--
            runs++
          },
          { timeoutMs: 2000 },
        )
        q.schedule(name, { everyMs: 100 })
      }
      const a = open(register)
      const b = open(register)
      await Promise.all([a.start(), b.start()])
      await until(() => runs >= 3, 15_000)
      expect(maxActive).toBe(1)
    },
    20_000,
  )

  it.runIf(enabled)(
    'runs a keyed job enqueued during a run of its key after that run, never beside it, and once for any further enqueues meanwhile',
    async () => {
      const seen: number[] = []
      let active = 0
      let maxActive = 0
      const name = `${prefix}-keyed`
      const q = open((q) =>
        q.work(
          name,
          async (p) => {
            active++
            maxActive = Math.max(maxActive, active)
            seen.push((p as { n: number }).n)
            await sleep(600)
            active--
          },
          { timeoutMs: 5000 },
        ),
      )
      await q.start()
      await q.enqueue(tdb.database.db, name, { n: 1 }, { key: 'site:1' })
      q.wake()
      await until(() => seen.length === 1)
      // The first run has read its data: these changes came after it and must not be dropped.
      await q.enqueue(tdb.database.db, name, { n: 2 }, { key: 'site:1' })
      await q.enqueue(tdb.database.db, name, { n: 3 }, { key: 'site:1' })
      q.wake()
      await until(() => seen.length === 2, 15_000)
      await sleep(1500)
      expect(seen).toEqual([1, 2])
      expect(maxActive).toBe(1)
    },
    25_000,
  )

  it.runIf(enabled)('aborts a run at its deadline and counts it as failed', async () => {
    let aborted = false
    const name = `${prefix}-deadline`
    const q = open((q) =>
      q.work(
        name,
        (_p, { signal }) =>
          new Promise<void>((resolve) => {
            signal.addEventListener('abort', () => {
              aborted = true
              resolve()
            })
          }),
        { timeoutMs: 200, retryLimit: 0 },
      ),
    )
    await q.start()
    await q.enqueue(tdb.database.db, name, {})
    q.wake()
    await until(() => q.status().find((s) => s.name === name)!.failures === 1)
    expect(aborted).toBe(true)
    expect(q.status().find((s) => s.name === name)!.lastError).toMatch(/timed out after 200 ms/)
  })
})

describe('the in-process driver after a crash', () => {
  it('claims again a job whose worker died once its lease has run out', async () => {
    const db = tdb.database.db
    await db.insert(queueJobs).values({
      name: 'crash-orphan',
      payload: { n: 1 },
      state: 'active',
      attempts: 1,
      lockedUntil: sql`now() - interval '1 second'` as never,
    })
    const seen: unknown[] = []
    const q = new LocalJobQueue(db, { pollMs: 50 })
    q.work('crash-orphan', async (p, { attempt }) => void seen.push([p, attempt]), { timeoutMs: 1000 })
    await q.start()
    await until(() => seen.length === 1)
    await q.stop()
    expect(seen).toEqual([[{ n: 1 }, 2]])
  })

  it('ends a failed keyed run as failed when another job of its key already waits, which then does the work', async () => {
    const db = tdb.database.db
    const seen: number[] = []
    const q = new LocalJobQueue(db, { pollMs: 50 })
    q.work(
      'fold-retry',
      async (p) => {
        const n = (p as { n: number }).n
        seen.push(n)
        await sleep(300)
        if (n === 1) throw new Error('provider unavailable')
      },
      { timeoutMs: 2000, retryLimit: 3, retryDelayMs: 100 },
    )
    await q.start()
    await q.enqueue(db, 'fold-retry', { n: 1 }, { key: 'k' })
    q.wake()
    await until(() => seen.length === 1)
    await q.enqueue(db, 'fold-retry', { n: 2 }, { key: 'k' })
    await until(() => seen.length === 2)
    await sleep(800)
    await q.stop()
    expect(seen).toEqual([1, 2])
    const rows = await db
      .select({ state: queueJobs.state, lastError: queueJobs.lastError })
      .from(queueJobs)
      .where(sql`${queueJobs.name} = 'fold-retry'`)
      .orderBy(queueJobs.id)
    expect(rows).toEqual([
      { state: 'failed', lastError: 'provider unavailable' },
      { state: 'done', lastError: null },
    ])
  })

  it('refuses a lease that is not longer than the deadline', () => {
    const q = new LocalJobQueue(tdb.database.db)
    expect(() => q.work('x', async () => {}, { timeoutMs: 1000, leaseMs: 1000 })).toThrow(
      /longer than its timeout/,
    )
  })
})

describe.skipIf(!process.env.DATABASE_URL)('the app on pg-boss (PostgreSQL)', () => {
  it('starts its jobs on pg-boss, runs the scheduled reconciler once, and closes', async () => {
    const { buildTestApp } = await import('../helpers/app.ts')
    const t = await buildTestApp({ jobs: { driver: 'pg-boss', pollMs: 500 } })
    try {
      expect(t.app.jobs.driver).toBe('pg-boss')
      expect(t.app.jobs.status().map((s) => s.name)).toEqual(
        expect.arrayContaining(['basket-sweep', 'session-sweep', 'payments-reconcile']),
      )
      await until(() => t.app.jobs.status().find((s) => s.name === 'payments-reconcile')!.runs >= 1, 15_000)
      expect(t.app.jobs.status().find((s) => s.name === 'payments-reconcile')!.failures).toBe(0)
    } finally {
      await t.close()
    }
  }, 30_000)
})

describe('the in-process driver keeps finished jobs for a while', () => {
  it('deletes done jobs after a day and failed ones after a week, and nothing live', async () => {
    const db = tdb.database.db
    const at = (daysAgo: number) => sql`now() - ${daysAgo} * interval '1 day'` as never
    await db.insert(queueJobs).values([
      { name: 'prune', key: 'done-old', state: 'done', finishedAt: at(2) },
      { name: 'prune', key: 'done-new', state: 'done', finishedAt: at(0.5) },
      { name: 'prune', key: 'failed-old', state: 'failed', finishedAt: at(8) },
      { name: 'prune', key: 'failed-new', state: 'failed', finishedAt: at(2) },
      { name: 'prune', key: 'queued', state: 'queued' },
    ])
    await new LocalJobQueue(db).prune()
    const left = await db
      .select({ key: queueJobs.key })
      .from(queueJobs)
      .where(sql`name = 'prune'`)
    expect(left.map((r) => r.key).sort()).toEqual(['done-new', 'failed-new', 'queued'])
  })
})
