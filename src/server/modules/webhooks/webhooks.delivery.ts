/**
 * Sending (ADR 0230). An endpoint's deliveries go out one at a time, oldest message first: a
 * worker claims the endpoint's oldest undelivered delivery under the endpoint's row lock, giving
 * it a fresh token and a lease longer than the request's time-out, sends it, and records the
 * outcome only while the token is still its own. While the lease lasts no worker on any instance
 * sends anything to that endpoint, so two instances never deliver one message at once, and a
 * later message never overtakes an earlier one. A worker that dies mid-send leaves the lease to
 * run out; the message is then sent again with the same `webhook-id` (the receiver dedupes).
 *
 * A failed attempt waits on the retry schedule and blocks the endpoint's later messages; after
 * the schedule (or MAX_FAILING_MS, or a 410 at once) the endpoint is disabled and reported: an
 * error log line, an e-mail to the site's owner address, and its reason in the endpoint's GET.
 */
import { randomUUID } from 'node:crypto'
import { and, asc, eq, inArray, sql } from 'drizzle-orm'
import type { Db, Executor } from '../../db/client.ts'
import type { JobQueue } from '../../jobs/queue.ts'
import { enqueueMail } from '../mail/mail.queue.ts'
import { endpointJobKey, WEBHOOK_JOB } from './webhooks.outbox.ts'
import {
  disableReason,
  isSuccess,
  MAX_FAILING_MS,
  RETRY_SCHEDULE_MS,
  retryDelayMs,
  UNDELIVERED,
} from './webhooks.policy.ts'
import { postWebhook, WebhookTimeoutError, type PostOptions, type PostResult } from './webhooks.sender.ts'
import { webhookHeaders } from './webhooks.signing.ts'
import {
  webhookDeliveries,
  webhookEndpoints,
  webhookMessages,
  type WebhookDeliveryRow,
  type WebhookEndpointRow,
} from './webhooks.tables.ts'

export interface DelivererOptions {
  jobs: () => Pick<JobQueue, 'enqueue' | 'wake'>
  /** Longest one request may take (ms); below `leaseMs` */
  requestTimeoutMs?: number
  /** How long a claimed delivery keeps the endpoint to itself (ms) */
  leaseMs?: number
  /** Connect only to public addresses (production) */
  publicOnly?: boolean
  /** The site's owner address for the disabled-endpoint e-mail, if it has one */
  ownerAddress?: (siteId: number) => Promise<string | null>
  schedule?: readonly number[]
  maxFailingMs?: number
  now?: () => Date
  random?: () => number
  /** The HTTP call (tests may wrap it) */
  post?: (o: PostOptions) => Promise<PostResult>
  log?: {
    warn(obj: object, msg: string): void
    error(obj: object, msg: string): void
    info(obj: object, msg: string): void
  }
}

export interface EndpointRun {
  delivered: number
  failed: number
  /** Why the run ended: nothing left, the next one is not due, another worker holds it, disabled, out of time */
  stopped: 'idle' | 'waiting' | 'busy' | 'disabled' | 'deadline'
}

/** The current secret, and the previous one while its overlap after a rotation lasts. */
function signingSecrets(endpoint: WebhookEndpointRow, at: Date): string[] {
  return endpoint.previousSecret && endpoint.previousSecretUntil && endpoint.previousSecretUntil > at
    ? [endpoint.secret, endpoint.previousSecret]
    : [endpoint.secret]
}

/** Messages (and their deliveries) are kept this long once nothing is owed, for the deliveries list. */
export const KEEP_MESSAGES_MS = 30 * 86_400_000
/** How often an instance's sweep also prunes. */
const PRUNE_EVERY_MS = 3_600_000

type Claim =
  | {
      kind: 'claimed'
      delivery: WebhookDeliveryRow
      endpoint: WebhookEndpointRow
      body: string
      token: string
    }
  | { kind: 'idle' | 'busy' | 'waiting' | 'disabled' }

