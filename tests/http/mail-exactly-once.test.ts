/**
 * No e-mail twice, none lost (issue 32): workers sending through a real SMTP conversation (a
 * stand-in server on node:net), two at a time, slow, hanging, and killed mid-send.
 */
import { spawn } from 'node:child_process'
import { resolve } from 'node:path'
import { eq, like } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase, type Database, type Db } from '../../src/server/db/client.ts'
import { mailJobs } from '../../src/server/db/schema.ts'
import {
  enqueueMail,
  MailQueueWorker,
  messageIdFor,
  type RunResult,
} from '../../src/server/modules/mail/mail.queue.ts'
import { SmtpMailer } from '../../src/server/modules/mail/mail.service.ts'
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts'
import { startSmtpStandIn, type Answer, type SmtpStandIn } from '../helpers/smtp-stand-in.ts'

const FROM = 'Shop <no-reply@shop.test>'
const url = process.env.DATABASE_URL

let tdb: TestDatabase
let second: Database | null = null
beforeAll(async () => {
  tdb = await createTestDatabase()
  // On PostgreSQL the second worker has a pool of its own, as another instance would.
  if (tdb.database.connectionString) {
    second = await openDatabase({ driver: 'postgres', url: tdb.database.connectionString, poolSize: 2 })
  }
})
afterAll(async () => {
  await second?.close()
  await tdb?.dispose()
})

let smtp: SmtpStandIn | null = null
async function standIn(answer: (id: string, n: number) => Answer): Promise<SmtpStandIn> {
  await smtp?.close()
  smtp = await startSmtpStandIn(answer)
  return smtp
}
afterAll(() => smtp?.close())

function worker(db: Db, smtpUrl: string, opts: { leaseMs?: number; sendTimeoutMs?: number } = {}) {
  return new MailQueueWorker(db, new SmtpMailer(smtpUrl, FROM), { from: FROM, ...opts })
}

async function drain(w: MailQueueWorker): Promise<RunResult> {
  const total: RunResult = { sent: 0, failed: 0, retrying: 0 }
  for (;;) {
    const r = await w.runOnce()
    total.sent += r.sent
    total.failed += r.failed
    total.retrying += r.retrying
    if (r.sent + r.failed + r.retrying === 0) return total
  }
}

const mail = (key: string) => ({
  dedupeKey: key,
  message: { to: [`${key.replace(/[^a-z0-9]/gi, '')}@example.com`], subject: `About ${key}`, text: 'Hello' },
})

