/**
 * Background work of an instance, started in one place (buildApp, once the app is ready) and
 * stopped on close. Every instance runs every job: a job's `runOnce()` must be safe when another
 * instance runs it at the same moment — it takes its rows with `FOR UPDATE SKIP LOCKED` (and a
 * lease, as the mail queue and the payment reconciler do) or a conditional UPDATE. Runs of one
 * job never overlap within an instance.
 */
import type { FastifyBaseLogger } from 'fastify'

export interface Job {
  /** Unique name, used in logs and metrics ('basket-sweep'). */
  name: string
  /** Time from the end of one run to the start of the next. */
  everyMs: number
  /** Delay before the first run; default: a random part of `everyMs` so instances spread out. */
  firstRunMs?: number
  /** One round of work; resolves with the number of items handled (logged when non-zero). */
  runOnce(): Promise<number | void>
}

export interface JobStatus {
  name: string
  everyMs: number
  runs: number
  failures: number
  lastStartedAt: number | null
  lastFinishedAt: number | null
  lastError: string | null
  /** Seconds the job is behind its schedule (0 when on time or never due yet). */
  lagSeconds: number
}

interface Entry {
  job: Job
  timer: NodeJS.Timeout | null
  running: Promise<void> | null
  startedAt: number
  nextDueAt: number
  status: Omit<JobStatus, 'lagSeconds'>
}

export class JobRunner {
  private readonly entries = new Map<string, Entry>()
  private started = false
  private stopped = false

  constructor(
    private readonly log?: FastifyBaseLogger,
    private readonly now: () => number = Date.now,
  ) {}

  add(job: Job): this {
    if (this.entries.has(job.name)) throw new Error(`job ${job.name} is already registered`)
    this.entries.set(job.name, {
      job,
      timer: null,
      running: null,
      startedAt: 0,
      nextDueAt: 0,
      status: {
        name: job.name,
        everyMs: job.everyMs,
        runs: 0,
        failures: 0,
        lastStartedAt: null,
        lastFinishedAt: null,
        lastError: null,
      },
    })
    if (this.started) this.schedule(this.entries.get(job.name)!, this.firstDelay(job))
    return this
  }

  /** Schedules every job. Idempotent. */
  start(): void {
    if (this.started || this.stopped) return
    this.started = true
    for (const entry of this.entries.values()) this.schedule(entry, this.firstDelay(entry.job))
  }

  /** Cancels the schedule and waits for runs in progress to finish. */
  async stop(): Promise<void> {
    this.stopped = true
    for (const entry of this.entries.values()) {
      if (entry.timer) clearTimeout(entry.timer)
      entry.timer = null
    }
    await Promise.all([...this.entries.values()].map((e) => e.running))
  }

  /** Runs a job now (CLI, admin API, tests), waiting for a run in progress first. */
  async runNow(name: string): Promise<void> {
    const entry = this.entries.get(name)
    if (!entry) throw new Error(`no job named ${name}`)
    if (entry.running) await entry.running
    await this.run(entry)
  }

  status(): JobStatus[] {
    const now = this.now()
    return [...this.entries.values()].map((e) => ({
      ...e.status,
      lagSeconds:
        this.started && !this.stopped && e.nextDueAt && now > e.nextDueAt
          ? Math.round((now - e.nextDueAt) / 100) / 10
          : 0,
    }))
  }

  private firstDelay(job: Job): number {
    return job.firstRunMs ?? Math.floor(Math.random() * job.everyMs)
  }

  private schedule(entry: Entry, delay: number): void {
    if (this.stopped) return
    entry.nextDueAt = this.now() + delay
    entry.timer = setTimeout(() => {
      entry.timer = null
      void this.run(entry).finally(() => this.schedule(entry, entry.job.everyMs))
    }, delay)
    entry.timer.unref()
  }

  private run(entry: Entry): Promise<void> {
    const status = entry.status
    const run = (async () => {
      status.lastStartedAt = this.now()
      try {
        const handled = await entry.job.runOnce()
        status.runs++
        status.lastError = null
        if (handled) this.log?.info({ job: entry.job.name, handled }, 'job run')
      } catch (err) {
        status.failures++
        status.lastError = err instanceof Error ? err.message : String(err)
        this.log?.warn({ err, job: entry.job.name }, 'job failed')
      } finally {
        status.lastFinishedAt = this.now()
        entry.running = null
      }
    })()
    entry.running = run
    return run
  }
}