export class WebhookDeliverer {
  readonly requestTimeoutMs: number
  readonly leaseMs: number
  private readonly schedule: readonly number[]
  private readonly now: () => Date
  private lastPruneAt = 0

  constructor(
    private readonly db: Db,
    private readonly opts: DelivererOptions,
  ) {
    this.requestTimeoutMs = opts.requestTimeoutMs ?? 15_000
    this.leaseMs = opts.leaseMs ?? this.requestTimeoutMs * 2 + 30_000
    if (this.requestTimeoutMs >= this.leaseMs)
      throw new Error('the webhook request time-out must be below the lease')
    this.schedule = opts.schedule ?? RETRY_SCHEDULE_MS
    this.now = opts.now ?? (() => new Date())
  }

  /**
   * Sends the endpoint's due deliveries in order until one fails, none is due, or less than a
   * request's time is left before `deadline` (ms since the epoch, real time).
   */
  async deliverEndpoint(
    endpointId: string,
    deadline = Date.now() + 10 * this.requestTimeoutMs,
  ): Promise<EndpointRun> {
    const run: EndpointRun = { delivered: 0, failed: 0, stopped: 'idle' }
    for (;;) {
      if (Date.now() + this.requestTimeoutMs + 1000 > deadline) {
        run.stopped = 'deadline'
        return run
      }
      const claim = await this.claim(endpointId)
      if (claim.kind !== 'claimed') {
        run.stopped = claim.kind
        return run
      }
      if (await this.attempt(claim)) run.delivered++
      else {
        run.failed++
        run.stopped = 'waiting'
        return run
      }
    }
  }

  /** The endpoint's oldest undelivered delivery, claimed if it is due and nobody holds it. */
  private async claim(endpointId: string): Promise<Claim> {
    const now = this.now()
    const token = randomUUID()
    return this.db.transaction(async (tx): Promise<Claim> => {
      // The endpoint's row lock: claims for one endpoint take turns, on every instance. FOR NO KEY
      // UPDATE, so an order transaction adding a delivery (its foreign key's share lock) is not
      // held up by a claim, nor a claim by it.
      const [endpoint] = await tx
        .select()
        .from(webhookEndpoints)
        .where(eq(webhookEndpoints.id, endpointId))
        .for('no key update')
      if (!endpoint || !endpoint.enabled) return { kind: 'disabled' }
      const [head] = await tx
        .select({ delivery: webhookDeliveries, body: webhookMessages.body })
        .from(webhookDeliveries)
        .innerJoin(webhookMessages, eq(webhookMessages.id, webhookDeliveries.messageId))
        .where(
          and(eq(webhookDeliveries.endpointId, endpointId), inArray(webhookDeliveries.status, UNDELIVERED)),
        )
        .orderBy(asc(webhookDeliveries.messageSeq), asc(webhookDeliveries.id))
        .limit(1)
      if (!head) return { kind: 'idle' }
      if (head.delivery.lockedUntil && head.delivery.lockedUntil > now) return { kind: 'busy' }
      if (head.delivery.nextAttemptAt > now) return { kind: 'waiting' }
      const [delivery] = await tx
        .update(webhookDeliveries)
        .set({
          attempts: sql`${webhookDeliveries.attempts} + 1`,
          claimToken: token,
          lockedUntil: new Date(now.getTime() + this.leaseMs),
          lastAttemptAt: now,
        })
        .where(eq(webhookDeliveries.id, head.delivery.id))
        .returning()
      return { kind: 'claimed', delivery: delivery!, endpoint, body: head.body, token }
    })
  }

