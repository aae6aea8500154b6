/**
 * Outbound webhooks put together for an app instance (ADR 0230): `app.webhooks` holds the
 * lifecycle's event sink (`recordWebhookEvent`), the deliverer and what the owner's API and CLI
 * need; `registerWebhookJobs` puts the delivery job on the queue.
 *
 * With two or more instances: every instance runs the job; a delivery job is keyed per endpoint
 * (one queued and one running per key on pg-boss, one live job per key on the in-process driver),
 * and the deliverer's own claim (the endpoint row's lock, a token and a lease per attempt) keeps
 * each endpoint's messages one at a time and in order whatever the queue does. The scheduled run
 * of the same job (the sweep, every 5 s, one at a time across instances) queues the endpoints
 * whose next delivery is due: retries on their schedule, leases that ran out after a crash, and a
 * message committed while its endpoint's run was ending.
 */
import type { FastifyInstance } from 'fastify'
import type { JobHandler, JobQueue, WorkOptions } from '../../jobs/queue.ts'
import { WebhookDeliverer } from './webhooks.delivery.ts'
import type { EndpointsDeps } from './webhooks.endpoints.ts'
import { urlPolicyFor } from './webhooks.sender.ts'
import { createWebhookEventSink, WEBHOOK_JOB, type WebhookEventSink } from './webhooks.outbox.ts'

export interface Webhooks {
  /** The order lifecycle's `OrderEventSink`: call it inside the change's transaction. */
  recordWebhookEvent: WebhookEventSink
  deliverer: WebhookDeliverer
  /** For the endpoint functions (`webhooks.endpoints.ts`) */
  deps: EndpointsDeps
}

declare module 'fastify' {
  interface FastifyInstance {
    webhooks: Webhooks
  }
}

/** How often the sweep looks for due deliveries (the first retry waits 5 s). */
export const WEBHOOK_SWEEP_EVERY_MS = 5_000

/** The webhooks of an app instance; reads `app.jobs` only when it sends or records. */
export function createWebhooks(app: FastifyInstance): Webhooks {
  const policy = urlPolicyFor(app.config.webhooks)
  const jobs = () => app.jobs
  const deliverer = new WebhookDeliverer(app.db, {
    jobs,
    // In production only https to public addresses; http to this machine in development and tests
    // (and in a production build under a browser test: WEBHOOKS_ALLOW_LOCAL_ENDPOINTS).
    publicOnly: !policy.allowLoopbackHttp,
    ownerAddress: async (siteId) => {
      const site = await app.sites.byId(siteId)
      return site ? site.settings.orderNotificationEmail || site.settings.contactEmail || null : null
    },
    log: app.log,
  })
  return {
    recordWebhookEvent: createWebhookEventSink({ jobs }),
    deliverer,
    deps: { jobs, urlPolicy: policy },
  }
}

/**
 * The delivery job's handler: payload `{endpointId}` sends that endpoint's due deliveries in
 * order; the scheduled run (no endpoint) is the sweep.
 */
export function webhookJob(deliverer: () => WebhookDeliverer): JobHandler {
  return async (payload) => {
    const endpointId = (payload as { endpointId?: unknown } | null)?.endpointId
    if (typeof endpointId === 'string') {
      const run = await deliverer().deliverEndpoint(
        endpointId,
        Date.now() + WEBHOOK_JOB_OPTIONS.timeoutMs - 5_000,
      )
      return run.delivered + run.failed
    }
    return deliverer().sweep()
  }
}

/** Retries are the deliveries' own (their schedule runs for days): the job itself is not retried. */
export const WEBHOOK_JOB_OPTIONS = { timeoutMs: 120_000, retryLimit: 0, concurrency: 4 } satisfies WorkOptions

/** The delivery job and its scheduled sweep, on the app's queue. */
export function registerWebhookJobs(app: FastifyInstance, jobs: JobQueue): void {
  jobs.work(
    WEBHOOK_JOB,
    webhookJob(() => app.webhooks.deliverer),
    WEBHOOK_JOB_OPTIONS,
  )
  jobs.schedule(WEBHOOK_JOB, { everyMs: WEBHOOK_SWEEP_EVERY_MS })
}
