/**
 * The jobs of the shop, registered in one place on the job queue (ADR 0185). Add a job here,
 * never from route registration. Each says how it behaves with two or more instances on one
 * PostgreSQL; the README's operations section repeats it.
 */
import type { FastifyInstance } from 'fastify'
import { registerAccountMailJobs } from '../modules/auth/account-mail.jobs.ts'
import { PostgresRateLimitCounter } from '../plugins/rate-limit-store.ts'
import { sweepExpiredSessions } from '../plugins/session.ts'
import { registerWebhookJobs } from '../modules/webhooks/webhooks.module.ts'
import { sweepIdempotencyKeys } from '../modules/admin/admin.idempotency.ts'
import type { JobQueue } from './queue.ts'
import { LocalJobQueue } from './queue.local.ts'
import { PgBossJobQueue } from './queue.pgboss.ts'

/** The queue of an app instance: pg-boss on PostgreSQL, the in-process driver otherwise. */
export function createJobQueue(app: FastifyInstance, connectionString: string | undefined): JobQueue {
  const { driver, pollMs } = app.config.jobs
  const usePgBoss =
    driver === 'pg-boss' || (driver === 'auto' && connectionString && app.config.env !== 'test')
  if (usePgBoss) {
    if (!connectionString) throw new Error('JOB_QUEUE=pg-boss needs DATABASE_URL')
    return new PgBossJobQueue({
      connectionString,
      pollingIntervalSeconds: Math.max(0.5, pollMs / 1000),
      log: app.log,
    })
  }
  return new LocalJobQueue(app.db, { pollMs, log: app.log })
}

