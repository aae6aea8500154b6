/**
 * Customers and everything that authenticates them. Accounts belong to one site (brand): the
 * same e-mail address may hold separate accounts on sister brands. Every token is stored only
 * as a SHA-256 hash (they carry 256 bits of randomness, so a fast hash is enough); passwords and
 * recovery codes as argon2id hashes; the TOTP secret encrypted (AES-256-GCM).
 */
import { sql } from 'drizzle-orm'
import {
  bigint,
  customType,
  index,
  integer,
  pgSequence,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core'
import { sites } from '../sites/sites.tables.ts'

/** The change sequence of customers, for the back office's customers feed (ADR 0220). */
export const customerChangeSeq = pgSequence('customer_change_seq', { startWith: 1, increment: 1 })

/** PostgreSQL's 64-bit transaction id (read as a decimal string). */
const xid8 = customType<{ data: string; driverData: string }>({ dataType: () => 'xid8' })

export const customers = pgTable(
  'customers',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    /** Trimmed and lower-cased; unique per site. */
    email: text('email').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    /** Company, or the club name for a club registration. */
    company: text('company'),
    /** 'standard' or 'club' (the club registration variant). */
    kind: text('kind', { enum: ['standard', 'club'] })
      .notNull()
      .default('standard'),
    /** The account's user name (the e-mail it registered with) */
    username: text('username'),
    /** The back office's key for this customer; set by the back office, never by the shop */
    externalKey: text('external_key'),
    /** When the customer registered (a guest: when the first order created it) */
    registerDate: timestamp('register_date', { withTimezone: true }).defaultNow(),
    /**
     * Null for a guest created by checkout: no password, so no login (the login check takes the
     * same dummy-verify path as an unknown e-mail). Registering later sets one by e-mailed link.
     */
    passwordHash: text('password_hash'),
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    /** AES-256-GCM sealed base32 TOTP secret; set when set-up starts. */
    twoFactorSecret: text('two_factor_secret'),
    /**
     * Raised by a password reset: a session logged in under an older generation is logged out on
     * its next request, whichever session store holds it (database or Redis).
     */
    sessionGeneration: integer('session_generation').notNull().default(0),
    /** Set when the first code was confirmed: only then is two-factor required at login. */
    twoFactorConfirmedAt: timestamp('two_factor_confirmed_at', { withTimezone: true }),
    /** The last TOTP time step accepted: a code is usable once (no replay within its window). */
    twoFactorLastStep: integer('two_factor_last_step'),
    /**
     * Set when the back office reset the customer's two-factor (a lost phone): their next sign-in
     * leads straight to setting it up again; cleared when they confirm a new code.
     */
    twoFactorResetAt: timestamp('two_factor_reset_at', { withTimezone: true }),
    /** Set when the back office disabled the account: it cannot sign in until re-enabled. */
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true })
      .notNull()
      .default(sql`now()`),
    /**
     * The customers feed's position (ADR 0220): taken from customer_change_seq, with the writing
     * transaction's id, at insert and at every update made through Drizzle ($onUpdate), and by
     * `touchCustomer` when the customer's contacts or addresses change.
     */
    changeSeq: bigint('change_seq', { mode: 'number' })
      .notNull()
      .default(sql`nextval('customer_change_seq')`)
      .$onUpdate(() => sql`nextval('customer_change_seq')`),
    changeXid: xid8('change_xid')
      .notNull()
      .default(sql`pg_current_xact_id()`)
      .$onUpdate(() => sql`pg_current_xact_id()`),
  },
  (t) => [
    uniqueIndex('customers_site_email').on(t.siteId, t.email),
    index('customers_site_change').on(t.siteId, t.changeXid, t.changeSeq),
  ],
)

/** "Remember me": selector (looked up) + validator (hashed, compared in constant time), rotated on use. */
export const rememberTokens = pgTable(
  'customer_remember_tokens',
  {
    id: serial('id').primaryKey(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    selector: text('selector').notNull(),
    validatorHash: text('validator_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('customer_remember_tokens_selector').on(t.selector),
    index('customer_remember_tokens_customer').on(t.customerId),
  ],
)

/** Password reset links: single use, 60 minutes, bound to the account. */
export const passwordResetTokens = pgTable(
  'customer_password_reset_tokens',
  {
    id: serial('id').primaryKey(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('customer_password_reset_tokens_hash').on(t.tokenHash),
    index('customer_password_reset_tokens_customer').on(t.customerId),
  ],
)

/** E-mail verification links: single use, bound to the account and the address they were sent to. */
export const emailVerificationTokens = pgTable(
  'customer_email_verification_tokens',
  {
    id: serial('id').primaryKey(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('customer_email_verification_tokens_hash').on(t.tokenHash)],
)

/** Two-factor recovery codes, argon2id-hashed, single use. */
export const recoveryCodes = pgTable(
  'customer_recovery_codes',
  {
    id: serial('id').primaryKey(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('customer_recovery_codes_customer').on(t.customerId)],
)

/**
 * Throttle counters shared by every app process (login per account and per address, two-factor
 * per account, reset mails per account). One row per key and window.
 */
export const authThrottle = pgTable('auth_throttle', {
  key: text('key').primaryKey(),
  failures: integer('failures').notNull().default(0),
  windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
  lockedUntil: timestamp('locked_until', { withTimezone: true }),
})

/** Used bot-check challenge tokens, so a solved challenge cannot be replayed. */
export const usedBotTokens = pgTable(
  'auth_used_bot_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('auth_used_bot_tokens_expires').on(t.expiresAt)],
)

export type CustomerRow = typeof customers.$inferSelect
