/**
 * The mail queue: `enqueueMail()` writes a message row inside the caller's transaction (so a
 * message exists exactly when what it is about was committed); `MailQueueWorker` sends due rows
 * through the mailer. The row's `dedupe_key` is the message's idempotency key.
 *
 * One message at a time: a worker claims one due row (`FOR UPDATE SKIP LOCKED`), giving it a
 * fresh claim token and a lease (`next_attempt_at` moves to the end of the lease), sends it with
 * a deadline shorter than the lease, and records the outcome only while the token is still its
 * own. So no other worker, on this or another instance, can take the message while a send of it
 * may be under way, and a sent message is never claimed again.
 *
 * The rule for a crash during a send (ADR 0186): the row keeps its lease and is claimed again
 * when the lease has run out; if the earlier SMTP conversation had in fact been accepted, the
 * message goes out a second time, with the same Message-ID (derived from the key). A message is
 * never lost; a duplicate is possible only when a process dies, or the database cannot be
 * reached, between the SMTP server's acceptance and the commit of `sent`. A send that fails is
 * retried with exponential back-off (30 s, 1 min, 2 min … capped at 1 h) and marked failed after
 * `maxAttempts`; a send that times out keeps its lease to the end (its outcome is unknown).
 */
import { createHash, randomUUID } from 'node:crypto'
import { and, asc, eq, lte, sql, type SQL } from 'drizzle-orm'
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

/** The Message-ID of the message with this idempotency key (the same on every attempt). */
export function messageIdFor(dedupeKey: string, from: string): string {
  const domain = /@([A-Za-z0-9.-]+)>?\s*$/.exec(from)?.[1] ?? 'localhost'
  return `${createHash('sha256').update(dedupeKey).digest('hex').slice(0, 32)}@${domain}`
}

export interface MailQueueOptions {
  batchSize?: number
  maxAttempts?: number
  /** Back-off before attempt n+1 (ms) */
  backoffMs?: (attempt: number) => number
  /** How long a claimed job is hidden from other workers while it is being sent (ms) */
  leaseMs?: number
  /** Longest one send may take (ms); must be below `leaseMs` */
  sendTimeoutMs?: number
  /** The sender, for the Message-ID's domain */
  from?: string
  /** Clock for tests; by default the database's clock (every instance then agrees on time) */
  now?: () => Date
  log?: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void }
}

export interface RunResult {
  sent: number
  failed: number
  retrying: number
}

export const defaultBackoff = (attempt: number): number => Math.min(3600_000, 30_000 * 2 ** (attempt - 1))

/** How long before the end of its lease a worker stops trying to record a send. */
const RECORD_MARGIN_MS = 5_000

export class MailQueueWorker {
  private running: Promise<RunResult> | null = null
  private readonly batchSize: number
  private readonly maxAttempts: number
  private readonly backoffMs: (attempt: number) => number
  private readonly leaseMs: number
  private readonly sendTimeoutMs: number
  private readonly now: (() => Date) | null
  private stopping = false

  constructor(
    private readonly db: Db,
    private readonly mailer: Mailer,
    private readonly opts: MailQueueOptions = {},
  ) {
    this.batchSize = opts.batchSize ?? 20
    this.maxAttempts = opts.maxAttempts ?? 8
    this.backoffMs = opts.backoffMs ?? defaultBackoff
    this.leaseMs = opts.leaseMs ?? 120_000
    this.sendTimeoutMs = opts.sendTimeoutMs ?? Math.floor(this.leaseMs / 2)
    if (this.sendTimeoutMs >= this.leaseMs) throw new Error('the send timeout must be below the lease')
    this.now = opts.now ?? null
  }

  /** The injected clock's time, or the database's. */
  private clock(): SQL | Date {
    return this.now ? this.now() : sql`clock_timestamp()`
  }

  private later(from: SQL | Date, ms: number): SQL | Date {
    return from instanceof Date
      ? new Date(from.getTime() + ms)
      : sql`${from} + ${ms} * interval '1 millisecond'`
  }

  /** Sends due messages one at a time (each claimed on its own), up to `batchSize` of them. */
  async runOnce(): Promise<RunResult> {
    const result: RunResult = { sent: 0, failed: 0, retrying: 0 }
    for (let n = 0; n < this.batchSize && !this.stopping; n++) {
      const claim = await this.claim()
      if (!claim) break
      result[await this.deliver(claim.job, claim.token)]++
    }
    return result
  }

