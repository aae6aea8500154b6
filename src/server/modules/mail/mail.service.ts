/**
 * Outgoing mail behind one small interface. nodemailer builds every message; the default
 * transport stores it in the `mail_outbox` table (nothing leaves the machine, tests and the
 * development page can read it), SMTP sends it for real when configured.
 */
import { appendFile, mkdir } from 'node:fs/promises'
import { dirname } from 'node:path'
import { desc, eq } from 'drizzle-orm'
import type nodemailer from 'nodemailer'
import type { Transporter } from 'nodemailer'
import type { Config } from '../../config.ts'
import type { Db } from '../../db/client.ts'
import { mailOutbox, type OutboxRow } from './mail.tables.ts'

export interface MailMessage {
  to: string[]
  subject: string
  text: string
  html?: string
  /** Defaults to MAIL_FROM */
  from?: string
  replyTo?: string
  /**
   * The Message-ID header, without brackets. The mail queue derives it from the message's
   * idempotency key, so a message sent again after a crash carries the same id (receivers can
   * tell it is the same message).
   */
  messageId?: string
}

export interface SendOptions {
  /** Aborts the send (the SMTP mailer closes its connection at once). */
  signal?: AbortSignal
}

export interface Mailer {
  send(message: MailMessage, options?: SendOptions): Promise<void>
}

/** nodemailer is loaded on the first mail, not at start (it is a large module tree). */
async function createTransport(options: Parameters<typeof nodemailer.createTransport>[0]) {
  const { default: mailer } = await import('nodemailer')
  return mailer.createTransport(options)
}

/** Builds the message with nodemailer and keeps it in the outbox table. */
export class OutboxMailer implements Mailer {
  private builder: Promise<Transporter> | null = null

  constructor(
    private readonly db: Db,
    private readonly defaultFrom: string,
    /** Called with each stored mail (the app prints it to its log: the outbox delivers nothing) */
    private readonly onStored?: (message: MailMessage) => void,
  ) {}

  async send(message: MailMessage): Promise<void> {
    const from = message.from ?? this.defaultFrom
    this.builder ??= createTransport({ streamTransport: true, buffer: true, newline: 'unix' })
    const { messageId, ...rest } = message
    const info = (await (
      await this.builder
    ).sendMail({ ...rest, from, ...(messageId ? { messageId: `<${messageId}>` } : {}) })) as {
      message: Buffer
    }
    await this.db.insert(mailOutbox).values({
      from,
      to: message.to,
      subject: message.subject,
      text: message.text,
      html: message.html ?? null,
      raw: info.message.toString('utf8'),
    })
    this.onStored?.({ ...message, from })
  }

  async list(limit = 50): Promise<OutboxRow[]> {
    return this.db.select().from(mailOutbox).orderBy(desc(mailOutbox.id)).limit(limit)
  }

  async find(id: number): Promise<OutboxRow | null> {
    const [row] = await this.db.select().from(mailOutbox).where(eq(mailOutbox.id, id))
    return row ?? null
  }
}

/** Time limits of an SMTP conversation (ms): nodemailer's defaults are minutes. */
export interface SmtpTimeouts {
  connectionMs: number
  greetingMs: number
  socketMs: number
}

export class SmtpMailer implements Mailer {
  private transport: Promise<Transporter> | null = null

  constructor(
    private readonly smtpUrl: string,
    private readonly defaultFrom: string,
    private readonly timeouts: SmtpTimeouts = { connectionMs: 10_000, greetingMs: 10_000, socketMs: 20_000 },
  ) {}

  async send(message: MailMessage, options: SendOptions = {}): Promise<void> {
    this.transport ??= createTransport({
      url: this.smtpUrl,
      connectionTimeout: this.timeouts.connectionMs,
      greetingTimeout: this.timeouts.greetingMs,
      socketTimeout: this.timeouts.socketMs,
    } as Parameters<typeof nodemailer.createTransport>[0])
    const { messageId, ...rest } = message
    await (
      await this.transport
    ).sendMail({
      ...rest,
      from: message.from ?? this.defaultFrom,
      ...(messageId ? { messageId: `<${messageId}>` } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    })
  }
}

/**
 * Also appends every message to a file as one JSON line (`MAIL_CAPTURE_FILE`), so browser tests
 * and developers can follow links in mail without an inbox.
 */
export class CapturingMailer implements Mailer {
  constructor(
    readonly inner: Mailer,
    private readonly file: string,
  ) {}

  async send(message: MailMessage, options?: SendOptions): Promise<void> {
    await this.inner.send(message, options)
    await mkdir(dirname(this.file), { recursive: true })
    const line = {
      to: message.to.join(', '),
      subject: message.subject,
      text: message.text,
      html: message.html,
    }
    await appendFile(this.file, `${JSON.stringify(line)}\n`)
  }
}

export function createMailer(config: Config, db: Db, onOutbox?: (message: MailMessage) => void): Mailer {
  const mailer =
    config.mail.transport === 'smtp' && config.mail.smtpUrl
      ? new SmtpMailer(config.mail.smtpUrl, config.mail.from, config.mail.smtpTimeouts)
      : new OutboxMailer(db, config.mail.from, onOutbox)
  return config.mailCaptureFile ? new CapturingMailer(mailer, config.mailCaptureFile) : mailer
}