  /** One attempt of a claimed delivery; true when the endpoint took it. */
  private async attempt(c: Extract<Claim, { kind: 'claimed' }>): Promise<boolean> {
    const { delivery, endpoint, body, token } = c
    const attemptAt = this.now()
    let result: PostResult | null = null
    let error: string | null = null
    let timedOut = false
    try {
      result = await (this.opts.post ?? postWebhook)({
        url: endpoint.url,
        headers: webhookHeaders(signingSecrets(endpoint, attemptAt), delivery.messageId, attemptAt, body),
        body,
        timeoutMs: this.requestTimeoutMs,
        publicOnly: this.opts.publicOnly ?? true,
      })
    } catch (err) {
      error = err instanceof Error ? err.message : String(err)
      timedOut = err instanceof WebhookTimeoutError
    }
    const ours = and(
      eq(webhookDeliveries.id, delivery.id),
      eq(webhookDeliveries.claimToken, token),
      inArray(webhookDeliveries.status, UNDELIVERED),
    )
    if (result && isSuccess(result.statusCode)) {
      const marked = await this.db.transaction(async (tx) => {
        const rows = await tx
          .update(webhookDeliveries)
          .set({
            status: 'delivered',
            deliveredAt: this.now(),
            lockedUntil: null,
            lastStatusCode: result.statusCode,
            lastError: null,
          })
          .where(ours)
          .returning({ id: webhookDeliveries.id })
        await tx
          .update(webhookEndpoints)
          .set({ failingSince: null, consecutiveFailures: 0 })
          .where(eq(webhookEndpoints.id, endpoint.id))
        return rows.length > 0
      })
      if (!marked)
        this.opts.log?.error(
          { deliveryId: delivery.id },
          'webhook delivered but not recorded: its claim ran out or its endpoint was removed',
        )
      return true
    }
    const statusCode = result?.statusCode ?? null
    const message = (error ?? `HTTP ${statusCode}${result?.snippet ? `: ${result.snippet}` : ''}`).slice(
      0,
      1000,
    )
    await this.recordFailure(delivery, endpoint, ours, statusCode, message, timedOut)
    return false
  }

  private async recordFailure(
    delivery: WebhookDeliveryRow,
    endpoint: WebhookEndpointRow,
    ours: ReturnType<typeof and>,
    statusCode: number | null,
    message: string,
    timedOut: boolean,
  ): Promise<void> {
    const now = this.now()
    const reported = await this.db.transaction(async (tx) => {
      const [ep] = await tx
        .select()
        .from(webhookEndpoints)
        .where(eq(webhookEndpoints.id, endpoint.id))
        .for('no key update')
      if (!ep) return null
      const consecutiveFailures = ep.consecutiveFailures + 1
      const failingSince = ep.failingSince ?? now
      const wait = retryDelayMs(consecutiveFailures, this.schedule, this.opts.random)
      // A request that timed out may still be at work in the receiver: its lease is kept to the end.
      const leaseEnd = timedOut ? (delivery.lockedUntil?.getTime() ?? 0) : 0
      const retryAt = new Date(Math.max(now.getTime() + wait, leaseEnd))
      const rows = await tx
        .update(webhookDeliveries)
        .set({
          status: 'failed',
          nextAttemptAt: retryAt,
          lockedUntil: null,
          lastStatusCode: statusCode,
          lastError: message,
        })
        .where(ours)
        .returning({ id: webhookDeliveries.id })
      if (rows.length === 0) return null
      const reason = disableReason(
        { consecutiveFailures, failingSince, now, statusCode },
        this.schedule,
        this.opts.maxFailingMs ?? MAX_FAILING_MS,
      )
      await tx
        .update(webhookEndpoints)
        .set({
          consecutiveFailures,
          failingSince,
          ...(reason ? { enabled: false, disabledAt: now, disabledReason: reason, updatedAt: now } : {}),
        })
        .where(eq(webhookEndpoints.id, ep.id))
      if (!reason) return null
      await this.queueOwnerMail(tx, ep, reason, message, now)
      return reason
    })
    if (reported) {
      this.opts.log?.error(
        {
          endpointId: endpoint.id,
          siteId: endpoint.siteId,
          url: endpoint.url,
          reason: reported,
          lastError: message,
        },
        'webhook endpoint disabled: it keeps failing',
      )
    } else {
      this.opts.log?.warn(
        { endpointId: endpoint.id, deliveryId: delivery.id, error: message },
        'webhook delivery failed; will retry',
      )
    }
  }

