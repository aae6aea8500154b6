/**
 * The mail queue: `enqueueMail()` writes a job row inside the caller's transaction (so a message
 * exists exactly when what it is about was committed), and `MailQueueWorker` sends due jobs
 * through the mailer. Self-contained: `runOnce()` does one batch and returns what it did;
 * `kick()` runs a batch unless one is under way; the job runner (`src/server/jobs/`) kicks it on its
 * schedule and after a commit that queued mail. Any number of processes may run it against one database:
 * each batch claims its rows with `FOR UPDATE SKIP LOCKED` and pushes their next attempt forward
 * before sending, so a crash mid-send means a retry later, never a lost job. A failed send is
 * retried with exponential back-off (30 s, 1 min, 2 min … capped at 1 h) and marked failed after
 * `maxAttempts`. A retried send may deliver twice (at least once), never zero times.
 */
import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm'
import type { Db, Tx } from '../../db/client.ts'
import type { MailMessage, Mailer } from './mail.service.ts'
import { mailJobs, type MailJobRow } from './mail.tables.ts'

export interface QueuedMail {
  /** Unique per message: a second enqueue with the same key is ignored */
  dedupeKey: string
  message: Omit<MailMessage, 'from'>
}

/** Queues messages in the caller's transaction; an already-queued key is left as it was. */
export async function enqueueMail(tx: Tx | Db, mails: QueuedMail[]): Promise<void> {
  if (mails.length === 0) return
  await tx
    .insert(mailJobs)
    .values(mails.map((m) => ({ dedupeKey: m.dedupeKey, message: m.message })))
    .onConflictDoNothing({ target: mailJobs.dedupeKey })
}

export interface MailQueueOptions {
  batchSize?: number
  maxAttempts?: number
  /** Back-off before attempt n+1 (ms) */
  backoffMs?: (attempt: number) => number
  /** How long a claimed job is hidden from other workers while it is being sent (ms) */
  leaseMs?: number
  now?: () => Date
  log?: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void }
}

export interface RunResult {
  sent: number
  failed: number
  retrying: number
}

export const defaultBackoff = (attempt: number): number => Math.min(3600_000, 30_000 * 2 ** (attempt - 1))

export class MailQueueWorker {
  private running: Promise<RunResult> | null = null
  private readonly batchSize: number
  private readonly maxAttempts: number
  private readonly backoffMs: (attempt: number) => number
  private readonly leaseMs: number
  private readonly now: () => Date

  constructor(
    private readonly db: Db,
    private readonly mailer: Mailer,
    private readonly opts: MailQueueOptions = {},
  ) {
    this.batchSize = opts.batchSize ?? 20
    this.maxAttempts = opts.maxAttempts ?? 8
    this.backoffMs = opts.backoffMs ?? defaultBackoff
    this.leaseMs = opts.leaseMs ?? 120_000
    this.now = opts.now ?? (() => new Date())
  }

  /** Claims due jobs (skipping rows another worker holds), then sends each one. */
  async runOnce(): Promise<RunResult> {
    const result: RunResult = { sent: 0, failed: 0, retrying: 0 }
    const now = this.now()
    const claimed: MailJobRow[] = await this.db.transaction(async (tx) => {
      const due = await tx
        .select()
        .from(mailJobs)
        .where(and(eq(mailJobs.status, 'pending'), lte(mailJobs.nextAttemptAt, now)))
        .orderBy(asc(mailJobs.nextAttemptAt), asc(mailJobs.id))
        .limit(this.batchSize)
        .for('update', { skipLocked: true })
      if (due.length === 0) return []
      // The lease: hidden from every other worker until it runs out (a crash retries later).
      await tx
        .update(mailJobs)
        .set({
          attempts: sql`${mailJobs.attempts} + 1`,
          nextAttemptAt: new Date(now.getTime() + this.leaseMs),
        })
        .where(
          inArray(
            mailJobs.id,
            due.map((d) => d.id),
          ),
        )
      return due.map((d) => ({ ...d, attempts: d.attempts + 1 }))
    })
    for (const job of claimed) {
      try {
        await this.mailer.send(job.message)
        await this.db
          .update(mailJobs)
          .set({ status: 'sent', sentAt: this.now(), lastError: null })
          .where(eq(mailJobs.id, job.id))
        result.sent++
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err)
        const last = job.attempts >= this.maxAttempts
        await this.db
          .update(mailJobs)
          .set({
            status: last ? 'failed' : 'pending',
            lastError: message.slice(0, 1000),
            nextAttemptAt: new Date(this.now().getTime() + this.backoffMs(job.attempts)),
          })
          .where(eq(mailJobs.id, job.id))
        if (last) {
          result.failed++
          this.opts.log?.error({ jobId: job.id, err }, 'mail job failed for good')
        } else {
          result.retrying++
          this.opts.log?.warn({ jobId: job.id, attempts: job.attempts, err }, 'mail job will be retried')
        }
      }
    }
    return result
  }

  /** Runs a batch now unless one is under way (then waits for it). */
  kick(): Promise<RunResult> {
    if (!this.running) {
      this.running = this.runOnce().finally(() => {
        this.running = null
      })
    }
    return this.running
  }

  /** Waits for the batch under way (the app's close). */
  async stop(): Promise<void> {
    await this.running?.catch(() => {})
  }
}
