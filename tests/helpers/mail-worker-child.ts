/**
 * A mail worker in a process of its own, for the crash test: sends one batch through SMTP and
 * exits. argv: database URL, SMTP URL, lease (ms), send timeout (ms). The test kills it mid-send.
 */
import { openDatabase } from '../../src/server/db/client.ts'
import { MailQueueWorker } from '../../src/server/modules/mail/mail.queue.ts'
import { SmtpMailer } from '../../src/server/modules/mail/mail.service.ts'

const [url, smtpUrl, leaseMs, sendTimeoutMs] = process.argv.slice(2)
const database = await openDatabase({ driver: 'postgres', url: url!, poolSize: 2 })
const worker = new MailQueueWorker(database.db, new SmtpMailer(smtpUrl!, 'Shop <no-reply@shop.test>'), {
  from: 'Shop <no-reply@shop.test>',
  leaseMs: Number(leaseMs),
  sendTimeoutMs: Number(sendTimeoutMs),
})
process.stdout.write('ready\n')
const result = await worker.runOnce()
process.stdout.write(`${JSON.stringify(result)}\n`)
await database.close()