  private async queueOwnerMail(
    tx: Executor,
    ep: WebhookEndpointRow,
    reason: string,
    lastError: string,
    now: Date,
  ): Promise<void> {
    const to = await this.opts.ownerAddress?.(ep.siteId)
    if (!to) return
    await enqueueMail(tx, [
      {
        dedupeKey: `webhook-disabled:${ep.id}:${now.getTime()}`,
        message: {
          to: [to],
          subject: `Webhook endpoint disabled: ${ep.url}`,
          text: [
            `The shop stopped sending webhooks to ${ep.url} (endpoint ${ep.id}).`,
            '',
            reason,
            `Last error: ${lastError}`,
            '',
            'Messages not yet delivered are kept. Once the receiver works again, enable the endpoint',
            `(npm run admin -- webhooks enable ${ep.id}, or PATCH /api/admin/v1/webhook-endpoints/${ep.id}`,
            'with {"enabled": true}) and they are sent from the oldest one, in order.',
          ].join('\n'),
        },
      },
    ])
  }

  /**
   * Queues the delivery job of every enabled endpoint whose oldest undelivered delivery is due
   * (a retry whose time has come, a lease that ran out, a message queued while a run was ending).
   */
  async sweep(limit = 200): Promise<number> {
    const now = this.now().toISOString()
    const result = await this.db.execute<{ endpoint_id: string }>(sql`
      select endpoint_id from (
        select distinct on (d.endpoint_id) d.endpoint_id, d.next_attempt_at, d.locked_until
        from ${webhookDeliveries} d join ${webhookEndpoints} e on e.id = d.endpoint_id
        where e.enabled and d.status in ('pending', 'failed')
        order by d.endpoint_id, d.message_seq, d.id
      ) head
      where head.next_attempt_at <= ${now}::timestamptz
        and (head.locked_until is null or head.locked_until <= ${now}::timestamptz)
      limit ${limit}`)
    const due = (result as unknown as { rows: { endpoint_id: string }[] }).rows
    const jobs = this.opts.jobs()
    if (Date.now() - this.lastPruneAt > PRUNE_EVERY_MS) {
      this.lastPruneAt = Date.now()
      await this.prune().catch((err: unknown) => this.opts.log?.warn({ err }, 'webhook prune failed'))
    }
    for (const { endpoint_id: endpointId } of due) {
      await jobs.enqueue(this.db, WEBHOOK_JOB, { endpointId }, { key: endpointJobKey(endpointId) })
    }
    if (due.length) jobs.wake()
    return due.length
  }

  /**
   * Deletes messages older than `KEEP_MESSAGES_MS` that nobody is owed any more (every delivery
   * delivered or abandoned, or none), a batch at a time; their deliveries go with them. Safe on
   * any number of instances at once: a plain DELETE of rows no worker will touch again.
   */
  async prune(batch = 1000): Promise<number> {
    const before = new Date(this.now().getTime() - KEEP_MESSAGES_MS).toISOString()
    const result = await this.db.execute(sql`
      delete from ${webhookMessages} where id in (
        select m.id from ${webhookMessages} m
        where m.created_at < ${before}::timestamptz
          and not exists (
            select 1 from ${webhookDeliveries} d
            where d.message_id = m.id and d.status in ('pending', 'failed'))
        limit ${batch})`)
    return (
      (result as unknown as { rowCount?: number; affectedRows?: number }).rowCount ??
      (result as unknown as { affectedRows?: number }).affectedRows ??
      0
    )
  }
}
