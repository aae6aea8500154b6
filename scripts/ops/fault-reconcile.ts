/**
 * After the faults: what the database and the SMTP stand-in hold, against what the shop
 * acknowledged. Read with SQL only (table and column names, no application code), so the checks
 * survive the application's reshaping; a table another branch may replace (the mail queue's
 * `mail_jobs`, a pg-boss or graphile-worker schema) is looked for before it is read.
 *
 * - every order answered 2xx is in the database exactly once; no basket became two orders;
 *   no more orders than requests that could have placed one;
 * - every order has its e-mails queued, and each queued e-mail arrived exactly once (matched by
 *   recipient and subject; a Message-ID seen twice is a duplicate too);
 * - nothing stuck: no mail job still due after the wait, none failed for good; no payment
 *   attempt unsettled past its reconcile time (plus the reconciler's lease), none left `created`
 *   after a provider call began, no paid attempt without an order past its grace period.
 */
import type pg from 'pg'
import type { AckedOrder } from './fault-traffic.ts'
import type { ReceivedMail } from './smtp-stand-in.ts'

export interface Reconciliation {
  orders: {
    acknowledged: number
    unanswered: number
    inDatabase: number
    lost: number[]
    acknowledgedTwice: number
    basketsOrderedTwice: number
    beyondRequests: number
  }
  mail: {
    queueTable: boolean
    jobs: number
    jobsSent: number
    /** Jobs claimed more than once (a send that failed, or a lease that ran out) */
    jobsClaimedAgain: number
    received: number
    ordersWithoutMail: number[]
    /** Queued messages that never arrived (recipient · subject) */
    missing: string[]
    /** Messages that arrived more than once (recipient · subject × n at …, same Message-ID or not) */
    duplicated: string[]
    duplicateMessageIds: number
    /** Arrived without a queued job behind them (e.g. account e-mails) */
    unmatched: number
    drainedAfterMs: number | null
  }
  stuck: {
    mailJobsDue: number
    mailJobsFailed: number
    attemptsUnsettledOverdue: number
    attemptsCreatedAfterCall: number
    attemptsPaidWithoutOrder: number
    /** Paid, no order yet, still within the grace period (reported, not failed on) */
    attemptsPaidAwaitingOrder: number
    attemptStates: Record<string, number>
    otherQueues: Record<string, number>
  }
  failures: string[]
}

async function exists(db: pg.Client, table: string): Promise<boolean> {
  const { rows } = await db.query<{ t: string | null }>('select to_regclass($1)::text as t', [table])
  return rows[0]?.t != null
}

/** Pending mail jobs (none when the table is gone). */
export async function pendingMail(db: pg.Client): Promise<number> {
  if (!(await exists(db, 'public.mail_jobs'))) return 0
  const { rows } = await db.query<{ n: string }>(
    `select count(*) as n from mail_jobs where status = 'pending'`,
  )
  return Number(rows[0]!.n)
}

const key = (to: string, subject: string) => `${to.toLowerCase()} · ${subject}`

