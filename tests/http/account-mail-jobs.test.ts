/**
 * Account e-mails as durable jobs (ADR 0250) against a real database, on the in-process driver
 * everywhere and on pg-boss with PostgreSQL: a job queued before a crash runs once after the
 * restart, a job run twice sends one message, a burst for one address collapses, and nothing
 * secret waits in the queue.
 */
import { and, eq, like, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { customers, mailJobs, passwordResetTokens, queueJobs } from '../../src/server/db/schema.ts'
import type { JobQueue } from '../../src/server/jobs/queue.ts'
import { LocalJobQueue } from '../../src/server/jobs/queue.local.ts'
import { PgBossJobQueue } from '../../src/server/jobs/queue.pgboss.ts'
import {
  ACCOUNT_MAIL_JOBS,
  AccountMailJobs,
  registerAccountMailJobs,
} from '../../src/server/modules/auth/account-mail.jobs.ts'
import { hashPassword, SecretBox } from '../../src/server/modules/auth/auth.crypto.ts'
import { AuthService } from '../../src/server/modules/auth/auth.service.ts'
import { enqueueMail } from '../../src/server/modules/mail/mail.queue.ts'
import { keepRegistrationDetails } from '../../src/server/modules/customers/registration.ts'
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts'

const KNOWN = 'demo@harbour-safety.example'
const SECRET = 'a-test-secret-that-is-long-enough-for-the-box'
const brand = { siteName: 'Harbour Safety Supplies', baseUrl: 'http://localhost' }
const details = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  kind: 'standard' as const,
  company: null,
  phone: null,
  address1: null,
  town: null,
  postcode: null,
}

let tdb: TestDatabase
let siteId: number
beforeAll(async () => {
  tdb = await createTestDatabase()
  const [row] = await tdb.database.db.select().from(customers).where(eq(customers.email, KNOWN))
  siteId = row!.siteId
})
afterAll(() => tdb?.dispose())

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** The account-mail side of one app instance on `queue`, with the app's keyed mail queue. */
function instance(queue: JobQueue, delayMs = 0) {
  const db = tdb.database.db
  const mail = new AccountMailJobs({
    db,
    jobs: queue,
    service: new AuthService(db, SECRET, keepRegistrationDetails),
    box: new SecretBox(`${SECRET}:account-mail`),
    send: (m, key) => enqueueMail(db, [{ dedupeKey: `account:${key}`, message: { ...m, to: [m.to] } }]),
    mailQueued: async (key) =>
      (
        await db
          .select()
          .from(mailJobs)
          .where(eq(mailJobs.dedupeKey, `account:${key}`))
      ).length > 0,
    delayMs: () => delayMs,
  })
  registerAccountMailJobs(queue, () => mail)
  return mail
}

const mailsTo = async (to: string) =>
  (await tdb.database.db.select().from(mailJobs).where(like(mailJobs.dedupeKey, 'account:%'))).filter((r) =>
    (r.message as { to: string[] }).to.includes(to),
  )

type Make = () => JobQueue
const drivers: [string, Make, boolean][] = [
  ['the in-process driver', () => new LocalJobQueue(tdb.database.db, { pollMs: 50 }), true],
  [
    'the pg-boss driver',
    () =>
      new PgBossJobQueue({ connectionString: tdb.database.connectionString!, pollingIntervalSeconds: 0.5 }),
    !!process.env.DATABASE_URL,
  ],
]

describe.each(drivers)('account-mail jobs on %s', (label, make, enabled) => {
  const queues: JobQueue[] = []
  const open = () => {
    const q = make()
    queues.push(q)
    return q
  }
  afterAll(async () => {
    for (const q of queues) await q.stop()
  })

  it.runIf(enabled)(
    'send the mail of a job queued before a crash once, from a queue started after it',
    async () => {
      const to = `crash-${label.length}@example.com`
      const service = new AuthService(tdb.database.db, SECRET, keepRegistrationDetails)
      await service.registerHashed(siteId, { ...details, email: to, passwordHash: await hashPassword('x') })

      // The answering instance queues the job and dies before any worker runs it.
      const before = open()
      const answering = instance(before, 60_000)
      await before.start()
      await answering.forgotPassword(siteId, brand, to)
      await before.stop()
      expect(await mailsTo(to)).toHaveLength(0)

      // A fresh queue on the same database; its job is due now.
      await tdb.database.db.execute(
        sql`update queue_jobs set run_at = now() where name = 'account-mail-reset'`,
      )
      if (label.includes('pg-boss'))
        await tdb.database.db.execute(
          sql`update pgboss.job set start_after = now() where name = 'account-mail-reset'`,
        )
      const after = open()
      instance(after)
      await after.start()
      after.wake()
      await expect.poll(async () => (await mailsTo(to)).length, { timeout: 15_000 }).toBe(1)
      await sleep(1200)
      expect(await mailsTo(to)).toHaveLength(1)
      expect((await mailsTo(to))[0]!.message).toMatchObject({ subject: expect.stringContaining('Reset') })
    },
    30_000,
  )
})

