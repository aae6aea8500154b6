/**
 * Outgoing mail behind one small interface. nodemailer builds every message; the default
 * transport stores it in the `mail_outbox` table (nothing leaves the machine, tests and the
 * development page can read it), SMTP sends it for real when configured.
 */
import { desc, eq } from 'drizzle-orm'
import nodemailer, { type Transporter } from 'nodemailer'
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
}

export interface Mailer {
  send(message: MailMessage): Promise<void>
}

/** Builds the message with nodemailer and keeps it in the outbox table. */
export class OutboxMailer implements Mailer {
  private readonly builder: Transporter = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: 'unix',
  })

  constructor(
    private readonly db: Db,
    private readonly defaultFrom: string,
  ) {}

  async send(message: MailMessage): Promise<void> {
    const from = message.from ?? this.defaultFrom
    const info = (await this.builder.sendMail({ ...message, from })) as { message: Buffer }
    await this.db.insert(mailOutbox).values({
      from,
      to: message.to,
      subject: message.subject,
      text: message.text,
      html: message.html ?? null,
      raw: info.message.toString('utf8'),
    })
  }

  async list(limit = 50): Promise<OutboxRow[]> {
    return this.db.select().from(mailOutbox).orderBy(desc(mailOutbox.id)).limit(limit)
  }

  async find(id: number): Promise<OutboxRow | null> {
    const [row] = await this.db.select().from(mailOutbox).where(eq(mailOutbox.id, id))
    return row ?? null
  }
}

export class SmtpMailer implements Mailer {
  private readonly transport: Transporter

  constructor(
    smtpUrl: string,
    private readonly defaultFrom: string,
  ) {
    this.transport = nodemailer.createTransport(smtpUrl)
  }

  async send(message: MailMessage): Promise<void> {
    await this.transport.sendMail({ ...message, from: message.from ?? this.defaultFrom })
  }
}

export function createMailer(config: Config, db: Db): Mailer {
  if (config.mail.transport === 'smtp' && config.mail.smtpUrl)
    return new SmtpMailer(config.mail.smtpUrl, config.mail.from)
  return new OutboxMailer(db, config.mail.from)
}
