/**
 * Authentication as plain operations on the database: accounts, passwords, remember-me tokens,
 * reset and verification links, two-factor. Knows nothing of HTTP; the routes translate.
 */
import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm'
import { LRUCache } from 'lru-cache'
import { generateSecret, generateURI } from 'otplib'
import type { Db, Tx } from '../../db/client.ts'
import { sessions } from '../../plugins/session.tables.ts'
import {
  customers,
  emailVerificationTokens,
  passwordResetTokens,
  recoveryCodes,
  rememberTokens,
  type CustomerRow,
} from './auth.tables.ts'
import {
  dummyVerify,
  hashPassword,
  normaliseRecoveryCode,
  randomToken,
  recoveryCode,
  safeEqualHex,
  SecretBox,
  sha256,
  totpStep,
  verifyPassword,
} from './auth.crypto.ts'
import { RULES, Throttle } from './throttle.ts'
import { recordCache } from '../../lib/cache-stats.ts'

export const RESET_TTL_MS = 60 * 60_000
export const VERIFY_TTL_MS = 24 * 60 * 60_000
export const RECOVERY_CODE_COUNT = 8

export interface NewCustomer {
  email: string
  password: string
  firstName: string
  lastName: string
  kind?: 'standard' | 'club'
  company?: string | null
  phone?: string | null
  address1?: string | null
  town?: string | null
  postcode?: string | null
}

/** A new account's details as registered (the password already hashed away). */
export type RegisteredDetails = Omit<NewCustomer, 'password'> & { email: string }

/**
 * Kept with a new account in its own transaction: the customers module writes the registration's
 * details into the address book (the primary contact, a club's address). The app passes it in, so
 * that authentication does not reach into the address book's tables.
 */
export type OnRegistered = (tx: Tx, customer: CustomerRow, details: RegisteredDetails) => Promise<void>

export type LoginResult =
  | { ok: true; customer: CustomerRow }
  | { ok: false; reason: 'credentials' }
  /** The right password for an account the back office disabled (told only after the password). */
  | { ok: false; reason: 'disabled' }
  | { ok: false; reason: 'throttled'; retryAfter: number }

/**
 * What every request of a logged-in customer needs of the account: the site it belongs to, the
 * session generation it must match, and the header's name and e-mail.
 */
export interface CustomerFacts {
  id: number
  siteId: number
  sessionGeneration: number
  firstName: string
  lastName: string
  email: string
  /** The back office reset their two-factor: their pages lead to setting it up until it is on. */
  twoFactorSetupDue: boolean
}

/** How long cached customer facts may go unchecked at most (a missed notification's worst case). */
export const CUSTOMER_FACTS_TTL_MS = 60_000

export class AuthService {
  readonly throttle: Throttle
  private readonly box: SecretBox
  /**
   * Customer facts by id, so a logged-in page reads no customer row. How this cache learns of a
   * change made by another instance: a write that changes a fact (the session generation, at a
   * password reset or change) calls `customerChanged(id)` after its commit, which the auth plugin
   * publishes on the change bus (topic `customer`); the other instances `forgetCustomer(id)`. A
   * lost listening connection drops everything (`forgetAllCustomers`); nothing is used after
   * `CUSTOMER_FACTS_TTL_MS`.
   */
  private readonly facts = new LRUCache<number, CustomerFacts>({ max: 50_000, ttl: CUSTOMER_FACTS_TTL_MS })
  /** Bumped by every forget: a read that overlapped one does not fill the cache. */
  private factsEpoch = 0
  /** Told after this instance changed a customer's facts (the change bus, the session cache). */
  onCustomerChange: ((id: number) => void) | null = null

  constructor(
    private readonly db: Db,
    appSecret: string,
    private readonly onRegistered: OnRegistered,
    private readonly now: () => number = Date.now,
  ) {
    this.throttle = new Throttle(db, now)
    this.box = new SecretBox(appSecret)
  }

  // --- accounts ------------------------------------------------------------------------