describe('account-mail jobs', () => {
  it('send one message and keep the first link working when a job runs twice', async () => {
    const to = 'twice@example.com'
    const db = tdb.database.db
    const service = new AuthService(db, SECRET, keepRegistrationDetails)
    const customer = (
      await service.registerHashed(siteId, { ...details, email: to, passwordHash: await hashPassword('x') })
    ).customer!
    const mail = instance(new LocalJobQueue(db))
    const payload = { id: crypto.randomUUID(), key: `reset:${siteId}:${to}`, siteId, email: to, brand }
    await mail.run('reset', payload)
    // The lease ran out while the first run was finishing: the queue runs the same job again.
    await mail.run('reset', payload)
    const sent = await mailsTo(to)
    expect(sent).toHaveLength(1)
    const tokens = await db
      .select()
      .from(passwordResetTokens)
      .where(eq(passwordResetTokens.customerId, customer.id))
    expect(tokens).toHaveLength(1)
    const token = /token=([^&"\s]+)/.exec((sent[0]!.message as { text: string }).text)![1]!
    expect(await service.resetPassword(siteId, to, decodeURIComponent(token), 'New-pass-4242')).not.toBeNull()
  })

  it('send the verification, not "already registered", when a repeated registration job finds its own account', async () => {
    const to = 'half-done@example.com'
    const db = tdb.database.db
    const queue = new LocalJobQueue(db)
    const mail = instance(queue)
    await mail.register(siteId, brand, to, await hashPassword('Sturdy-pass-42'), details)
    const [job] = await db.select().from(queueJobs).where(eq(queueJobs.name, ACCOUNT_MAIL_JOBS.register))
    const payload = job!.payload as { sealedHash: string }
    // An earlier run created the account and stopped before its message.
    const service = new AuthService(db, SECRET, keepRegistrationDetails)
    const hash = new SecretBox(`${SECRET}:account-mail`).open(payload.sealedHash)!
    await service.registerHashed(siteId, { ...details, email: to, passwordHash: hash })
    await mail.run('register', job!.payload)
    const sent = await mailsTo(to)
    expect(sent.map((m) => (m.message as { subject: string }).subject)).toEqual([
      expect.stringContaining('Verify your email address'),
    ])
  })

  it('collapse a burst for one address into one job, and keep no password or token in the queue', async () => {
    const db = tdb.database.db
    const mail = instance(new LocalJobQueue(db), 60_000)
    for (let i = 0; i < 3; i++) await mail.forgotPassword(siteId, brand, 'Burst@Example.com')
    await mail.forgotPassword(siteId, brand, 'other@example.com')
    await mail.register(siteId, brand, 'secret@example.com', await hashPassword('Sturdy-pass-42'), details)
    const rows = (
      await db
        .select()
        .from(queueJobs)
        .where(and(like(queueJobs.name, 'account-mail-%'), eq(queueJobs.state, 'queued')))
    ).filter((r) => /burst|other|secret/.test(r.key ?? ''))
    const resets = rows.filter((r) => r.name === ACCOUNT_MAIL_JOBS.reset)
    expect(rows).toHaveLength(3)
    expect(resets.map((r) => r.key).sort()).toEqual([
      `reset:${siteId}:burst@example.com`,
      `reset:${siteId}:other@example.com`,
    ])
    const text = JSON.stringify(rows.map((r) => r.payload))
    expect(text).not.toContain('Sturdy-pass-42')
    expect(text).not.toContain('$argon2')
    expect(text).not.toMatch(/token/i)
    // Each waits its delay: none is due yet.
    for (const r of rows) expect(r.runAt.getTime()).toBeGreaterThan(Date.now() + 50_000)
  })

  it('refuse a malformed payload without sending anything', async () => {
    const mail = instance(new LocalJobQueue(tdb.database.db))
    await expect(mail.run('reset', { email: KNOWN })).rejects.toThrow('malformed payload')
    await expect(mail.run('register', { id: 'x' })).rejects.toThrow('malformed payload')
  })
})
