/** The outbox: every message sent with the default transport is stored here (and listed in development). */
import { index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'

export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: serial('id').primaryKey(),
    from: text('from').notNull(),
    /** Recipients, as sent */
    to: jsonb('to').$type<string[]>().notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html'),
    /** The full RFC 822 message nodemailer built */
    raw: text('raw').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('mail_outbox_created').on(t.createdAt)],
)

export type OutboxRow = typeof mailOutbox.$inferSelect

/**
 * Mail to send later (an outbox of jobs): written in the same transaction as what it is about
 * (an order), sent by the mail queue worker, retried with back-off. `dedupe_key` is unique, so a
 * message is queued once however often its transaction is retried (`order:123:acknowledgement`).
 */
export const mailJobs = pgTable(
  'mail_jobs',
  {
    id: serial('id').primaryKey(),
    dedupeKey: text('dedupe_key').notNull(),
    message: jsonb('message')
      .$type<{ to: string[]; subject: string; text: string; html?: string; replyTo?: string }>()
      .notNull(),
    /** pending → sent, or failed after the last attempt */
    status: text('status', { enum: ['pending', 'sent', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    /**
     * Set when a worker claims the message (a fresh random value per claim). While claimed,
     * `next_attempt_at` is the end of the claim's lease; the worker records the outcome only if
     * the token is still its own, so a claim that ran out cannot overwrite a newer one.
     */
    claimToken: text('claim_token'),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lastError: text('last_error'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('mail_jobs_dedupe_key').on(t.dedupeKey),
    index('mail_jobs_due').on(t.status, t.nextAttemptAt),
  ],
)

export type MailJobRow = typeof mailJobs.$inferSelect