export async function reconcile(
  db: pg.Client,
  input: {
    acked: AckedOrder[]
    unanswered: number
    received: ReceivedMail[]
    /** Orders placed by this run: their contact e-mails end with this */
    emailSuffix: string
    drainedAfterMs: number | null
    /** When the traffic started (epoch ms): arrival times are given from it */
    startedAt: number
  },
): Promise<Reconciliation> {
  const failures: string[] = []
  // Orders of this run (their guests' addresses), whichever instance placed them.
  const placed = await db.query<{ id: number; order_number: string; cart_ref: string }>(
    `select id, order_number, cart_ref from orders where contact->>'email' like $1`,
    [`%${input.emailSuffix}`],
  )
  const numbers = new Map<number, number>()
  for (const r of placed.rows)
    numbers.set(Number(r.order_number), (numbers.get(Number(r.order_number)) ?? 0) + 1)
  const ackedNumbers = input.acked.map((o) => o.orderNumber)
  const lost = ackedNumbers.filter((n) => !numbers.has(n))
  const acknowledgedTwice = ackedNumbers.length - new Set(ackedNumbers).size
  const perCart = new Map<string, number>()
  for (const r of placed.rows) perCart.set(r.cart_ref, (perCart.get(r.cart_ref) ?? 0) + 1)
  const basketsOrderedTwice = [...perCart.values()].filter((c) => c > 1).length
  const beyondRequests = Math.max(0, placed.rows.length - input.acked.length - input.unanswered)
  if (lost.length) failures.push(`${lost.length} acknowledged orders are not in the database`)
  if (acknowledgedTwice) failures.push(`${acknowledgedTwice} order numbers acknowledged twice`)
  if (basketsOrderedTwice) failures.push(`${basketsOrderedTwice} baskets became two orders`)
  if (beyondRequests) failures.push(`${beyondRequests} more orders than requests that could place one`)
  const dup = [...numbers.values()].filter((c) => c > 1).length
  if (dup) failures.push(`${dup} order numbers twice in the database`)

  // E-mails: what was queued for these orders against what arrived.
  const queueTable = await exists(db, 'public.mail_jobs')
  const arrived = new Map<string, ReceivedMail[]>()
  for (const m of input.received) {
    for (const to of m.recipients) {
      const list = arrived.get(key(to, m.subject))
      if (list) list.push(m)
      else arrived.set(key(to, m.subject), [m])
    }
  }
  // When each copy came (seconds from the start of the traffic) and whether a receiver could
  // tell the copies are one message (the same Message-ID).
  const copies = (list: ReceivedMail[]) =>
    `× ${list.length} at ${list.map((m) => `${((m.at - input.startedAt) / 1000).toFixed(1)} s`).join(', ')}, ${
      new Set(list.map((m) => m.messageId)).size === 1 ? 'the same Message-ID' : 'different Message-IDs'
    }`
  const byId = new Map<string, number>()
  for (const m of input.received) if (m.messageId) byId.set(m.messageId, (byId.get(m.messageId) ?? 0) + 1)
  const duplicateMessageIds = [...byId.values()].filter((c) => c > 1).length
  const missing: string[] = []
  const duplicated: string[] = []
  const ordersWithoutMail: number[] = []
  const expected = new Set<string>()
  let jobs = 0
  let jobsSent = 0
  let jobsClaimedAgain = 0
  if (queueTable) {
    const { rows } = await db.query<{
      dedupe_key: string
      status: string
      to: string[]
      subject: string
      attempts: number
    }>(
      `select dedupe_key, status, message->'to' as to, message->>'subject' as subject, attempts from mail_jobs
       where dedupe_key like 'order:%'`,
    )
    const ids = new Set(placed.rows.map((r) => String(r.id)))
    const mine = rows.filter((r) => ids.has(r.dedupe_key.split(':')[1] ?? ''))
    jobs = mine.length
    jobsSent = mine.filter((r) => r.status === 'sent').length
    jobsClaimedAgain = mine.filter((r) => Number(r.attempts) > 1).length
    const withMail = new Set(mine.map((r) => r.dedupe_key.split(':')[1]))
    for (const r of placed.rows)
      if (!withMail.has(String(r.id))) ordersWithoutMail.push(Number(r.order_number))
    for (const job of mine) {
      for (const to of job.to) {
        const k = key(to, job.subject)
        expected.add(k)
        const list = arrived.get(k) ?? []
        if (list.length === 0) missing.push(k)
        else if (list.length > 1) duplicated.push(`${k} ${copies(list)}`)
      }
    }
  } else {
    // No mail_jobs table (the queue moved): every order's acknowledgement, by its subject.
    for (const r of placed.rows) {
      const list = input.received.filter((m) => m.subject.endsWith(`order acknowledgement ${r.order_number}`))
      if (list.length === 0) missing.push(`acknowledgement of order ${r.order_number}`)
      if (list.length > 1) duplicated.push(`acknowledgement of order ${r.order_number} ${copies(list)}`)
      expected.add(`ack ${r.order_number}`)
    }
  }
  const unmatched = queueTable
    ? input.received.filter((m) => !m.recipients.some((to) => expected.has(key(to, m.subject)))).length
    : 0
  if (ordersWithoutMail.length) failures.push(`${ordersWithoutMail.length} orders without queued e-mails`)
  if (missing.length) failures.push(`${missing.length} queued e-mails never arrived`)
  if (duplicated.length) failures.push(`${duplicated.length} e-mails arrived more than once`)
  if (duplicateMessageIds) failures.push(`${duplicateMessageIds} Message-IDs arrived more than once`)

  // Stuck work.
  let mailJobsDue = 0
  let mailJobsFailed = 0
  if (queueTable) {
    const { rows } = await db.query<{ due: string; failed: string }>(
      `select count(*) filter (where status = 'pending' and next_attempt_at < now()) as due,
              count(*) filter (where status = 'failed') as failed from mail_jobs`,
    )
    mailJobsDue = Number(rows[0]!.due)
    mailJobsFailed = Number(rows[0]!.failed)
  }
  const states = await db.query<{ state: string; n: string }>(
    `select state, count(*) as n from payment_attempts group by state order by state`,
  )
  const attemptStates = Object.fromEntries(states.rows.map((r) => [r.state, Number(r.n)]))
  // Unsettled (the provider may still finish it) with no reconcile time, or one past by more
  // than the reconciler's lease (120 s) plus a pass (5 s): nobody is going to ask the provider.
  const overdue = await db.query<{ n: string }>(
    `select count(*) as n from payment_attempts where state in ('requires_action', 'pending', 'unknown')
       and (reconcile_after is null or reconcile_after < now() - interval '125 seconds')`,
  )
  // A provider call began (last_operation set) but no outcome was ever recorded, a minute on:
  // the money may have been taken and no reconcile time is set.
  const createdAfterCall = await db.query<{ n: string }>(
    `select count(*) as n from payment_attempts where state = 'created' and last_operation is not null
       and updated_at < now() - interval '60 seconds'`,
  )
  // Paid, no order claims it, and past the ten-minute grace period and a lease.
  const paidWithoutOrder = await db.query<{ n: string }>(
    `select count(*) as n from payment_attempts a where a.state in ('authorised', 'captured')
       and a.resolution is null and not exists (select 1 from orders o where o.payment_attempt_id = a.id)
       and a.updated_at < now() - interval '12 minutes'`,
  )
  // The same within its grace period: not stuck yet, but money taken with no order so far.
  const paidAwaiting = await db.query<{ n: string }>(
    `select count(*) as n from payment_attempts a where a.state in ('authorised', 'captured')
       and a.resolution is null and not exists (select 1 from orders o where o.payment_attempt_id = a.id)`,
  )
  const stuck = {
    mailJobsDue,
    mailJobsFailed,
    attemptsUnsettledOverdue: Number(overdue.rows[0]!.n),
    attemptsCreatedAfterCall: Number(createdAfterCall.rows[0]!.n),
    attemptsPaidWithoutOrder: Number(paidWithoutOrder.rows[0]!.n),
    attemptsPaidAwaitingOrder: Number(paidAwaiting.rows[0]!.n),
    attemptStates,
    otherQueues: await otherQueues(db),
  }
  if (stuck.mailJobsDue) failures.push(`${stuck.mailJobsDue} mail jobs still due after the wait`)
  if (stuck.mailJobsFailed) failures.push(`${stuck.mailJobsFailed} mail jobs failed for good`)
  if (stuck.attemptsUnsettledOverdue)
    failures.push(`${stuck.attemptsUnsettledOverdue} payment attempts unsettled past their reconcile time`)
  if (stuck.attemptsCreatedAfterCall)
    failures.push(
      `${stuck.attemptsCreatedAfterCall} payment attempts left 'created' after a provider call began`,
    )
  if (stuck.attemptsPaidWithoutOrder)
    failures.push(`${stuck.attemptsPaidWithoutOrder} paid attempts without an order past the grace period`)
  for (const [name, n] of Object.entries(stuck.otherQueues)) if (n) failures.push(`${n} ${name}`)

  return {
    orders: {
      acknowledged: input.acked.length,
      unanswered: input.unanswered,
      inDatabase: placed.rows.length,
      lost,
      acknowledgedTwice,
      basketsOrderedTwice,
      beyondRequests,
    },
    mail: {
      queueTable,
      jobs,
      jobsSent,
      jobsClaimedAgain,
      received: input.received.length,
      ordersWithoutMail,
      missing,
      duplicated,
      duplicateMessageIds,
      unmatched,
      drainedAfterMs: input.drainedAfterMs,
    },
    stuck,
    failures,
  }
}