  /** A customer's facts (cached; see `facts`), or null when there is no such customer. */
  async factsOf(id: number): Promise<CustomerFacts | null> {
    const cached = this.facts.get(id)
    recordCache('customer-facts', cached !== undefined)
    if (cached) return cached
    const epoch = this.factsEpoch
    const [row] = await this.db
      .select({
        id: customers.id,
        siteId: customers.siteId,
        sessionGeneration: customers.sessionGeneration,
        firstName: customers.firstName,
        lastName: customers.lastName,
        email: customers.email,
        twoFactorSetupDue: sql<boolean>`${customers.twoFactorResetAt} is not null`,
      })
      .from(customers)
      .where(eq(customers.id, id))
      .limit(1)
    if (!row) return null
    if (epoch === this.factsEpoch) this.facts.set(id, row)
    return row
  }

  /** This instance changed (and committed) a customer's facts: forget them here and everywhere. */
  customerChanged(id: number): void {
    this.forgetCustomer(id)
    this.onCustomerChange?.(id)
  }

  /** Another instance changed this customer. */
  forgetCustomer(id: number): void {
    this.factsEpoch++
    this.facts.delete(id)
  }

  /** Notifications may have been missed. */
  forgetAllCustomers(): void {
    this.factsEpoch++
    this.facts.clear()
  }

  async byId(id: number): Promise<CustomerRow | null> {
    const [row] = await this.db.select().from(customers).where(eq(customers.id, id)).limit(1)
    return row ?? null
  }

  async byEmail(siteId: number, email: string): Promise<CustomerRow | null> {
    const [row] = await this.db
      .select()
      .from(customers)
      .where(and(eq(customers.siteId, siteId), eq(customers.email, email.trim().toLowerCase())))
      .limit(1)
    return row ?? null
  }

  /**
   * Creates the account, or returns `created: false` (after the same hashing work) when the
   * address already has one, so the caller can answer both cases identically.
   */
  async register(
    siteId: number,
    input: NewCustomer,
  ): Promise<{ created: boolean; customer: CustomerRow | null }> {
    const { password, ...rest } = input
    return this.registerHashed(siteId, { ...rest, passwordHash: await hashPassword(password) })
  }

  /** The password's hash for a new account (the costly step of registering). */
  hashFor(password: string): Promise<string> {
    return hashPassword(password)
  }

