/**
 * The jobs of the shop, registered in one place. Add a job here, never from route registration.
 */
import type { FastifyInstance } from 'fastify'
import { sweepExpiredSessions } from '../plugins/session.ts'
import { JobRunner } from './runner.ts'

/** Every job of an app instance (not yet started). */
export function createJobs(app: FastifyInstance): JobRunner {
  const jobs = new JobRunner(app.log)
  // Baskets whose session has expired (a day's grace) and old share-link copies go, hourly.
  // Safe on every instance: the sweep takes its rows with FOR UPDATE SKIP LOCKED.
  const maxAge = app.config.session.ttlSeconds + 86_400
  jobs.add({ name: 'basket-sweep', everyMs: 3600_000, runOnce: () => app.carts.sweep(maxAge) })
  // Expired sessions in the database (with Redis, keys expire by themselves), hourly.
  if (!app.config.redisUrl) {
    jobs.add({ name: 'session-sweep', everyMs: 3600_000, runOnce: () => sweepExpiredSessions(app.db) })
  }
  // Order e-mails queued in the order's transaction (SKIP LOCKED claims: safe on every instance).
  const mailEvery = app.config.mail.queueIntervalMs
  if (mailEvery > 0) {
    jobs.add({
      name: 'mail-queue',
      everyMs: mailEvery,
      firstRunMs: mailEvery,
      runOnce: async () => {
        const { sent, failed } = await app.mailQueue.kick()
        return sent + failed
      },
    })
  }
  // Payment attempts whose outcome is unknown or pending: the provider is asked (payments.md §7).
  // Safe on every instance: reconcileDue claims its rows with FOR UPDATE SKIP LOCKED and a lease.
  jobs.add({
    name: 'payments-reconcile',
    everyMs: PAYMENTS_RECONCILE_EVERY_MS,
    firstRunMs: PAYMENTS_RECONCILE_EVERY_MS,
    runOnce: async () => (app.hasDecorator('payments') ? (await app.payments.reconcileDue()).length : 0),
  })
  return jobs
}

/** How often the payment reconciler looks for due attempts (the first delay is 5 s). */
export const PAYMENTS_RECONCILE_EVERY_MS = 5_000
