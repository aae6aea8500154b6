/**
 * The bot check behind one interface. When a site's `botCheck` setting is '1', registration and
 * forgot-password need a token in `g-recaptcha-response`. Embedded default: ALTCHA proof of work
 * (self-hosted, no third party; the browser solves an HMAC-signed challenge invisibly). Adapter:
 * Google reCAPTCHA (server-side siteverify). Each token is accepted once.
 */
import { createChallenge, verifySolution } from 'altcha-lib/v1'
import { lt, sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { AUTH_MESSAGES, type BotCheckProps } from '../../../shared/auth.ts'
import { sha256 } from './auth.crypto.ts'
import { usedBotTokens } from './auth.tables.ts'

export const BOT_FIELD = 'g-recaptcha-response'
export const ALTCHA_CHALLENGE_PATH = '/auth/bot-challenge'
const ALTCHA_TTL_MS = 10 * 60_000

export type BotVerdict = { ok: true } | { ok: false; message: string }

export interface BotChecker {
  /** What the browser needs to run the check. */
  props(): BotCheckProps
  /** Verifies a token once (a replay is refused). */
  verify(token: string | undefined, remoteIp: string): Promise<BotVerdict>
}

/** Records a token as used; false when it was used before. */
async function claim(db: Db, token: string, expiresAt: Date): Promise<boolean> {
  await db.delete(usedBotTokens).where(lt(usedBotTokens.expiresAt, new Date()))
  const rows = await db
    .insert(usedBotTokens)
    .values({ tokenHash: sha256(token), expiresAt })
    .onConflictDoNothing()
    .returning({ t: sql`1` })
  return rows.length === 1
}

export class AltchaBotChecker implements BotChecker {
  constructor(
    private readonly db: Db,
    private readonly hmacKey: string,
    /** Proof-of-work difficulty: the largest number the browser may have to try. */
    private readonly maxNumber = 50_000,
  ) {}

  props(): BotCheckProps {
    return { provider: 'altcha', challengeUrl: ALTCHA_CHALLENGE_PATH }
  }

  challenge() {
    return createChallenge({
      hmacKey: this.hmacKey,
      maxNumber: this.maxNumber,
      expires: new Date(Date.now() + ALTCHA_TTL_MS),
    })
  }

  async verify(token: string | undefined, _remoteIp: string): Promise<BotVerdict> {
    if (!token) return { ok: false, message: AUTH_MESSAGES.botMissing }
    let payload: unknown
    try {
      payload = JSON.parse(Buffer.from(token, 'base64').toString('utf8'))
    } catch {
      return { ok: false, message: AUTH_MESSAGES.botInvalid }
    }
    if (!payload || typeof payload !== 'object') return { ok: false, message: AUTH_MESSAGES.botInvalid }
    let valid: boolean
    try {
      valid = await verifySolution(payload as never, this.hmacKey, true)
    } catch {
      valid = false
    }
    if (!valid) return { ok: false, message: AUTH_MESSAGES.botInvalid }
    const fresh = await claim(this.db, token, new Date(Date.now() + ALTCHA_TTL_MS))
    return fresh ? { ok: true } : { ok: false, message: AUTH_MESSAGES.botInvalid }
  }
}

export type Fetch = (
  url: string,
  init: { method: string; body: URLSearchParams },
) => Promise<{ ok: boolean; json(): Promise<unknown> }>

/** Google reCAPTCHA (v2 invisible or v3): the token is checked with Google's siteverify endpoint. */
export class RecaptchaBotChecker implements BotChecker {
  constructor(
    private readonly db: Db,
    private readonly siteKey: string,
    private readonly secret: string,
    private readonly verifyUrl = 'https://www.google.com/recaptcha/api/siteverify',
    private readonly fetchImpl: Fetch = fetch as unknown as Fetch,
    private readonly minScore = 0.5,
  ) {}

  props(): BotCheckProps {
    return { provider: 'recaptcha', siteKey: this.siteKey }
  }

  async verify(token: string | undefined, remoteIp: string): Promise<BotVerdict> {
    if (!token) return { ok: false, message: AUTH_MESSAGES.botMissing }
    try {
      const res = await this.fetchImpl(this.verifyUrl, {
        method: 'POST',
        body: new URLSearchParams({ secret: this.secret, response: token, remoteip: remoteIp }),
      })
      const body = (res.ok ? await res.json() : {}) as { success?: boolean; score?: number }
      const passed = body.success === true && (body.score === undefined || body.score >= this.minScore)
      if (!passed) return { ok: false, message: AUTH_MESSAGES.botInvalid }
    } catch {
      return { ok: false, message: AUTH_MESSAGES.botInvalid }
    }
    // Google refuses replays too ('timeout-or-duplicate'); this keeps the promise locally as well.
    const fresh = await claim(this.db, token, new Date(Date.now() + 10 * 60_000))
    return fresh ? { ok: true } : { ok: false, message: AUTH_MESSAGES.botInvalid }
  }
}