  /** `register()` with the password already hashed (by `hashFor`). */
  async registerHashed(
    siteId: number,
    input: Omit<NewCustomer, 'password'> & { passwordHash: string },
  ): Promise<{ created: boolean; customer: CustomerRow | null }> {
    const { passwordHash, ...details } = input
    const email = input.email.trim().toLowerCase()
    return this.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(customers)
        .values({
          siteId,
          email,
          username: email,
          passwordHash,
          firstName: input.firstName,
          lastName: input.lastName,
          kind: input.kind ?? 'standard',
          company: input.company ?? null,
        })
        .onConflictDoNothing({ target: [customers.siteId, customers.email] })
        .returning()
      if (!row) return { created: false, customer: null }
      await this.onRegistered(tx, row, { ...details, email })
      return { created: true, customer: row }
    })
  }

  /** Whether the account is a guest's (made by a checkout, no password yet). */
  isGuest(customer: CustomerRow): boolean {
    return customer.passwordHash === null
  }

  // --- login ---------------------------------------------------------------------------

  private loginKeys(siteId: number, email: string, ip: string) {
    const account = `${siteId}:${email}`
    return {
      ip: `login:ip:${ip}`,
      accountIp: `login:acct-ip:${account}:${ip}`,
      account: `login:acct:${account}`,
    }
  }

  /**
   * Checks a password with throttling per address, per account and address, and per account.
   * Unknown e-mails cost the same argon2 work and count the same failures as known ones.
   */
  async attemptLogin(siteId: number, email: string, password: string, ip: string): Promise<LoginResult> {
    const keys = this.loginKeys(siteId, email, ip)
    const locks = await Promise.all([
      this.throttle.lockedFor(keys.ip),
      this.throttle.lockedFor(keys.accountIp),
      this.throttle.lockedFor(keys.account),
    ])
    const locked = Math.max(...locks)
    if (locked > 0) return { ok: false, reason: 'throttled', retryAfter: locked }

    const customer = await this.byEmail(siteId, email)
    // A guest account has no password: the same work and answer as an unknown address.
    const valid = customer?.passwordHash
      ? await verifyPassword(customer.passwordHash, password)
      : await dummyVerify(password)
    if (customer && valid) {
      await this.throttle.clear(keys.accountIp)
      if (customer.disabledAt) return { ok: false, reason: 'disabled' }
      return { ok: true, customer }
    }
    const results = await Promise.all([
      this.throttle.fail(keys.ip, RULES.loginPerIp),
      this.throttle.fail(keys.accountIp, RULES.loginPerAccountAndIp),
      this.throttle.fail(keys.account, RULES.loginPerAccount),
    ])
    const lockedNow = Math.max(...results.map((r) => r.lockedFor))
    if (lockedNow > 0) return { ok: false, reason: 'throttled', retryAfter: lockedNow }
    return { ok: false, reason: 'credentials' }
  }

  async checkPassword(customer: CustomerRow, password: string): Promise<boolean> {
    if (!customer.passwordHash) return dummyVerify(password)
    return verifyPassword(customer.passwordHash, password)
  }

  // --- remember me ---------------------------------------------------------------------

  /** A new remember-me token; the cookie value is `selector.validator`. */
  async createRememberToken(customerId: number, ttlMs: number): Promise<string> {
    const selector = randomToken(12)
    const validator = randomToken(32)
    await this.db.insert(rememberTokens).values({
      customerId,
      selector,
      validatorHash: sha256(validator),
      expiresAt: new Date(this.now() + ttlMs),
    })
    return `${selector}.${validator}`
  }

  /**
   * Logs in by a remember-me cookie: on success the token is rotated (a new validator, same
   * expiry) and the new cookie value returned. A known selector with a wrong validator means the
   * token was stolen and already used: every remember token of that customer is revoked.
   */
  async useRememberToken(
    value: string,
  ): Promise<{ customerId: number; cookie: string; expiresAt: Date } | null> {
    const [selector, validator] = value.split('.')
    if (!selector || !validator || selector.length > 64 || validator.length > 128) return null
    const [row] = await this.db
      .select()
      .from(rememberTokens)
      .where(eq(rememberTokens.selector, selector))
      .limit(1)
    if (!row) return null
    if (row.expiresAt.getTime() <= this.now()) {
      await this.db.delete(rememberTokens).where(eq(rememberTokens.id, row.id))
      return null
    }
    if (!safeEqualHex(row.validatorHash, sha256(validator))) {
      await this.db.delete(rememberTokens).where(eq(rememberTokens.customerId, row.customerId))
      return null
    }
    const next = randomToken(32)
    const updated = await this.db
      .update(rememberTokens)
      .set({ validatorHash: sha256(next) })
      .where(and(eq(rememberTokens.id, row.id), eq(rememberTokens.validatorHash, row.validatorHash)))
      .returning({ id: rememberTokens.id })
    if (updated.length === 0) return null
    return { customerId: row.customerId, cookie: `${selector}.${next}`, expiresAt: row.expiresAt }
  }

  async forgetRememberToken(value: string): Promise<void> {
    const [selector] = value.split('.')
    if (selector) await this.db.delete(rememberTokens).where(eq(rememberTokens.selector, selector))
  }

  // --- password reset ------------------------------------------------------------------

  /**
   * Issues a reset token for the account (older unused ones stop working) and returns it, or
   * null for an unknown address or when the per-account mail limit is reached.
   */
  async issueResetToken(
    siteId: number,
    email: string,
  ): Promise<{ customer: CustomerRow; token: string } | null> {
    const customer = await this.byEmail(siteId, email)
    const limit = await this.throttle.fail(`mail:reset:${siteId}:${email}`, RULES.mailPerAccount)
    if (!customer || limit.failures > RULES.mailPerAccount.max) return null
    const token = randomToken(32)
    await this.db.transaction(async (tx) => {
      await tx.delete(passwordResetTokens).where(eq(passwordResetTokens.customerId, customer.id))
      await tx.insert(passwordResetTokens).values({
        customerId: customer.id,
        tokenHash: sha256(token),
        expiresAt: new Date(this.now() + RESET_TTL_MS),
      })
    })
    return { customer, token }
  }

  /**
   * Sets a new password with a reset token bound to this e-mail address: single use, unexpired.
   * Ends the account's other sessions and remember-me logins and clears its login throttle.
   * Two-factor stays on.
   */
  async resetPassword(
    siteId: number,
    email: string,
    token: string,
    password: string,
  ): Promise<CustomerRow | null> {
    const customer = await this.byEmail(siteId, email)
    if (!customer) return null
    const passwordHash = await hashPassword(password)
    const updated = await this.db.transaction(async (tx) => {
      const used = await tx
        .update(passwordResetTokens)
        .set({ usedAt: new Date(this.now()) })
        .where(
          and(
            eq(passwordResetTokens.tokenHash, sha256(token)),
            eq(passwordResetTokens.customerId, customer.id),
            isNull(passwordResetTokens.usedAt),
            gt(passwordResetTokens.expiresAt, new Date(this.now())),
          ),
        )
        .returning({ id: passwordResetTokens.id })
      if (used.length === 0) return null
      await tx
        .delete(passwordResetTokens)
        .where(and(eq(passwordResetTokens.customerId, customer.id), isNull(passwordResetTokens.usedAt)))
      await tx.delete(rememberTokens).where(eq(rememberTokens.customerId, customer.id))
      // Every logged-in session of the account ends: database sessions are deleted here, and any
      // session (Redis too) carries the generation it logged in under, now out of date.
      await tx.delete(sessions).where(sql`${sessions.data}->>'customerId' = ${String(customer.id)}`)
      const [row] = await tx
        .update(customers)
        .set({
          passwordHash,
          sessionGeneration: sql`${customers.sessionGeneration} + 1`,
          updatedAt: new Date(this.now()),
        })
        .where(eq(customers.id, customer.id))
        .returning()
      return row ?? null
    })
    if (updated) this.customerChanged(customer.id)
    // A lock-out attack on the account never outlives its owner's reset.
    if (updated) await this.throttle.clear(`login:acct:${siteId}:${customer.email}`)
    return updated
  }

  // --- e-mail verification -------------------------------------------------------------

  async issueVerificationToken(customer: CustomerRow): Promise<string> {
    const token = randomToken(32)
    await this.db.insert(emailVerificationTokens).values({
      customerId: customer.id,
      email: customer.email,
      tokenHash: sha256(token),
      expiresAt: new Date(this.now() + VERIFY_TTL_MS),
    })
    return token
  }

  /** Whether another verification mail may go to this address now (3 an hour). */
  async mayMail(kind: string, siteId: number, email: string): Promise<boolean> {
    const r = await this.throttle.fail(`mail:${kind}:${siteId}:${email}`, RULES.mailPerAccount)
    return r.failures <= RULES.mailPerAccount.max
  }

  /** Marks the address verified when the token belongs to this customer and that very address. */
  async verifyEmail(customerId: number, token: string): Promise<CustomerRow | null> {
    const customer = await this.byId(customerId)
    if (!customer) return null
    return this.db.transaction(async (tx) => {
      const used = await tx
        .update(emailVerificationTokens)
        .set({ usedAt: new Date(this.now()) })
        .where(
          and(
            eq(emailVerificationTokens.tokenHash, sha256(token)),
            eq(emailVerificationTokens.customerId, customer.id),
            eq(emailVerificationTokens.email, customer.email),
            isNull(emailVerificationTokens.usedAt),
            gt(emailVerificationTokens.expiresAt, new Date(this.now())),
          ),
        )
        .returning({ id: emailVerificationTokens.id })
      if (used.length === 0) return null
      const [row] = await tx
        .update(customers)
        .set({
          emailVerifiedAt: customer.emailVerifiedAt ?? new Date(this.now()),
          updatedAt: new Date(this.now()),
        })
        .where(eq(customers.id, customer.id))
        .returning()
      return row ?? null
    })
  }

  // --- two-factor ----------------------------------------------------------------------

  hasTwoFactor(customer: CustomerRow): boolean {
    return customer.twoFactorConfirmedAt !== null && customer.twoFactorSecret !== null
  }

  /** Starts (or restarts) set-up: a new secret, not required at login until confirmed. */
  async startTwoFactor(customer: CustomerRow): Promise<string> {
    const secret = generateSecret()
    await this.db
      .update(customers)
      .set({ twoFactorSecret: this.box.seal(secret), twoFactorConfirmedAt: null, twoFactorLastStep: null })
      .where(eq(customers.id, customer.id))
    await this.db.delete(recoveryCodes).where(eq(recoveryCodes.customerId, customer.id))
    return secret
  }

  secretOf(customer: CustomerRow): string | null {
    return customer.twoFactorSecret ? this.box.open(customer.twoFactorSecret) : null
  }

  otpauthUri(customer: CustomerRow, issuer: string): string | null {
    const secret = this.secretOf(customer)
    return secret ? generateURI({ issuer, label: customer.email, secret }) : null
  }

  /**
   * Checks a TOTP code (±1 step of drift) and burns its time step, so the same code, or an
   * older one, is refused afterwards.
   */
  async checkTotp(customer: CustomerRow, code: string): Promise<boolean> {
    const secret = this.secretOf(customer)
    const step = secret ? totpStep(secret, code, customer.twoFactorLastStep, this.now()) : null
    if (step === null) return false
    const claimed = await this.db
      .update(customers)
      .set({ twoFactorLastStep: step })
      .where(
        and(
          eq(customers.id, customer.id),
          customer.twoFactorLastStep === null
            ? isNull(customers.twoFactorLastStep)
            : lt(customers.twoFactorLastStep, step),
        ),
      )
      .returning({ id: customers.id })
    return claimed.length === 1
  }

  /** Confirms set-up with a first code; returns the recovery codes to show once. */
  async confirmTwoFactor(customer: CustomerRow, code: string): Promise<string[] | null> {
    if (!(await this.checkTotp(customer, code))) return null
    await this.db
      .update(customers)
      .set({ twoFactorConfirmedAt: new Date(this.now()), twoFactorResetAt: null })
      .where(eq(customers.id, customer.id))
    if (customer.twoFactorResetAt) this.customerChanged(customer.id)
    return this.replaceRecoveryCodes(customer.id)
  }

  async replaceRecoveryCodes(customerId: number): Promise<string[]> {
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => recoveryCode())
    const hashes = await Promise.all(codes.map((c) => hashPassword(c)))
    await this.db.transaction(async (tx) => {
      await tx.delete(recoveryCodes).where(eq(recoveryCodes.customerId, customerId))
      await tx.insert(recoveryCodes).values(hashes.map((codeHash) => ({ customerId, codeHash })))
    })
    return codes
  }

  async unusedRecoveryCodeCount(customerId: number): Promise<number> {
    const rows = await this.db
      .select({ id: recoveryCodes.id })
      .from(recoveryCodes)
      .where(and(eq(recoveryCodes.customerId, customerId), isNull(recoveryCodes.usedAt)))
    return rows.length
  }

  /** Uses up a recovery code if it matches one of the unused ones. */
  async useRecoveryCode(customer: CustomerRow, input: string): Promise<boolean> {
    const code = normaliseRecoveryCode(input)
    if (code.length < 10 || code.length > 40) return false
    const rows = await this.db
      .select()
      .from(recoveryCodes)
      .where(and(eq(recoveryCodes.customerId, customer.id), isNull(recoveryCodes.usedAt)))
    for (const row of rows) {
      if (await verifyPassword(row.codeHash, code)) {
        const used = await this.db
          .update(recoveryCodes)
          .set({ usedAt: new Date(this.now()) })
          .where(and(eq(recoveryCodes.id, row.id), isNull(recoveryCodes.usedAt)))
          .returning({ id: recoveryCodes.id })
        return used.length === 1
      }
    }
    return false
  }

  async disableTwoFactor(customer: CustomerRow): Promise<void> {
    await this.db
      .update(customers)
      .set({ twoFactorSecret: null, twoFactorConfirmedAt: null, twoFactorLastStep: null })
      .where(eq(customers.id, customer.id))
    await this.db.delete(recoveryCodes).where(eq(recoveryCodes.customerId, customer.id))
  }
}
