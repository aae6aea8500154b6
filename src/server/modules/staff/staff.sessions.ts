/**
 * Staff sessions (ADR 0260): a random 256-bit token in the `shop_admin` cookie, its SHA-256 in
 * `staff_sessions`. A session ends 30 minutes after its last request (idle) or 12 hours after it
 * began (absolute), whichever comes first, and at once when its account is disabled. Nothing is
 * cached in the process: every instance reads the row, so a sign-out or a disabled account is
 * seen by all instances on their next request. `last_seen_at` is written at most once a minute
 * per session.
 */
import { and, eq, lt, or } from 'drizzle-orm'
import type { Db, Executor } from '../../db/client.ts'
import { randomToken, sha256 } from '../auth/auth.crypto.ts'
import { staffSessions, staffUsers, type StaffSessionRow, type StaffUserRow } from './staff.tables.ts'

export const IDLE_MS = 30 * 60_000
export const ABSOLUTE_MS = 12 * 60 * 60_000
/** `last_seen_at` is refreshed when it is older than this (one write a minute, not one a request). */
const TOUCH_EVERY_MS = 60_000

export type SessionStage = StaffSessionRow['stage']

export interface LiveSession {
  session: StaffSessionRow
  user: StaffUserRow
}

/** Whether a session is still alive at `now` (pure: the rule the store and its tests share). */
export function sessionAlive(s: Pick<StaffSessionRow, 'createdAt' | 'lastSeenAt'>, now: number): boolean {
  return now - s.lastSeenAt.getTime() < IDLE_MS && now - s.createdAt.getTime() < ABSOLUTE_MS
}

export class StaffSessions {
  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {}

  /** Starts a session; returns the cookie's token (shown once, stored only hashed). */
  async create(
    staffUserId: number,
    stage: SessionStage,
    ip: string,
    tx: Executor = this.db,
  ): Promise<string> {
    const token = randomToken()
    const at = new Date(this.now())
    await tx
      .insert(staffSessions)
      .values({ idHash: sha256(token), staffUserId, stage, ip, createdAt: at, lastSeenAt: at })
    return token
  }

  /** The live session for a cookie token with its (enabled) account, or null; refreshes its idle clock. */
  async read(token: string | undefined): Promise<LiveSession | null> {
    if (!token || token.length > 100) return null
    const idHash = sha256(token)
    const [row] = await this.db
      .select({ session: staffSessions, user: staffUsers })
      .from(staffSessions)
      .innerJoin(staffUsers, eq(staffUsers.id, staffSessions.staffUserId))
      .where(eq(staffSessions.idHash, idHash))
      .limit(1)
    if (!row) return null
    const now = this.now()
    if (!sessionAlive(row.session, now) || row.user.disabledAt !== null) {
      await this.db.delete(staffSessions).where(eq(staffSessions.idHash, idHash))
      return null
    }
    if (now - row.session.lastSeenAt.getTime() >= TOUCH_EVERY_MS) {
      const lastSeenAt = new Date(now)
      await this.db.update(staffSessions).set({ lastSeenAt }).where(eq(staffSessions.idHash, idHash))
      row.session.lastSeenAt = lastSeenAt
    }
    return row
  }

  /**
   * Moves a session on (password → code → full) under a new token, so a token seen before the
   * login finished is worth nothing after it. Returns the new token.
   */
  async advance(token: string, stage: SessionStage): Promise<string | null> {
    return this.db.transaction(async (tx) => {
      const [old] = await tx
        .delete(staffSessions)
        .where(eq(staffSessions.idHash, sha256(token)))
        .returning()
      if (!old) return null
      const next = randomToken()
      await tx.insert(staffSessions).values({
        idHash: sha256(next),
        staffUserId: old.staffUserId,
        stage,
        ip: old.ip,
        createdAt: old.createdAt,
        lastSeenAt: new Date(this.now()),
      })
      return next
    })
  }

  async end(token: string): Promise<void> {
    await this.db.delete(staffSessions).where(eq(staffSessions.idHash, sha256(token)))
  }

  /** Ends every session of an account (disabled, role changed). */
  async endAllFor(staffUserId: number, tx: Executor = this.db): Promise<void> {
    await tx.delete(staffSessions).where(eq(staffSessions.staffUserId, staffUserId))
  }

  /** Deletes sessions past either limit (one statement: safe on every instance at once). */
  async sweep(): Promise<number> {
    const now = this.now()
    const gone = await this.db
      .delete(staffSessions)
      .where(
        or(
          lt(staffSessions.lastSeenAt, new Date(now - IDLE_MS)),
          lt(staffSessions.createdAt, new Date(now - ABSOLUTE_MS)),
        ),
      )
      .returning({ id: staffSessions.idHash })
    return gone.length
  }

  /** Test and seed helper: the stage of the session with this token. */
  async stageOf(token: string): Promise<SessionStage | null> {
    const [row] = await this.db
      .select({ stage: staffSessions.stage })
      .from(staffSessions)
      .where(and(eq(staffSessions.idHash, sha256(token))))
      .limit(1)
    return row?.stage ?? null
  }
}
