/**
 * The in-process driver (ADR 0185): jobs in the shop's `queue_jobs` table, polled by this
 * process. Made for the embedded database (one process), and correct on PostgreSQL with several
 * instances too: a claim takes its row with `FOR UPDATE SKIP LOCKED`, sets a lease longer than
 * the run's deadline and a fresh token; only the token's owner records the outcome; a row whose
 * lease ran out (its worker died) is claimed again. Per name and key there is at most one queued
 * and one active job (two partial unique indexes), as with pg-boss's `stately` policy: a queued
 * job is not claimed while its key has an active one, so a keyed job never runs twice at once, and
 * an enqueue during a run waits behind it instead of being dropped.
 */
import { randomUUID } from 'node:crypto'
import { and, eq, sql } from 'drizzle-orm'
import type { Db, Executor } from '../db/client.ts'
import { queueJobs } from './jobs.tables.ts'
import {
  DEFAULT_RETRY_DELAY_MS,
  leaseFor,
  retryDelay,
  RunStats,
  withDeadline,
  type EnqueueOptions,
  type JobHandler,
  type JobQueue,
  type JobStatus,
  type ScheduleOptions,
  type WorkOptions,
} from './queue.ts'

interface Registered {
  handler: JobHandler
  options: WorkOptions
  leaseMs: number
  active: number
}

export interface LocalQueueOptions {
  /** How often an idle worker looks for due jobs (ms) */
  pollMs?: number
  log?: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void }
}

export class LocalJobQueue implements JobQueue {
  readonly driver = 'local' as const
  private readonly handlers = new Map<string, Registered>()
  private readonly schedules = new Map<string, ScheduleOptions>()
  private readonly stats = new RunStats()
  private readonly timers = new Set<NodeJS.Timeout>()
  private readonly running = new Set<Promise<void>>()
  private started = false
  private stopped = false
  private polling: Promise<void> | null = null
  private again = false
  private readonly pollMs: number

  constructor(
    private readonly db: Db,
    private readonly opts: LocalQueueOptions = {},
  ) {
    this.pollMs = opts.pollMs ?? 1000
  }

  async enqueue(tx: Executor, name: string, payload: unknown = null, options: EnqueueOptions = {}) {
    await tx
      .insert(queueJobs)
      .values({
        name,
        payload: payload as object,
        key: options.key ?? null,
        ...(options.runAt ? { runAt: options.runAt } : {}),
      })
      .onConflictDoNothing()
  }

  work(name: string, handler: JobHandler, options: WorkOptions): void {
    if (this.handlers.has(name)) throw new Error(`job ${name} is already registered`)
    this.handlers.set(name, { handler, options, leaseMs: leaseFor(options), active: 0 })
    this.stats.register(name)
  }

  schedule(name: string, options: ScheduleOptions): void {
    this.schedules.set(name, options)
    this.stats.setEvery(name, options.everyMs)
  }

  async start(): Promise<void> {
    if (this.started || this.stopped) return
    this.started = true
    for (const [name, { everyMs }] of this.schedules) {
      const tick = () =>
        void this.plan(name, everyMs).catch((err) =>
          this.opts.log?.warn({ err, job: name }, 'schedule failed'),
        )
      this.every(Math.min(everyMs, 60_000), tick, Math.floor(Math.random() * Math.min(everyMs, 5000)))
    }
    this.every(this.pollMs, () => this.wake(), this.pollMs)
    const prune = () =>
      void this.prune().catch((err) => this.opts.log?.warn({ err }, 'job queue prune failed'))
    this.every(3600_000, prune, 60_000)
  }

  /** Finished jobs are kept a day (failed ones a week) for inspection, then deleted. */
  async prune(): Promise<void> {
    await this.db.execute(sql`
      delete from ${queueJobs}
      where (state = 'done' and finished_at < now() - interval '1 day')
         or (state = 'failed' and finished_at < now() - interval '7 days')`)
  }

  async stop(): Promise<void> {
    this.stopped = true
    for (const t of this.timers) clearInterval(t)
    this.timers.clear()
    await this.polling
    await Promise.all([...this.running])
  }

  async runNow(name: string, payload: unknown = null): Promise<void> {
    const reg = this.handlers.get(name)
    if (!reg) throw new Error(`no job named ${name}`)
    await this.stats.track(name, () =>
      withDeadline(reg.options.timeoutMs, (signal) => reg.handler(payload, { signal, attempt: 1 })),
    )
  }

