/**
 * The account area's own tables (spec §3 Invoice, Marketing preference). An invoice is made
 * once per order by the back office (`npm run admin -- invoice create`) and keeps a copy of
 * what it bills, so the page and the PDF show the same figures however the order or the
 * catalogue change later. Marketing consent is an append-only log: every change a customer
 * makes is kept with its time and the exact wording they saw (the evidence a regulator asks for).
 */
import { sql } from 'drizzle-orm'
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgSequence,
  pgTable,
  serial,
  text,
  timestamp,
  primaryKey,
  uniqueIndex,
} from 'drizzle-orm/pg-core'
import { customers } from '../auth/auth.tables.ts'
import { orders, type OrderAddress } from '../orders/orders.tables.ts'
import { sites } from '../sites/sites.tables.ts'

export const invoiceNumberSeq = pgSequence('invoice_number_seq', { startWith: 700001, increment: 1 })

/** One billed line as it stood when the invoice was made (minor units, ex VAT). */
export interface InvoiceLine {
  sku: string
  name: string
  quantity: number
  unitPrice: number
  lineTotal: number
  vat: number
}

export const invoices = pgTable(
  'invoices',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'restrict' }),
    invoiceNumber: bigint('invoice_number', { mode: 'number' })
      .notNull()
      .default(sql`nextval('invoice_number_seq')`),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'restrict' }),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    invoiceDate: timestamp('invoice_date', { withTimezone: true }).notNull().defaultNow(),
    currency: text('currency').notNull(),
    /** The order's total inc VAT (Invoice_Amount) and its parts */
    amount: integer('amount').notNull(),
    goodsNet: integer('goods_net').notNull(),
    shippingNet: integer('shipping_net').notNull(),
    vat: integer('vat').notNull(),
    billingAddress: jsonb('billing_address').$type<OrderAddress>().notNull(),
    lines: jsonb('lines').$type<InvoiceLine[]>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('invoices_invoice_number').on(t.invoiceNumber),
    uniqueIndex('invoices_order').on(t.orderId),
    index('invoices_customer').on(t.customerId, t.invoiceDate),
  ],
)

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

/**
 * An order placed without logging in and linked to an account by its e-mail alone (ADR 0066)
 * shows in that account only once the account's owner confirmed it is theirs (ADR 0145): logged
 * in, from the signed link in the order's acknowledgement e-mail. One row per order and owner.
 */
export const orderOwnerConfirmations = pgTable(
  'order_owner_confirmations',
  {
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.orderId, t.customerId] })],
)

export type InvoiceRow = typeof invoices.$inferSelect
export type MarketingConsentRow = typeof marketingConsents.$inferSelect
