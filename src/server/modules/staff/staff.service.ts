/**
 * Staff accounts (ADR 0260): invitations, passwords, required two-factor, roles and disabling.
 * Every change writes its audit row in its own transaction. Services take plain values and
 * return results; the routes turn them into pages.
 */
import { and, asc, count, eq, gt, isNull, lt, ne } from 'drizzle-orm'
import { generateSecret, generateURI } from 'otplib'
import type { Db, Executor } from '../../db/client.ts'
import {
  dummyVerify,
  hashPassword,
  randomToken,
  SecretBox,
  sha256,
  totpStep,
  verifyPassword,
} from '../auth/auth.crypto.ts'
import { RULES, Throttle } from '../auth/throttle.ts'
import { enqueueMail } from '../mail/mail.queue.ts'
import { writeAudit, type Actor } from './staff.audit.ts'
import { StaffSessions } from './staff.sessions.ts'
import { staffInvitations, staffUsers, type StaffRole, type StaffUserRow } from './staff.tables.ts'

export const INVITATION_TTL_MS = 72 * 60 * 60_000

export type LoginResult =
  | { ok: true; user: StaffUserRow }
  | { ok: false; reason: 'invalid' }
  | { ok: false; reason: 'throttled'; retryAfter: number }

export type ChangeResult = { ok: true } | { ok: false; message: string }

/** What an owner sees of an account (never its hashes or secret). */
export function presentStaff(u: StaffUserRow) {
  return {
    id: u.id,
    email: u.email,
    name: u.name,
    role: u.role,
    twoFactor: u.twoFactorConfirmedAt !== null,
    disabled: u.disabledAt !== null,
    createdAt: u.createdAt.toISOString(),
  }
}

export interface InvitationMail {
  to: string
  subject: string
  text: string
}

export class StaffService {
  readonly throttle: Throttle
  readonly sessions: StaffSessions
  private readonly box: SecretBox

  constructor(
    private readonly db: Db,
    secret: string,
    private readonly now: () => number = Date.now,
  ) {
    this.throttle = new Throttle(db, now)
    this.sessions = new StaffSessions(db, now)
    this.box = new SecretBox(secret)
  }

  async byId(id: number): Promise<StaffUserRow | null> {
    const [row] = await this.db.select().from(staffUsers).where(eq(staffUsers.id, id)).limit(1)
    return row ?? null
  }

  async list(): Promise<StaffUserRow[]> {
    return this.db.select().from(staffUsers).orderBy(asc(staffUsers.email))
  }

  async hasAnyStaff(): Promise<boolean> {
    const [row] = await this.db.select({ n: count() }).from(staffUsers)
    return (row?.n ?? 0) > 0
  }

  // --- login -------------------------------------------------------------------------------

  /**
   * Checks e-mail and password with the customers' throttle rules (per address, per account and
   * address, per account). An unknown or disabled account costs the same time as a wrong password
   * and gets the same answer.
   */
  async login(emailInput: string, password: string, ip: string): Promise<LoginResult> {
    const email = emailInput.trim().toLowerCase()
    const keys = {
      ip: `staff:login:ip:${ip}`,
      accountIp: `staff:login:${email}:${ip}`,
      account: `staff:login:${email}`,
    }
    const locked = Math.max(
      ...(await Promise.all([
        this.throttle.lockedFor(keys.ip),
        this.throttle.lockedFor(keys.accountIp),
        this.throttle.lockedFor(keys.account),
      ])),
    )
    if (locked > 0) return { ok: false, reason: 'throttled', retryAfter: locked }
    const [user] = await this.db.select().from(staffUsers).where(eq(staffUsers.email, email)).limit(1)
    const valid = user ? await verifyPassword(user.passwordHash, password) : await dummyVerify(password)
    if (user && valid && user.disabledAt === null) {
      await this.throttle.clear(keys.accountIp)
      return { ok: true, user }
    }
    const results = await Promise.all([
      this.throttle.fail(keys.ip, RULES.loginPerIp),
      this.throttle.fail(keys.accountIp, RULES.loginPerAccountAndIp),
      this.throttle.fail(keys.account, RULES.loginPerAccount),
    ])
    const lockedNow = Math.max(...results.map((r) => r.lockedFor))
    if (lockedNow > 0) return { ok: false, reason: 'throttled', retryAfter: lockedNow }
    return { ok: false, reason: 'invalid' }
  }

  // --- two-factor --------------------------------------------------------------------------

  /** Starts (or restarts, while unconfirmed) set-up: a new secret; returns it. */
  async startTwoFactor(user: StaffUserRow): Promise<string | null> {
    if (user.twoFactorConfirmedAt !== null) return null
    const secret = generateSecret()
    await this.db
      .update(staffUsers)
      .set({ twoFactorSecret: this.box.seal(secret), twoFactorLastStep: null })
      .where(and(eq(staffUsers.id, user.id), isNull(staffUsers.twoFactorConfirmedAt)))
    return secret
  }

