/**
 * A customer's address book (spec §3 Contact, Address): any number of contacts and of shipping
 * and billing addresses, one of each kind marked primary. A partial unique index makes a second
 * primary impossible; the service moves the mark in one transaction.
 */
import { sql } from 'drizzle-orm'
import { boolean, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
import { ADDRESS_TYPES } from '../../../shared/customer.ts'
import { customers } from '../auth/auth.tables.ts'

export const customerContacts = pgTable(
  'customer_contacts',
  {
    id: serial('id').primaryKey(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    email: text('email').notNull(),
    phone: text('phone').notNull().default(''),
    company: text('company').notNull().default(''),
    primary: boolean('primary').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('customer_contacts_customer').on(t.customerId, t.id),
    uniqueIndex('customer_contacts_one_primary')
      .on(t.customerId)
      .where(sql`${t.primary}`),
  ],
)

export const customerAddresses = pgTable(
  'customer_addresses',
  {
    id: serial('id').primaryKey(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    type: text('type', { enum: ADDRESS_TYPES }).notNull(),
    company: text('company').notNull().default(''),
    address1: text('address1').notNull(),
    address2: text('address2').notNull().default(''),
    town: text('town').notNull(),
    county: text('county').notNull().default(''),
    postcode: text('postcode').notNull(),
    /** ISO 3166 2-letter code; '' only for a billing address entered without one */
    country: text('country').notNull().default(''),
    primary: boolean('primary').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('customer_addresses_customer').on(t.customerId, t.type, t.id),
    uniqueIndex('customer_addresses_one_primary')
      .on(t.customerId, t.type)
      .where(sql`${t.primary}`),
  ],
)

export type ContactRow = typeof customerContacts.$inferSelect
export type AddressRow = typeof customerAddresses.$inferSelect

/** A customer's marketing e-mail choice (the Order Complete opt-out, later the account page). */
export const customerMarketing = pgTable('customer_marketing', {
  customerId: integer('customer_id')
    .primaryKey()
    .references(() => customers.id, { onDelete: 'cascade' }),
  optedIn: boolean('opted_in').notNull(),
  /** Where the choice was made: 'checkout-complete', 'account' */
  source: text('source').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
})

/**
 * A card the customer chose to keep (spec §3 "Saved card": id, token, last4Digits, cardType).
 * The token is the provider's reusable card reference (Opayo's reusable card identifier), never
 * a card number: the number only ever lives in the provider's iframe. The first saved card (the
 * oldest) is the checkout's default. The same provider token is kept once per customer.
 */
export const savedCards = pgTable(
  'saved_cards',
  {
    id: serial('id').primaryKey(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    /** The payment method that issued the token (sagepay). */
    provider: text('provider').notNull(),
    token: text('token').notNull(),
    last4Digits: text('last4_digits').notNull(),
    /** As the provider names it: Visa, MasterCard, AmericanExpress, … */
    cardType: text('card_type').notNull(),
    /** MMYY, as the provider reports it; empty when unknown. */
    expiry: text('expiry').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('saved_cards_customer_token').on(t.customerId, t.provider, t.token),
    index('saved_cards_customer').on(t.customerId, t.createdAt),
  ],
)
