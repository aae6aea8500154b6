/**
 * Account e-mails (verification, reset) are durable (ADR 0186): the auth mailer queues them in
 * the mail table and sends them from there, so a process that stops before the send leaves a row
 * that another worker sends.
 */
import { eq, like } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mailJobs, mailOutbox } from '../../src/server/db/schema.ts'
import { MailQueueWorker } from '../../src/server/modules/mail/mail.queue.ts'
import { buildTestApp, type TestApp } from '../helpers/app.ts'

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp()
})
afterAll(() => t?.close())

const request = () => ({ log: t.app.log }) as never

describe('account e-mails', () => {
  it('are queued with a key of their own and sent from the queue at once', async () => {
    t.app.auth.deliver(request(), {
      to: 'first@example.com',
      subject: 'Verify your e-mail',
      text: 'link',
      html: '<p>link</p>',
    })
    await t.app.auth.deferred.drain()
    await expect
      .poll(
        async () =>
          (await t.app.db.select().from(mailOutbox).where(eq(mailOutbox.subject, 'Verify your e-mail')))
            .length,
      )
      .toBe(1)
    // The send is recorded on its job just after the message left (a moment later when busy).
    const jobs = () => t.app.db.select().from(mailJobs).where(like(mailJobs.dedupeKey, 'account:%'))
    await expect.poll(async () => (await jobs()).map((r) => r.status)).toEqual(['sent'])
    expect((await jobs())[0]).toMatchObject({ status: 'sent', attempts: 1 })
  })

  it('survive a worker that stops before sending: the next worker sends them, once', async () => {
    await t.app.mailQueue.stop()
    t.app.auth.deliver(request(), {
      to: 'second@example.com',
      subject: 'Reset your password',
      text: 'link',
      html: '<p>link</p>',
    })
    await expect
      .poll(
        async () =>
          (await t.app.db.select().from(mailJobs).where(like(mailJobs.dedupeKey, 'account:%'))).length,
      )
      .toBe(2)
    const subject = eq(mailOutbox.subject, 'Reset your password')
    expect(await t.app.db.select().from(mailOutbox).where(subject)).toHaveLength(0)

    const next = new MailQueueWorker(t.app.db, t.app.mailer)
    expect(await next.runOnce()).toEqual({ sent: 1, failed: 0, retrying: 0 })
    expect(await next.runOnce()).toEqual({ sent: 0, failed: 0, retrying: 0 })
    expect(await t.app.db.select().from(mailOutbox).where(subject)).toHaveLength(1)
  })
})
