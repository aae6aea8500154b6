import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mailOutbox } from '../../src/server/db/schema.ts'
import { buildTestApp, cookieHeader, cookiesFrom, type TestApp } from '../helpers/app.ts'
import { loadConfig } from '../../src/server/config.ts'

describe('the outbox page', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await buildTestApp({ mail: { ...loadConfig({ NODE_ENV: 'test' }).mail, outboxPage: true } })
  })
  afterAll(() => t?.close())

  it('stores a sent message with its raw text and lists it escaped', async () => {
    await t.app.mailer.send({
      to: ['a@example.com'],
      subject: 'Hello <b>there</b>',
      text: 'Line & <script>x</script>',
    })
    const [row] = await t.app.db.select().from(mailOutbox)
    expect(row).toMatchObject({
      to: ['a@example.com'],
      subject: 'Hello <b>there</b>',
      from: 'Shop <no-reply@localhost>',
    })
    expect(row!.raw).toContain('Subject: Hello <b>there</b>')
    const list = await t.app.inject({ url: '/dev/mail', headers: { host: 'localhost' } })
    expect(list.statusCode).toBe(200)
    expect(list.body).toContain('Hello &lt;b&gt;there&lt;/b&gt;')
    const one = await t.app.inject({ url: `/dev/mail/${row!.id}`, headers: { host: 'localhost' } })
    expect(one.body).toContain('Line &amp; &lt;script&gt;x&lt;/script&gt;')
    expect(one.body).not.toContain('<script>x')
    expect((await t.app.inject({ url: '/dev/mail/999999', headers: { host: 'localhost' } })).statusCode).toBe(
      404,
    )
    expect((await t.app.inject({ url: '/dev/mail/abc', headers: { host: 'localhost' } })).statusCode).toBe(
      404,
    )
  })

  it('answers the outbox only for a visitor on this machine', async () => {
    await t.app.mailer.send({ to: ['b@example.com'], subject: 'Verify your e-mail', text: 'secret link' })
    for (const remoteAddress of ['203.0.113.9', '10.0.0.2', '::ffff:192.0.2.1']) {
      const res = await t.app.inject({ url: '/dev/mail', remoteAddress, headers: { host: 'localhost' } })
      expect(res.statusCode, remoteAddress).toBe(404)
      expect(res.body).not.toContain('Verify your e-mail')
    }
    for (const remoteAddress of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
      const res = await t.app.inject({ url: '/dev/mail', remoteAddress, headers: { host: 'localhost' } })
      expect(res.statusCode, remoteAddress).toBe(200)
    }
  })

  it('prints every e-mail it keeps to the server log, since it sends none', async () => {
    const lines: string[] = []
    const { createMailer } = await import('../../src/server/modules/mail/mail.service.ts')
    const mailer = createMailer(loadConfig({ NODE_ENV: 'test' }), t.app.db, (m) =>
      lines.push(`${m.to.join(',')} ${m.subject} ${m.text}`),
    )
    await mailer.send({ to: ['c@example.com'], subject: 'Welcome', text: 'https://localhost/verify' })
    expect(lines).toEqual(['c@example.com Welcome https://localhost/verify'])
  })
})

describe('without the outbox page', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await buildTestApp()
  })
  afterAll(() => t?.close())

  it('does not serve /dev/mail', async () => {
    const res = await t.app.inject({
      url: '/dev/mail',
      headers: { host: 'localhost', accept: 'application/json' },
    })
    expect(res.statusCode).toBe(404)
  })
})

describe('content form e-mails', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await buildTestApp()
  })
  afterAll(() => t?.close())

  it('e-mails the site contact a submitted content form through the mailer', async () => {
    const first = await t.app.inject({ url: '/', headers: { host: 'localhost', accept: 'text/html' } })
    const cookies = cookiesFrom(first)
    const res = await t.app.inject({
      method: 'POST',
      url: '/forms/contact',
      headers: {
        host: 'localhost',
        accept: 'application/json',
        cookie: cookieHeader(cookies),
        'x-xsrf-token': decodeURIComponent(cookies['XSRF-TOKEN']!),
      },
      payload: { name: 'Dee', email: 'dee@example.com', phone: '', message: 'Do you stock ladders?' },
    })
    expect(res.statusCode).toBe(200)
    // The notification is sent after the answer; give it a moment to reach the outbox.
    await expect
      .poll(async () => (await t.app.db.select().from(mailOutbox)).length, { timeout: 5000 })
      .toBe(1)
    const [mail] = await t.app.db.select().from(mailOutbox)
    expect(mail).toMatchObject({
      to: ['sales@harbour-safety.example'],
      subject: 'Contact us: new submission',
    })
    expect(mail!.text).toContain('Message: Do you stock ladders?')
  })
})

describe('the capture file', () => {
  let t: TestApp
  let dir: string
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'shop-mail-'))
    t = await buildTestApp({
      mailCaptureFile: join(dir, 'mail.jsonl'),
      mail: { ...loadConfig({ NODE_ENV: 'test' }).mail, outboxPage: true },
    })
  })
  afterAll(async () => {
    await t?.close()
    await rm(dir, { recursive: true, force: true })
  })

  it('keeps every message in the outbox, lists it, and also appends it to the file', async () => {
    await t.app.mailer.send({ to: ['a@example.com', 'b@example.com'], subject: 'Hi', text: 'Body' })
    const lines = (await readFile(join(dir, 'mail.jsonl'), 'utf8')).trim().split('\n')
    expect(lines.map((l) => JSON.parse(l) as unknown)).toEqual([
      { to: 'a@example.com, b@example.com', subject: 'Hi', text: 'Body' },
    ])
    const list = await t.app.inject({ url: '/dev/mail', headers: { host: 'localhost' } })
    expect(list.statusCode).toBe(200)
    expect(list.body).toContain('>Hi</a>')
  })
})