  secretOf(user: StaffUserRow): string | null {
    return user.twoFactorSecret ? this.box.open(user.twoFactorSecret) : null
  }

  otpauthUri(user: StaffUserRow): string | null {
    const secret = this.secretOf(user)
    return secret ? generateURI({ issuer: 'Shop back office', label: user.email, secret }) : null
  }

  /** Checks a code (±1 step) and burns its time step, so it cannot be used twice. Throttled per account. */
  async checkTotp(user: StaffUserRow, code: string): Promise<{ ok: boolean; retryAfter: number }> {
    const key = `staff:2fa:${user.id}`
    const locked = await this.throttle.lockedFor(key)
    if (locked > 0) return { ok: false, retryAfter: locked }
    if (await this.verifyCode(user, code)) return { ok: true, retryAfter: 0 }
    const r = await this.throttle.fail(key, RULES.twoFactorPerAccount)
    return { ok: false, retryAfter: r.lockedFor }
  }

  private async verifyCode(user: StaffUserRow, code: string): Promise<boolean> {
    const secret = this.secretOf(user)
    const step = secret ? totpStep(secret, code, user.twoFactorLastStep, this.now()) : null
    if (step === null) return false
    const claimed = await this.db
      .update(staffUsers)
      .set({ twoFactorLastStep: step })
      .where(
        and(
          eq(staffUsers.id, user.id),
          user.twoFactorLastStep === null
            ? isNull(staffUsers.twoFactorLastStep)
            : lt(staffUsers.twoFactorLastStep, step),
        ),
      )
      .returning({ id: staffUsers.id })
    return claimed.length === 1
  }

  /** Confirms set-up with a first code (audited). */
  async confirmTwoFactor(
    user: StaffUserRow,
    code: string,
    actor: Actor,
  ): Promise<{ ok: boolean; retryAfter: number }> {
    const checked = await this.checkTotp(user, code)
    if (!checked.ok) return checked
    await this.db.transaction(async (tx) => {
      await tx
        .update(staffUsers)
        .set({ twoFactorConfirmedAt: new Date(this.now()), updatedAt: new Date(this.now()) })
        .where(eq(staffUsers.id, user.id))
      await writeAudit(tx, actor, {
        action: 'staff.two_factor.enable',
        targetType: 'staff_user',
        targetId: user.id,
        before: { twoFactor: false },
        after: { twoFactor: true },
      })
    })
    return checked
  }

  // --- invitations -------------------------------------------------------------------------

  /**
   * Invites someone: an invitation row, its audit row and its e-mail in one transaction (the mail
   * queue sends it). A second invitation to the same address replaces the first's link.
   */
  async invite(
    actor: Actor,
    input: { email: string; name: string; role: StaffRole },
    mail: (token: string) => InvitationMail,
  ): Promise<ChangeResult> {
    const token = randomToken()
    return this.db.transaction(async (tx) => {
      const [existing] = await tx
        .select({ id: staffUsers.id })
        .from(staffUsers)
        .where(eq(staffUsers.email, input.email))
      if (existing) return { ok: false, message: 'A staff account with this e-mail address already exists.' }
      // Earlier open invitations to the address stop working: only the newest link counts.
      await tx
        .update(staffInvitations)
        .set({ expiresAt: new Date(this.now()) })
        .where(and(eq(staffInvitations.email, input.email), isNull(staffInvitations.acceptedAt)))
      const [row] = await tx
        .insert(staffInvitations)
        .values({
          email: input.email,
          name: input.name,
          role: input.role,
          tokenHash: sha256(token),
          invitedBy: actor.id,
          expiresAt: new Date(this.now() + INVITATION_TTL_MS),
        })
        .returning({ id: staffInvitations.id })
      await writeAudit(tx, actor, {
        action: 'staff.invite',
        targetType: 'staff_invitation',
        targetId: row!.id,
        after: { email: input.email, name: input.name, role: input.role },
      })
      const m = mail(token)
      await enqueueMail(tx, [
        {
          dedupeKey: `staff-invitation:${row!.id}`,
          message: { to: [m.to], subject: m.subject, text: m.text },
        },
      ])
      return { ok: true } as const
    })
  }

  /** The open invitation a link's token names, or null (unknown, used or expired). */
  async openInvitation(token: string, tx: Executor = this.db) {
    if (!token || token.length > 100) return null
    const [row] = await tx
      .select()
      .from(staffInvitations)
      .where(
        and(
          eq(staffInvitations.tokenHash, sha256(token)),
          isNull(staffInvitations.acceptedAt),
          gt(staffInvitations.expiresAt, new Date(this.now())),
        ),
      )
      .limit(1)
    return row ?? null
  }