describe('mail sent through the queue', () => {
  it('queues nothing when the transaction that queued it rolls back', async () => {
    const db = tdb.database.db
    await db
      .transaction(async (tx) => {
        await enqueueMail(tx, [mail('rolled-back:1')])
        throw new Error('the order failed')
      })
      .catch(() => {})
    expect(await db.select().from(mailJobs).where(eq(mailJobs.dedupeKey, 'rolled-back:1'))).toEqual([])
  })

  it('sends each of 40 messages exactly once with two workers and a slow SMTP server', async () => {
    const db = tdb.database.db
    const server = await standIn(() => ({ delayMs: 25 }))
    const keys = Array.from({ length: 40 }, (_, i) => `pair:${i}`)
    await db.transaction(async (tx) => enqueueMail(tx, keys.map(mail)))
    const a = worker(db, server.url)
    const b = worker(second?.db ?? db, server.url)
    const [ra, rb] = await Promise.all([drain(a), drain(b)])

    expect(ra.sent + rb.sent).toBe(40)
    if (second) expect(Math.min(ra.sent, rb.sent)).toBeGreaterThan(0)
    expect(server.accepted).toHaveLength(40)
    expect(new Set(server.accepted)).toEqual(new Set(keys.map((k) => messageIdFor(k, FROM))))
    expect(server.maxConcurrentPerMessage).toBe(1)
    const rows = await db.select().from(mailJobs).where(like(mailJobs.dedupeKey, 'pair:%'))
    expect(rows.every((r) => r.status === 'sent' && r.attempts === 1)).toBe(true)
    // Sent is sent: nothing is due any more.
    expect(await drain(a)).toEqual({ sent: 0, failed: 0, retrying: 0 })
  })

  it('abandons a send at its deadline, keeps the claim to the end of its lease, then sends it once', async () => {
    const db = tdb.database.db
    const id = messageIdFor('hang:1', FROM)
    // The first conversation carrying the message never gets an answer.
    const server = await standIn((_, n) => (n === 1 ? 'hang' : { delayMs: 0 }))
    await enqueueMail(db, [mail('hang:1')])
    const a = worker(db, server.url, { leaseMs: 1500, sendTimeoutMs: 400 })
    const b = worker(second?.db ?? db, server.url, { leaseMs: 1500, sendTimeoutMs: 400 })

    const first = await a.runOnce()
    expect(first).toEqual({ sent: 0, failed: 0, retrying: 1 })
    const [row] = await db.select().from(mailJobs).where(eq(mailJobs.dedupeKey, 'hang:1'))
    expect(row!.lastError).toMatch(/timed out .* outcome is unknown/)
    // While the lease runs, the other worker does not touch it (and the first conversation is closed).
    for (let i = 0; i < 5; i++) {
      expect(await b.runOnce()).toEqual({ sent: 0, failed: 0, retrying: 0 })
      await new Promise((r) => setTimeout(r, 100))
    }
    expect(server.accepted).toEqual([])
    // After the lease (and the back-off), one worker sends it, once.
    await db.update(mailJobs).set({ nextAttemptAt: new Date() }).where(eq(mailJobs.dedupeKey, 'hang:1'))
    const [rb, ra] = await Promise.all([drain(b), drain(a)])
    expect(rb.sent + ra.sent).toBe(1)
    expect(server.accepted).toEqual([id])
    expect(server.conversations.get(id)).toBe(2)
    expect(server.maxConcurrentPerMessage).toBe(1)
  })
})

describe.skipIf(!url)('a worker killed mid-send (PostgreSQL)', () => {
  it('still sends the committed message after a restart, once, and not before its lease ends', async () => {
    const db = tdb.database.db
    const id = messageIdFor('order:crash:1', FROM)
    const server = await standIn((_, n) => (n === 1 ? 'hang' : { delayMs: 0 }))
    // The order's transaction commits with its e-mail.
    await db.transaction(async (tx) => enqueueMail(tx, [mail('order:crash:1')]))

    const leaseMs = 3000
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        resolve(import.meta.dirname, '../helpers/mail-worker-child.ts'),
        tdb.database.connectionString!,
        server.url,
        String(leaseMs),
        '2500',
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    )
    const exited = new Promise<NodeJS.Signals | null>((done) =>
      child.on('exit', (_code, signal) => done(signal)),
    )
    // Killed once the message is in the SMTP server's hands but before the server answered.
    await server.reached(id)
    const killedAt = Date.now()
    child.kill('SIGKILL')
    expect(await exited).toBe('SIGKILL')

    const [claimed] = await db.select().from(mailJobs).where(eq(mailJobs.dedupeKey, 'order:crash:1'))
    expect(claimed).toMatchObject({ status: 'pending', attempts: 1 })
    const restarted = worker(db, server.url, { leaseMs, sendTimeoutMs: 2500 })
    // The dead worker's lease still holds: not sent while it might still be in flight.
    expect(await restarted.runOnce()).toEqual({ sent: 0, failed: 0, retrying: 0 })
    await new Promise((r) => setTimeout(r, Math.max(0, claimed!.nextAttemptAt.getTime() - Date.now() + 50)))
    expect(Date.now() - killedAt).toBeLessThan(leaseMs + 1000)
    expect(await restarted.runOnce()).toEqual({ sent: 1, failed: 0, retrying: 0 })
    expect(server.accepted).toEqual([id])
    const [row] = await db.select().from(mailJobs).where(eq(mailJobs.dedupeKey, 'order:crash:1'))
    expect(row).toMatchObject({ status: 'sent', attempts: 2 })
  }, 20_000)
})
