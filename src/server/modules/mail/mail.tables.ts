/** The outbox: every message sent with the default transport is stored here (and listed in development). */
import { index, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core'

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