  wake(): void {
    if (!this.started || this.stopped) return
    if (this.polling) {
      this.again = true
      return
    }
    this.polling = this.poll()
      .catch((err) => this.opts.log?.warn({ err }, 'job queue poll failed'))
      .finally(() => {
        this.polling = null
        if (this.again) {
          this.again = false
          this.wake()
        }
      })
  }

  status(): JobStatus[] {
    return this.stats.status(this.started && !this.stopped)
  }

  /** Queues the scheduled run unless one is queued or active, or one finished within the period. */
  async plan(name: string, everyMs: number): Promise<void> {
    await this.db.execute(sql`
      insert into ${queueJobs} (name, key) select ${name}, 'schedule'
      where not exists (
        select 1 from ${queueJobs} where name = ${name} and key = 'schedule'
          and (state in ('queued', 'active') or finished_at > now() - ${everyMs} * interval '1 millisecond'))
      on conflict do nothing`)
    this.wake()
  }

  private every(ms: number, fn: () => void, firstMs: number): void {
    const first = setTimeout(() => {
      this.timers.delete(first)
      if (this.stopped) return
      fn()
      const t = setInterval(fn, ms)
      t.unref()
      this.timers.add(t)
    }, firstMs)
    first.unref()
    this.timers.add(first)
  }

  /** Claims and starts due jobs while this process has room for them. */
  private async poll(): Promise<void> {
    for (;;) {
      if (this.stopped) return
      const names = [...this.handlers]
        .filter(([, r]) => r.active < (r.options.concurrency ?? 1))
        .map(([n]) => n)
      if (names.length === 0) return
      const claim = await this.claim(names)
      if (!claim) return
      const run = this.run(claim).finally(() => {
        this.running.delete(run)
        this.wake()
      })
      this.running.add(run)
    }
  }

  private async claim(names: string[]) {
    const token = randomUUID()
    const rows = await this.db.transaction(async (tx) => {
      const due = await tx.execute<{ id: number; name: string }>(sql`
        select id, name from ${queueJobs} j
        where name in ${names}
          and ((state = 'queued' and run_at <= now()
                and not exists (select 1 from ${queueJobs} a
                                where a.name = j.name and a.key = j.key and a.state = 'active'))
               or (state = 'active' and locked_until < now()))
        order by run_at, id limit 1 for update skip locked`)
      const row = (due as unknown as { rows: { id: number; name: string }[] }).rows[0]
      if (!row) return []
      const id = row.id
      const lease = this.handlers.get(row.name)!.leaseMs
      return tx
        .update(queueJobs)
        .set({
          state: 'active',
          attempts: sql`${queueJobs.attempts} + 1`,
          claimToken: token,
          lockedUntil: sql`now() + ${lease} * interval '1 millisecond'`,
        })
        .where(eq(queueJobs.id, id))
        .returning()
    })
    const job = rows[0]
    if (!job) return null
    this.handlers.get(job.name)!.active++
    return { job, token }
  }

  private async run({ job, token }: NonNullable<Awaited<ReturnType<LocalJobQueue['claim']>>>) {
    const reg = this.handlers.get(job.name)!
    const ours = and(eq(queueJobs.id, job.id), eq(queueJobs.claimToken, token), eq(queueJobs.state, 'active'))
    try {
      await this.stats.track(job.name, () =>
        withDeadline(reg.options.timeoutMs, (signal) =>
          reg.handler(job.payload, { signal, attempt: job.attempts }),
        ),
      )
      await this.db
        .update(queueJobs)
        .set({ state: 'done', finishedAt: sql`now()`, lockedUntil: null })
        .where(ours)
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err)
      const last = job.attempts > (reg.options.retryLimit ?? 2)
      const delay = retryDelay(job.attempts, reg.options.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS)
      // A retry waits as the key's queued job; when another enqueue already queued one, that job
      // will do the work and this one ends as failed (a key has at most one queued job).
      const waiting = sql`exists (select 1 from ${queueJobs} q
        where q.name = ${job.name} and q.key = ${job.key} and q.state = 'queued')`
      await this.db
        .update(queueJobs)
        .set({
          state: last ? 'failed' : sql`case when ${waiting} then 'failed' else 'queued' end`,
          lastError: message.slice(0, 1000),
          lockedUntil: null,
          finishedAt: last ? sql`now()` : sql`case when ${waiting} then now() end`,
          runAt: sql`now() + ${delay} * interval '1 millisecond'`,
        })
        .where(ours)
      this.opts.log?.[last ? 'error' : 'warn'](
        { err, job: job.name, attempts: job.attempts },
        last ? 'job failed for good' : 'job will be retried',
      )
    } finally {
      reg.active--
    }
  }
}
