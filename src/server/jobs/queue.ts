/**
 * The shop's job queue, behind one small interface (ADR 0185): work is enqueued in the caller's
 * transaction, claimed by one worker of one instance at a time under a lease, run with a
 * deadline shorter than the lease, and retried with back-off. Periodic work is a scheduled job
 * of its own name. Two drivers: pg-boss on PostgreSQL (`queue.pgboss.ts`) and the shop's own
 * table polled in process (`queue.local.ts`, the embedded database).
 */
import type { Executor } from '../db/client.ts'

export interface EnqueueOptions {
  /**
   * Per name and key, at most one job waiting and one running: an enqueue while one waits is
   * ignored (the waiting one will do the work); an enqueue while one runs waits behind it, so a
   * change made after the running job read its data is never lost. Both drivers.
   */
  key?: string
  /** Not before (default: now). */
  runAt?: Date
}

export interface JobContext {
  /** Aborted when the job's deadline passes: outside calls must stop then. */
  signal: AbortSignal
  /** 1 on the first run. */
  attempt: number
}

export type JobHandler = (payload: unknown, ctx: JobContext) => Promise<number | void>

export interface WorkOptions {
  /** Deadline of one run (ms); the run's signal aborts then and the run counts as failed. */
  timeoutMs: number
  /** How long a claimed job is hidden from other workers (ms); must exceed `timeoutMs`. */
  leaseMs?: number
  /** Runs after the first; each waits `retryDelayMs × 2^(attempt-1)` (with jitter). */
  retryLimit?: number
  retryDelayMs?: number
  /** Jobs of this name a worker runs side by side (default 1). */
  concurrency?: number
}

export interface ScheduleOptions {
  /** Time from one run's end to the next run (ms). */
  everyMs: number
}

/** Per job name, for the metrics and the operations page. */
export interface JobStatus {
  name: string
  everyMs: number
  runs: number
  failures: number
  lastStartedAt: number | null
  lastFinishedAt: number | null
  lastError: string | null
  /** Seconds the scheduled job is behind its schedule (0 when on time or not scheduled). */
  lagSeconds: number
}

export interface JobQueue {
  readonly driver: 'local' | 'pg-boss'
  /** Adds a job in the caller's transaction (or outside one, on the database). */
  enqueue(tx: Executor, name: string, payload?: unknown, options?: EnqueueOptions): Promise<void>
  /** Registers the handler of a job name (before `start()`). */
  work(name: string, handler: JobHandler, options: WorkOptions): void
  /**
   * Runs `name` periodically across all instances: one run at a time, at most one per period
   * (a run is a job with the key `schedule`).
   */
  schedule(name: string, options: ScheduleOptions): void
  start(): Promise<void>
  /** Takes no further job and waits for the runs under way. */
  stop(): Promise<void>
  /** Runs a registered job now in this process, outside the queue (CLI, tests). */
  runNow(name: string, payload?: unknown): Promise<void>
  /** Asks this process's workers to look for work now (after a commit that queued some). */
  wake(): void
  status(): JobStatus[]
}

export const DEFAULT_RETRY_DELAY_MS = 30_000

/** The back-off before run `attempt + 1`, with ±20 % jitter so instances spread out. */
export function retryDelay(attempt: number, baseMs: number, random: () => number = Math.random): number {
  const exact = Math.min(3_600_000, baseMs * 2 ** Math.max(0, attempt - 1))
  return Math.round(exact * (0.8 + 0.4 * random()))
}

/** The lease of a job: its deadline plus a margin, never less than twice the deadline. */
export function leaseFor(options: WorkOptions): number {
  const lease = options.leaseMs ?? Math.max(options.timeoutMs * 2, options.timeoutMs + 10_000)
  if (lease <= options.timeoutMs) throw new Error('a job lease must be longer than its timeout')
  return lease
}

/**
 * Runs `fn` with a signal that aborts after `ms`; rejects then even if `fn` ignores the signal.
 */
export async function withDeadline<T>(ms: number, fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController()
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const err = new Error(`timed out after ${ms} ms`)
      reject(err) // first, so the race fails even if the work ends on the abort
      controller.abort(err)
    }, ms)
  })
  try {
    return await Promise.race([fn(controller.signal), timeout])
  } finally {
    clearTimeout(timer)
  }
}

/** Book-keeping of runs per name, shared by both drivers. */
export class RunStats {
  private readonly byName = new Map<string, Omit<JobStatus, 'lagSeconds'> & { nextDueAt: number }>()

  constructor(private readonly now: () => number = Date.now) {}

  register(name: string, everyMs = 0): void {
    if (this.byName.has(name)) throw new Error(`job ${name} is already registered`)
    this.byName.set(name, {
      name,
      everyMs,
      runs: 0,
      failures: 0,
      lastStartedAt: null,
      lastFinishedAt: null,
      lastError: null,
      nextDueAt: 0,
    })
  }

  has(name: string): boolean {
    return this.byName.has(name)
  }

  setEvery(name: string, everyMs: number): void {
    const s = this.byName.get(name)
    if (s) {
      s.everyMs = everyMs
      s.nextDueAt = this.now() + everyMs
    }
  }

  async track<T>(name: string, run: () => Promise<T>): Promise<T> {
    const s = this.byName.get(name)
    if (!s) throw new Error(`no job named ${name}`)
    s.lastStartedAt = this.now()
    try {
      const result = await run()
      s.runs++
      s.lastError = null
      return result
    } catch (err) {
      s.failures++
      s.lastError = err instanceof Error ? err.message : String(err)
      throw err
    } finally {
      s.lastFinishedAt = this.now()
      if (s.everyMs) s.nextDueAt = s.lastFinishedAt + s.everyMs
    }
  }

  status(running: boolean): JobStatus[] {
    const now = this.now()
    return [...this.byName.values()].map(({ nextDueAt, ...s }) => ({
      ...s,
      lagSeconds:
        running && s.everyMs && nextDueAt && now > nextDueAt ? Math.round((now - nextDueAt) / 100) / 10 : 0,
    }))
  }
}