/** Registers every job of an app instance on its queue (not yet started). */
export function registerJobs(app: FastifyInstance, jobs: JobQueue): JobQueue {
  // Baskets whose session has expired (a day's grace) and old share-link copies go, hourly.
  // Many instances: one run at a time across all of them (a scheduled job); the sweep also takes
  // its rows with FOR UPDATE SKIP LOCKED.
  const maxAge = app.config.session.ttlSeconds + 86_400
  jobs.work('basket-sweep', () => app.carts.sweep(maxAge), { timeoutMs: 300_000 })
  jobs.schedule('basket-sweep', { everyMs: 3600_000 })
  // Expired sessions in the database (with Redis, keys expire by themselves), hourly.
  // Many instances: one run at a time across all of them; a plain DELETE, safe to repeat.
  if (!app.config.redisUrl) {
    jobs.work('session-sweep', () => sweepExpiredSessions(app.db), { timeoutMs: 300_000 })
    jobs.schedule('session-sweep', { everyMs: 3600_000 })
  }
  // Back-office Idempotency-Keys past their 24 hours (ADR 0220), hourly. Many instances: one run
  // at a time across all of them; a plain DELETE of expired rows, safe to repeat.
  jobs.work('admin-idempotency-sweep', () => sweepIdempotencyKeys(app.db), { timeoutMs: 300_000 })
  jobs.schedule('admin-idempotency-sweep', { everyMs: 3600_000 })
  // Rate-limit counts whose window has ended (ADR 0176), every minute, when they are counted in
  // PostgreSQL. Many instances: one run at a time across all of them; a plain DELETE of expired
  // rows, safe to repeat.
  if (app.config.rateLimitStore === 'postgres') {
    const counts = new PostgresRateLimitCounter(app.db)
    jobs.work('rate-limit-sweep', () => counts.sweep(), { timeoutMs: 60_000 })
    jobs.schedule('rate-limit-sweep', { everyMs: 60_000 })
  }
  // Order and account e-mails (rows written in the transaction that causes them), sent one
  // message per claim (mail.queue.ts). Many instances: one run of this job at a time; any
  // instance's kick after a commit may run a batch beside it, which is safe: each message is
  // claimed on its own under a lease longer than its send's deadline, and a sent one is never
  // claimed again. The run's deadline exceeds a batch of sends (MailQueueWorker stops between
  // messages when it is told to).
  const mailEvery = app.config.mail.queueIntervalMs
  if (mailEvery > 0) {
    jobs.work(
      'mail-queue',
      async () => {
        const { sent, failed } = await app.mailQueue.kick()
        return sent + failed
      },
      { timeoutMs: 20 * app.config.mail.sendTimeoutMs + 60_000, retryLimit: 0 },
    )
    jobs.schedule('mail-queue', { everyMs: mailEvery })
  }
  // Account e-mails of register, resend verification and forgot password (ADR 0250): one job per
  // request, queued by the route a jittered moment ahead, whose run decides and queues the one
  // message. Many instances: any worker runs each job once (claim and lease); a run repeated
  // after its lease ran out finds its message queued and stops.
  registerAccountMailJobs(jobs, () => app.auth.deferred)
  // A site's full search rebuild when the index is shared by every instance (Algolia; ADR 0250):
  // each instance hears the same `catalog` change and queues it under the key `site:<id>`, so
  // the records are pushed once. Many instances: one run per site at a time across all of them;
  // Algolia's calls time out within 30 s, far inside the 5-minute deadline. The embedded index is
  // each process's own and is rebuilt by each instance (not a queue job).
  jobs.work(
    'search-reindex',
    async (payload) => {
      const siteId = (payload as { siteId?: unknown } | null)?.siteId
      if (!Number.isInteger(siteId)) throw new Error('search-reindex: payload without a site id')
      return app.searchService.rebuildSharedIndex(siteId as number)
    },
    { timeoutMs: 300_000, retryLimit: 2, retryDelayMs: 10_000 },
  )
  if (app.searchService.engine.kind !== 'embedded')
    app.searchService.queueSharedRebuildsWith(async (siteId) => {
      await jobs.enqueue(app.db, 'search-reindex', { siteId }, { key: `site:${siteId}` })
      jobs.wake()
    })
  // Payment attempts whose outcome is unknown or pending: the provider is asked (payments.md §7).
  // Many instances: one run at a time across all of them; reconcileDue also claims its rows with
  // FOR UPDATE SKIP LOCKED and a lease. A run takes at most RECONCILE_BATCH attempts so that
  // their provider calls (20 s time-out each) end well inside that lease and the job's deadline.
  jobs.work(
    'payments-reconcile',
    async () =>
      app.hasDecorator('payments') ? (await app.payments.reconcileDue(RECONCILE_BATCH, 120_000)).length : 0,
    { timeoutMs: 100_000, leaseMs: 150_000, retryLimit: 0 },
  )
  jobs.schedule('payments-reconcile', { everyMs: PAYMENTS_RECONCILE_EVERY_MS })
  // Outbound webhooks, one endpoint's messages at a time and in order (webhooks.module.ts).
  registerWebhookJobs(app, jobs)
  // Refunds of placed orders whose answer was lost or is still pending (ADR 0210): the provider is
  // asked, and a settled one tells the orders side in the same transaction. Many instances: one
  // run at a time across all of them; reconcileDue also claims its rows FOR UPDATE SKIP LOCKED
  // under a lease, so no two instances ask about one refund at once.
  jobs.work(
    'refund-reconcile',
    async () =>
      app.hasDecorator('refunds') ? (await app.refunds.reconcileDue(RECONCILE_BATCH, 120_000)).length : 0,
    { timeoutMs: 100_000, leaseMs: 150_000, retryLimit: 0 },
  )
  jobs.schedule('refund-reconcile', { everyMs: REFUND_RECONCILE_EVERY_MS })
  return jobs
}

/** How often the payment reconciler looks for due attempts. */
export const PAYMENTS_RECONCILE_EVERY_MS = 5_000
/** How often the refund reconciler looks for due refunds. */
export const REFUND_RECONCILE_EVERY_MS = 10_000
/** Attempts per reconciler run: 4 × a 20 s provider time-out stays below the 120 s row lease. */
export const RECONCILE_BATCH = 4
