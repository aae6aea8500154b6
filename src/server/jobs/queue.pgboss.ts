/**
 * The PostgreSQL driver (ADR 0185): pg-boss, in its own `pgboss` schema (it creates and migrates
 * it at start, under its own lock). Each job name is a pg-boss queue with the `stately` policy:
 * per key, at most one job waiting and one running, so a keyed job (a scheduled run, one
 * message) never runs twice at once on any instance. A job without a key gets a unique one.
 * `expireInSeconds` is the lease, above the run's deadline: a job whose worker died is retried
 * when its lease runs out. Enqueue goes through the caller's Drizzle transaction (`fromDrizzle`).
 * A scheduled name is a chain: each instance queues the `schedule` run at start (deduplicated),
 * each run queues the next one `everyMs` later, and every instance offers the next run now and
 * then, so a chain whose running instance died goes on.
 */
import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { fromDrizzle, PgBoss } from 'pg-boss'
import type { Executor } from '../db/client.ts'
import {
  DEFAULT_RETRY_DELAY_MS,
  leaseFor,
  RunStats,
  withDeadline,
  type EnqueueOptions,
  type JobHandler,
  type JobQueue,
  type JobStatus,
  type ScheduleOptions,
  type WorkOptions,
} from './queue.ts'

export interface PgBossQueueOptions {
  connectionString: string
  /** Seconds between an idle worker's looks for jobs (pg-boss's minimum is 0.5) */
  pollingIntervalSeconds?: number
  log?: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void }
}

const SCHEDULE_KEY = 'schedule'

export class PgBossJobQueue implements JobQueue {
  readonly driver = 'pg-boss' as const
  private readonly boss: PgBoss
  private readonly handlers = new Map<string, { handler: JobHandler; options: WorkOptions }>()
  private readonly schedules = new Map<string, ScheduleOptions>()
  private readonly stats = new RunStats()
  private readonly timers: NodeJS.Timeout[] = []
  private started = false
  private stopped = false

  constructor(private readonly opts: PgBossQueueOptions) {
    this.boss = new PgBoss({ connectionString: opts.connectionString, max: 3 })
    this.boss.on('error', (err) => opts.log?.warn({ err }, 'job queue error'))
  }

  async enqueue(tx: Executor, name: string, payload: unknown = null, options: EnqueueOptions = {}) {
    await this.boss.send(name, (payload ?? {}) as object, {
      singletonKey: options.key ?? randomUUID(),
      ...(options.runAt ? { startAfter: options.runAt } : {}),
      db: fromDrizzle(tx as unknown as Parameters<typeof fromDrizzle>[0], sql),
    })
  }

  work(name: string, handler: JobHandler, options: WorkOptions): void {
    if (this.handlers.has(name)) throw new Error(`job ${name} is already registered`)
    leaseFor(options)
    this.handlers.set(name, { handler, options })
    this.stats.register(name)
  }

  schedule(name: string, options: ScheduleOptions): void {
    this.schedules.set(name, options)
    this.stats.setEvery(name, options.everyMs)
  }

  async start(): Promise<void> {
    if (this.started || this.stopped) return
    this.started = true
    await this.boss.start()
    for (const [name, { handler, options }] of this.handlers) {
      const settings = {
        expireInSeconds: Math.ceil(leaseFor(options) / 1000),
        retryLimit: options.retryLimit ?? 2,
        retryDelay: Math.max(1, Math.round((options.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS) / 1000)),
        retryBackoff: true,
      }
      // Instances start together: whichever creates the queue, the others bring its settings up
      // to date (a queue's policy is fixed at creation).
      if (!(await this.boss.getQueue(name))) {
        await this.boss.createQueue(name, { policy: 'stately', ...settings }).catch(() => {})
      }
      await this.boss.updateQueue(name, settings)
      const every = this.schedules.get(name)?.everyMs
      await this.boss.work(
        name,
        {
          localConcurrency: options.concurrency ?? 1,
          batchSize: 1,
          pollingIntervalSeconds: this.opts.pollingIntervalSeconds ?? 2,
        },
        async ([job]) => {
          if (!job) return
          const isScheduled =
            every !== undefined && (job.data as { scheduled?: boolean } | null)?.scheduled === true
          try {
            await this.stats.track(name, () =>
              withDeadline(options.timeoutMs, (signal) =>
                handler(job.data, { signal, attempt: (job.retryCount ?? 0) + 1 }),
              ),
            )
          } finally {
            // The next run of the chain, whatever this one did (a failure is retried as well).
            if (isScheduled && !this.stopped) await this.planNext(name, every).catch(() => {})
          }
        },
      )
    }
    for (const [name, { everyMs }] of this.schedules) {
      await this.boss.send(name, { scheduled: true }, { singletonKey: SCHEDULE_KEY })
      // The chain's safety net: an instance that died mid-run never queued the next run; every
      // instance offers one now and then (ignored while one is waiting: the key is stately).
      const timer = setInterval(
        () => void this.planNext(name, everyMs).catch(() => {}),
        Math.max(everyMs, 30_000),
      )
      timer.unref()
      this.timers.push(timer)
    }
  }

  private async planNext(name: string, everyMs: number): Promise<void> {
    await this.boss.send(
      name,
      { scheduled: true },
      { singletonKey: SCHEDULE_KEY, startAfter: new Date(Date.now() + everyMs) },
    )
  }

  async stop(): Promise<void> {
    if (this.stopped) return
    this.stopped = true
    for (const t of this.timers) clearInterval(t)
    if (this.started) await this.boss.stop({ graceful: true, timeout: 30_000 })
  }

  async runNow(name: string, payload: unknown = null): Promise<void> {
    const reg = this.handlers.get(name)
    if (!reg) throw new Error(`no job named ${name}`)
    await this.stats.track(name, () =>
      withDeadline(reg.options.timeoutMs, (signal) => reg.handler(payload, { signal, attempt: 1 })),
    )
  }

  wake(): void {
    // pg-boss polls on its own (or is woken by NOTIFY when turned on); nothing to do here.
  }

  status(): JobStatus[] {
    return this.stats.status(this.started && !this.stopped)
  }
}
