/**
 * The account area's own tables (spec §3 Marketing preference). Marketing consent is an
 * append-only log: every change a customer makes is kept with its time and the exact wording
 * they saw (the evidence a regulator asks for). Invoices and the owner confirmations of guest
 * orders are the orders module's (orders/orders.tables.ts).
 */
import { boolean, index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core'
import { customers } from '../auth/auth.tables.ts'

/** Every marketing choice a customer made, with the wording shown: never updated or deleted. */
export const marketingConsents = pgTable(
  'marketing_consents',
  {
    id: serial('id').primaryKey(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    /** The preference's name (email, post, sms) */
    preference: text('preference').notNull(),
    status: boolean('status').notNull(),
    /** The label and description as shown when the choice was made */
    wording: text('wording').notNull(),
    /** Where: 'account' */
    source: text('source').notNull(),
    ip: text('ip'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('marketing_consents_customer').on(t.customerId, t.preference, t.id)],
)

export type MarketingConsentRow = typeof marketingConsents.$inferSelect
