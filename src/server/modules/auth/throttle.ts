/**
 * Failure counters in the database, shared by every app process: a key (login per account,
 * per account and address, per address; two-factor per account; reset mails per account) counts
 * failures in a fixed window and locks when a rule says so. Counting is one atomic upsert.
 */
import { eq, sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { authThrottle } from './auth.tables.ts'

export interface ThrottleRule {
  /** Failures counted within this window. */
  windowMs: number
  /** The failure count from which the key is locked. */
  max: number
  /** How long a lock lasts for the given failure count (≥ max). */
  lockMs: (failures: number) => number
}

export class Throttle {
  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {}

  /** Seconds until the key may try again; 0 when it is not locked. */
  async lockedFor(key: string): Promise<number> {
    const [row] = await this.db
      .select({ lockedUntil: authThrottle.lockedUntil })
      .from(authThrottle)
      .where(eq(authThrottle.key, key))
      .limit(1)
    const until = row?.lockedUntil?.getTime() ?? 0
    return Math.max(0, Math.ceil((until - this.now()) / 1000))
  }

  /** Records a failure; returns the failure count in the window and the lock in seconds (0: none). */
  async fail(key: string, rule: ThrottleRule): Promise<{ failures: number; lockedFor: number }> {
    const now = new Date(this.now())
    const windowFloor = new Date(this.now() - rule.windowMs)
    const [row] = await this.db
      .insert(authThrottle)
      .values({ key, failures: 1, windowStart: now })
      .onConflictDoUpdate({
        target: authThrottle.key,
        set: {
          failures: sql`case when ${authThrottle.windowStart} < ${windowFloor} then 1 else ${authThrottle.failures} + 1 end`,
          windowStart: sql`case when ${authThrottle.windowStart} < ${windowFloor} then ${now} else ${authThrottle.windowStart} end`,
        },
      })
      .returning({ failures: authThrottle.failures })
    const failures = row?.failures ?? 1
    if (failures < rule.max) return { failures, lockedFor: 0 }
    const lockMs = rule.lockMs(failures)
    await this.db
      .update(authThrottle)
      .set({ lockedUntil: new Date(this.now() + lockMs) })
      .where(eq(authThrottle.key, key))
    return { failures, lockedFor: Math.ceil(lockMs / 1000) }
  }

  async clear(key: string): Promise<void> {
    await this.db.delete(authThrottle).where(eq(authThrottle.key, key))
  }
}

const MINUTE = 60_000

/** The limits (reliability.md T13, T17), in one place. */
export const RULES = {
  /** Per client address, across accounts: 20 failures a minute, then a minute's pause. */
  loginPerIp: { windowMs: MINUTE, max: 20, lockMs: () => MINUTE },
  /** Per account from one address: after 5 failures a pause doubling from 30 s up to 15 min. */
  loginPerAccountAndIp: {
    windowMs: 15 * MINUTE,
    max: 5,
    lockMs: (n: number) => Math.min(15 * MINUTE, 30_000 * 2 ** (n - 5)),
  },
  /** Per account from anywhere: at most 100 failures an hour (ASVS 2.2.1). */
  loginPerAccount: { windowMs: 60 * MINUTE, max: 100, lockMs: () => 60 * MINUTE },
  /** Two-factor codes per account: 10 failures a day, then a day's cooldown. */
  twoFactorPerAccount: { windowMs: 24 * 60 * MINUTE, max: 10, lockMs: () => 24 * 60 * MINUTE },
  /** Reset and verification mails per address: 3 an hour (the response never says so). */
  mailPerAccount: { windowMs: 60 * MINUTE, max: 3, lockMs: () => 60 * MINUTE },
  /** Forgot-password and resend requests per client address: 10 a minute. */
  mailPerIp: { windowMs: MINUTE, max: 10, lockMs: () => MINUTE },
} satisfies Record<string, ThrottleRule>
