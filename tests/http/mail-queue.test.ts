import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mailJobs } from '../../src/server/db/schema.ts'
import { enqueueMail, MailQueueWorker, defaultBackoff } from '../../src/server/modules/mail/mail.queue.ts'
import type { MailMessage, Mailer } from '../../src/server/modules/mail/mail.service.ts'
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts'

let tdb: TestDatabase
beforeAll(async () => {
  tdb = await createTestDatabase()
})
afterAll(() => tdb?.dispose())

class FlakyMailer implements Mailer {
  sent: MailMessage[] = []
  failuresLeft: number
  constructor(failures: number) {
    this.failuresLeft = failures
  }
  async send(message: MailMessage) {
    if (this.failuresLeft-- > 0) throw new Error('SMTP 451 try again later')
    this.sent.push(message)
  }
}

const message = (to: string) => ({ to: [to], subject: 'Hello', text: 'Hi' })

describe('the mail queue', () => {
  it('queues a key once, however often it is enqueued', async () => {
    const db = tdb.database.db
    await enqueueMail(db, [{ dedupeKey: 'test:once', message: message('once@example.com') }])
    await enqueueMail(db, [{ dedupeKey: 'test:once', message: message('twice@example.com') }])
    const rows = await db.select().from(mailJobs).where(eq(mailJobs.dedupeKey, 'test:once'))
    expect(rows).toHaveLength(1)
    expect(rows[0]!.message.to).toEqual(['once@example.com'])
  })

  it('retries a failed send with back-off, then sends it, and never sends a sent job again', async () => {
    const db = tdb.database.db
    let now = new Date('2030-01-01T00:00:00Z')
    const mailer = new FlakyMailer(2)
    const worker = new MailQueueWorker(db, mailer, { now: () => now })
    await enqueueMail(db, [{ dedupeKey: 'test:retry', message: message('retry@example.com') }])
    await db.update(mailJobs).set({ nextAttemptAt: now }).where(eq(mailJobs.dedupeKey, 'test:retry'))
    await db.update(mailJobs).set({ status: 'sent' }).where(eq(mailJobs.dedupeKey, 'test:once'))

    expect(await worker.runOnce()).toEqual({ sent: 0, failed: 0, retrying: 1 })
    let [row] = await db.select().from(mailJobs).where(eq(mailJobs.dedupeKey, 'test:retry'))
    expect(row!.attempts).toBe(1)
    expect(row!.lastError).toBe('SMTP 451 try again later')
    expect(row!.nextAttemptAt.getTime()).toBe(now.getTime() + defaultBackoff(1))

    // Not due yet: nothing happens.
    expect(await worker.runOnce()).toEqual({ sent: 0, failed: 0, retrying: 0 })
    now = new Date(now.getTime() + defaultBackoff(1))
    expect(await worker.runOnce()).toEqual({ sent: 0, failed: 0, retrying: 1 })
    now = new Date(now.getTime() + defaultBackoff(2))
    expect(await worker.runOnce()).toEqual({ sent: 1, failed: 0, retrying: 0 })
    ;[row] = await db.select().from(mailJobs).where(eq(mailJobs.dedupeKey, 'test:retry'))
    expect(row!.status).toBe('sent')
    expect(mailer.sent.map((m) => m.to)).toEqual([['retry@example.com']])
    now = new Date(now.getTime() + 86_400_000)
    expect(await worker.runOnce()).toEqual({ sent: 0, failed: 0, retrying: 0 })
  })

  it('marks a job failed after the last attempt', async () => {
    const db = tdb.database.db
    const now = new Date('2031-01-01T00:00:00Z')
    const worker = new MailQueueWorker(db, new FlakyMailer(99), { now: () => now, maxAttempts: 1 })
    await enqueueMail(db, [{ dedupeKey: 'test:fail', message: message('fail@example.com') }])
    await db.update(mailJobs).set({ nextAttemptAt: now }).where(eq(mailJobs.dedupeKey, 'test:fail'))
    expect(await worker.runOnce()).toEqual({ sent: 0, failed: 1, retrying: 0 })
    const [row] = await db.select().from(mailJobs).where(eq(mailJobs.dedupeKey, 'test:fail'))
    expect(row!.status).toBe('failed')
  })

  it('records a send the server accepted once the database is back, and never sends it again', async () => {
    const db = tdb.database.db
    const now = new Date('2032-01-01T00:00:00Z')
    // The database drops the first two writes after the SMTP server took the message (a restart).
    let down = 0
    const flaky = new Proxy(db, {
      get(target, prop, receiver) {
        if (prop === 'update' && down > 0) {
          down--
          return () => {
            throw new Error('Connection terminated unexpectedly')
          }
        }
        return Reflect.get(target, prop, receiver) as unknown
      },
    })
    const mailer: Mailer & { sent: MailMessage[] } = {
      sent: [],
      async send(m: MailMessage) {
        this.sent.push(m)
        down = 2
      },
    }
    const worker = new MailQueueWorker(flaky, mailer, { now: () => now })
    await enqueueMail(db, [{ dedupeKey: 'test:db-restart', message: message('restart@example.com') }])
    await db.update(mailJobs).set({ nextAttemptAt: now }).where(eq(mailJobs.dedupeKey, 'test:db-restart'))
    expect(await worker.runOnce()).toEqual({ sent: 1, failed: 0, retrying: 0 })
    const [row] = await db.select().from(mailJobs).where(eq(mailJobs.dedupeKey, 'test:db-restart'))
    expect(row!.status).toBe('sent')
    // However long after, nothing sends it again.
    const later = new MailQueueWorker(db, mailer, { now: () => new Date(now.getTime() + 86_400_000) })
    await later.runOnce()
    expect(mailer.sent.map((m) => m.to)).toEqual([['restart@example.com']])
  })
})
