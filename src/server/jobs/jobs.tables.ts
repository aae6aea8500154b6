/**
 * The in-process driver's job table (`queue.local.ts`, the embedded database). On PostgreSQL
 * pg-boss keeps its own tables in the `pgboss` schema; this one then stays empty.
 */
import { sql } from 'drizzle-orm'
import { index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'

export const queueJobs = pgTable(
  'queue_jobs',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    payload: jsonb('payload').$type<unknown>(),
    /**
     * Per name and key, at most one job queued and one active (as pg-boss's `stately` policy):
     * an enqueue while one runs waits behind it, so work asked for mid-run is never dropped
     */
    key: text('key'),
    /** queued → active → done; back to queued for a retry; failed after the last one */
    state: text('state', { enum: ['queued', 'active', 'done', 'failed'] })
      .notNull()
      .default('queued'),
    attempts: integer('attempts').notNull().default(0),
    runAt: timestamp('run_at', { withTimezone: true }).notNull().defaultNow(),
    /** While active: the end of the lease; a job past it is claimed again (its worker died) */
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    /** Fresh per claim: only the claim's owner records the outcome */
    claimToken: text('claim_token'),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('queue_jobs_queued_key')
      .on(t.name, t.key)
      .where(sql`${t.state} = 'queued'`),
    uniqueIndex('queue_jobs_active_key')
      .on(t.name, t.key)
      .where(sql`${t.state} = 'active'`),
    index('queue_jobs_due').on(t.state, t.runAt),
  ],
)