/**
 * Jobs of a PostgreSQL job queue, if the shop has one by now: pg-boss (`pgboss.job`) or
 * graphile-worker (`graphile_worker.jobs`), counted when due more than two minutes ago and still
 * not done, or failed for good.
 */
async function otherQueues(db: pg.Client): Promise<Record<string, number>> {
  const out: Record<string, number> = {}
  if (await exists(db, 'pgboss.job')) {
    const { rows } = await db.query<{ due: string; failed: string }>(
      `select count(*) filter (where state in ('created', 'retry', 'active') and start_after < now() - interval '2 minutes') as due,
              count(*) filter (where state = 'failed') as failed from pgboss.job`,
    )
    out['pg-boss jobs overdue'] = Number(rows[0]!.due)
    out['pg-boss jobs failed'] = Number(rows[0]!.failed)
  }
  if (await exists(db, 'graphile_worker.jobs')) {
    const { rows } = await db.query<{ due: string; failed: string }>(
      `select count(*) filter (where attempts < max_attempts and run_at < now() - interval '2 minutes') as due,
              count(*) filter (where attempts >= max_attempts) as failed from graphile_worker.jobs`,
    )
    out['graphile-worker jobs overdue'] = Number(rows[0]!.due)
    out['graphile-worker jobs failed'] = Number(rows[0]!.failed)
  }
  return out
}