  /** Takes one due message (skipping rows another worker holds) under a fresh token and lease. */
  private async claim(): Promise<{ job: MailJobRow; token: string } | null> {
    const now = this.clock()
    const token = randomUUID()
    return this.db.transaction(async (tx) => {
      const [due] = await tx
        .select()
        .from(mailJobs)
        .where(and(eq(mailJobs.status, 'pending'), lte(mailJobs.nextAttemptAt, now)))
        .orderBy(asc(mailJobs.nextAttemptAt), asc(mailJobs.id))
        .limit(1)
        .for('update', { skipLocked: true })
      if (!due) return null
      // The lease: hidden from every other worker until it runs out (a crash retries later).
      const [job] = await tx
        .update(mailJobs)
        .set({
          attempts: sql`${mailJobs.attempts} + 1`,
          claimToken: token,
          nextAttemptAt: this.later(now, this.leaseMs),
        })
        .where(eq(mailJobs.id, due.id))
        .returning()
      return job ? { job, token } : null
    })
  }

  private async deliver(job: MailJobRow, token: string): Promise<keyof RunResult> {
    const ours = and(eq(mailJobs.id, job.id), eq(mailJobs.claimToken, token), eq(mailJobs.status, 'pending'))
    let timedOut = false
    try {
      const messageId = messageIdFor(job.dedupeKey, this.opts.from ?? '')
      await withDeadline(this.sendTimeoutMs, async (signal) => {
        signal.addEventListener('abort', () => void (timedOut = true))
        await this.mailer.send({ ...job.message, messageId }, { signal })
      })
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err)
      const last = job.attempts >= this.maxAttempts
      const retryAt = this.later(this.clock(), this.backoffMs(job.attempts))
      // A send that timed out may still be talking to the server: its lease is kept to the end.
      const leaseEnd = job.nextAttemptAt
      await this.db
        .update(mailJobs)
        .set({
          status: last ? 'failed' : 'pending',
          lastError: message.slice(0, 1000),
          nextAttemptAt: timedOut
            ? sql`greatest((${retryAt instanceof Date ? retryAt.toISOString() : retryAt})::timestamptz, ${leaseEnd.toISOString()}::timestamptz)`
            : retryAt,
        })
        .where(ours)
      if (last) {
        this.opts.log?.error({ jobId: job.id, err }, 'mail job failed for good')
        return 'failed'
      }
      this.opts.log?.warn({ jobId: job.id, attempts: job.attempts, err }, 'mail job will be retried')
      return 'retrying'
    }
    const marked = await this.recordSent(job, ours)
    if (!marked) {
      // Cannot happen while sends end before their lease; logged loudly if it ever does.
      this.opts.log?.error({ jobId: job.id }, 'mail job sent after its claim ran out')
    }
    return 'sent'
  }

  /**
   * Records a send the SMTP server accepted. A database away for a moment (a restart) is asked
   * again, with back-off, while the claim's lease lasts: giving up at once would let the lease
   * run out and the message go out a second time (found by the fault load test). Only a worker
   * that dies in that window leaves it to be sent again (ADR 0186).
   */
  private async recordSent(job: MailJobRow, ours: SQL | undefined): Promise<boolean> {
    const leaseEnd = job.nextAttemptAt.getTime() - RECORD_MARGIN_MS
    for (let wait = 250; ; wait = Math.min(wait * 2, 5_000)) {
      try {
        const marked = await this.db
          .update(mailJobs)
          .set({ status: 'sent', sentAt: this.clock(), lastError: null })
          .where(ours)
          .returning({ id: mailJobs.id })
        return marked.length > 0
      } catch (err) {
        if (Date.now() + wait >= leaseEnd) throw err
        this.opts.log?.warn({ jobId: job.id, err }, 'mail job sent; recording it failed, asking again')
        await new Promise((resolve) => setTimeout(resolve, wait))
      }
    }
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

  /** Sends what is due, including anything queued before this call (after the batch under way). */
  async flush(): Promise<RunResult> {
    await this.running?.catch(() => {})
    return this.kick()
  }

  /** Takes no further message and waits for the send under way (the app's close). */
  async stop(): Promise<void> {
    this.stopping = true
    await this.running?.catch(() => {})
  }
}

/**
 * Runs `work` with a signal that aborts after `ms`; rejects then even if `work` ignores the
 * signal (the SMTP mailer honours it and closes its connection).
 */
async function withDeadline(ms: number, work: (signal: AbortSignal) => Promise<void>): Promise<void> {
  const controller = new AbortController()
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const err = new Error(`send timed out after ${ms} ms; its outcome is unknown`)
      reject(err) // first, so the race fails even if the work ends on the abort
      controller.abort(err)
    }, ms)
  })
  try {
    await Promise.race([work(controller.signal), timeout])
  } finally {
    clearTimeout(timer)
  }
}
