/**
 * The back office's staff (ADR 0260): accounts separate from customers (no site, one e-mail per
 * person), invitations, sessions with their own cookie, and the append-only audit log. Tokens are
 * stored only as SHA-256 hashes (256 random bits each); passwords as argon2id hashes like the
 * customers'; the TOTP secret sealed with AES-256-GCM (auth.crypto.ts's SecretBox).
 */
import { sql } from 'drizzle-orm'
import {
  bigserial,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core'

export const STAFF_ROLES = ['owner', 'staff', 'viewer'] as const
export type StaffRole = (typeof STAFF_ROLES)[number]

export const staffUsers = pgTable(
  'staff_users',
  {
    id: serial('id').primaryKey(),
    /** Trimmed and lower-cased; unique. */
    email: text('email').notNull(),
    name: text('name').notNull(),
    role: text('role', { enum: STAFF_ROLES }).notNull(),
    passwordHash: text('password_hash').notNull(),
    /** Sealed base32 TOTP secret; set when set-up starts. */
    twoFactorSecret: text('two_factor_secret'),
    /** Set by the first confirmed code: until then the account can only finish its set-up. */
    twoFactorConfirmedAt: timestamp('two_factor_confirmed_at', { withTimezone: true }),
    /** The last TOTP time step accepted (a code works once). */
    twoFactorLastStep: integer('two_factor_last_step'),
    /** A disabled account cannot log in, and its sessions end. */
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true })
      .notNull()
      .default(sql`now()`),
  },
  (t) => [uniqueIndex('staff_users_email').on(t.email)],
)

/** An invitation by e-mail: single use, 72 hours; accepting it creates the account. */
export const staffInvitations = pgTable(
  'staff_invitations',
  {
    id: serial('id').primaryKey(),
    email: text('email').notNull(),
    name: text('name').notNull(),
    role: text('role', { enum: STAFF_ROLES }).notNull(),
    tokenHash: text('token_hash').notNull(),
    invitedBy: integer('invited_by').references(() => staffUsers.id, { onDelete: 'set null' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('staff_invitations_token').on(t.tokenHash),
    index('staff_invitations_email').on(t.email),
  ],
)

/**
 * A staff session (cookie `shop_admin`, path /admin). `stage` says how far the login got:
 * `setup` (password known, two-factor still to set up), `challenge` (password known, code asked)
 * or `full`. It ends 30 minutes after its last request or 12 hours after it began.
 */
export const staffSessions = pgTable(
  'staff_sessions',
  {
    /** SHA-256 of the cookie's token. */
    idHash: text('id_hash').primaryKey(),
    staffUserId: integer('staff_user_id')
      .notNull()
      .references(() => staffUsers.id, { onDelete: 'cascade' }),
    stage: text('stage', { enum: ['setup', 'challenge', 'full'] }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    ip: text('ip').notNull().default(''),
  },
  (t) => [index('staff_sessions_user').on(t.staffUserId), index('staff_sessions_last_seen').on(t.lastSeenAt)],
)

/**
 * Every change made through the back office (and the system's own changes to staff), written in
 * the transaction of the change. Append-only: a trigger refuses UPDATE and DELETE.
 */
export const staffAudit = pgTable(
  'staff_audit',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** Null for the system (the demo seed). No foreign key: the rows never change. */
    actorId: integer('actor_id'),
    /** The actor's e-mail at the time, kept if the account goes. */
    actorEmail: text('actor_email').notNull(),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id').notNull(),
    before: jsonb('before').$type<Record<string, unknown> | null>(),
    after: jsonb('after').$type<Record<string, unknown> | null>(),
    ip: text('ip').notNull().default(''),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('staff_audit_at').on(t.at, t.id), index('staff_audit_target').on(t.targetType, t.targetId)],
)

export type StaffUserRow = typeof staffUsers.$inferSelect
export type StaffSessionRow = typeof staffSessions.$inferSelect
export type StaffAuditRow = typeof staffAudit.$inferSelect