  /**
   * Accepts an invitation: the account is created with the password, the invitation used up,
   * once however often the form is sent (the row is claimed by a conditional update).
   */
  async acceptInvitation(token: string, password: string, ip: string): Promise<StaffUserRow | null> {
    const passwordHash = await hashPassword(password)
    return this.db.transaction(async (tx) => {
      const [inv] = await tx
        .update(staffInvitations)
        .set({ acceptedAt: new Date(this.now()) })
        .where(
          and(
            eq(staffInvitations.tokenHash, sha256(token)),
            isNull(staffInvitations.acceptedAt),
            gt(staffInvitations.expiresAt, new Date(this.now())),
          ),
        )
        .returning()
      if (!inv) return null
      const [user] = await tx
        .insert(staffUsers)
        .values({ email: inv.email, name: inv.name, role: inv.role, passwordHash })
        .onConflictDoNothing({ target: staffUsers.email })
        .returning()
      if (!user) return null
      await writeAudit(
        tx,
        { id: user.id, email: user.email, ip },
        {
          action: 'staff.invitation.accept',
          targetType: 'staff_user',
          targetId: user.id,
          after: { email: user.email, name: user.name, role: user.role },
        },
      )
      return user
    })
  }

  // --- roles and disabling -----------------------------------------------------------------

  /** Another enabled owner than `id` exists (the shop never loses its last owner). */
  private async anotherOwner(tx: Executor, id: number): Promise<boolean> {
    const [row] = await tx
      .select({ n: count() })
      .from(staffUsers)
      .where(and(eq(staffUsers.role, 'owner'), isNull(staffUsers.disabledAt), ne(staffUsers.id, id)))
    return (row?.n ?? 0) > 0
  }

  async changeRole(actor: Actor, id: number, role: StaffRole): Promise<ChangeResult> {
    if (actor.id === id) return { ok: false, message: 'You cannot change your own role.' }
    return this.db.transaction(async (tx) => {
      const [user] = await tx.select().from(staffUsers).where(eq(staffUsers.id, id)).for('update')
      if (!user) return { ok: false, message: 'This staff account does not exist.' }
      if (user.role === role) return { ok: true } as const
      if (user.role === 'owner' && !(await this.anotherOwner(tx, id)))
        return { ok: false, message: 'The shop needs at least one owner.' }
      await tx
        .update(staffUsers)
        .set({ role, updatedAt: new Date(this.now()) })
        .where(eq(staffUsers.id, id))
      // Sessions carry no role (it is read on every request), so they may go on.
      await writeAudit(tx, actor, {
        action: 'staff.role',
        targetType: 'staff_user',
        targetId: id,
        before: { role: user.role },
        after: { role },
      })
      return { ok: true } as const
    })
  }

  async disable(actor: Actor, id: number): Promise<ChangeResult> {
    if (actor.id === id) return { ok: false, message: 'You cannot disable your own account.' }
    return this.db.transaction(async (tx) => {
      const [user] = await tx.select().from(staffUsers).where(eq(staffUsers.id, id)).for('update')
      if (!user) return { ok: false, message: 'This staff account does not exist.' }
      if (user.disabledAt !== null) return { ok: true } as const
      if (user.role === 'owner' && !(await this.anotherOwner(tx, id)))
        return { ok: false, message: 'The shop needs at least one owner.' }
      const at = new Date(this.now())
      await tx.update(staffUsers).set({ disabledAt: at, updatedAt: at }).where(eq(staffUsers.id, id))
      await this.sessions.endAllFor(id, tx)
      await writeAudit(tx, actor, {
        action: 'staff.disable',
        targetType: 'staff_user',
        targetId: id,
        before: { disabled: false },
        after: { disabled: true },
      })
      return { ok: true } as const
    })
  }

  /**
   * Creates an owner directly (the demo seed, and a shop's first owner from the command line).
   * With `totpSecret` two-factor is already on; without, it is set up at the first login.
   */
  async createOwner(
    actor: Actor,
    input: { email: string; name: string; password: string; totpSecret?: string },
  ): Promise<StaffUserRow | null> {
    const passwordHash = await hashPassword(input.password)
    return this.db.transaction(async (tx) => {
      const [user] = await tx
        .insert(staffUsers)
        .values({
          email: input.email.toLowerCase(),
          name: input.name,
          role: 'owner',
          passwordHash,
          ...(input.totpSecret
            ? { twoFactorSecret: this.box.seal(input.totpSecret), twoFactorConfirmedAt: new Date(this.now()) }
            : {}),
        })
        .onConflictDoNothing({ target: staffUsers.email })
        .returning()
      if (!user) return null
      await writeAudit(tx, actor, {
        action: 'staff.create_owner',
        targetType: 'staff_user',
        targetId: user.id,
        after: { email: user.email, name: user.name, role: 'owner' },
      })
      return user
    })
  }
}
