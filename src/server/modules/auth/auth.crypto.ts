/**
 * Hashing and sealing for authentication: argon2id for passwords and recovery codes (OWASP:
 * m=19 MiB, t=2, p=1), SHA-256 for 256-bit random tokens, AES-256-GCM for TOTP secrets, and the
 * TOTP code check shared by customers' and staff's two-factor.
 */
import { hash, verify } from '@node-rs/argon2'
import {
  createCipheriv,
  createDecipheriv,
  createHash,
  hkdfSync,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto'
import { verifySync } from 'otplib'

/** @node-rs/argon2's Algorithm.Argon2id (a const enum, unusable under isolatedModules). */
const ARGON2ID = 2
const ARGON2 = { algorithm: ARGON2ID, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2)
}

export async function verifyPassword(hashed: string, password: string): Promise<boolean> {
  try {
    return await verify(hashed, password)
  } catch {
    return false
  }
}

let dummy: Promise<string> | null = null
/**
 * Spends the same time as a real verification, for unknown accounts, so response timing does
 * not reveal which e-mail addresses are registered.
 */
export async function dummyVerify(password: string): Promise<false> {
  dummy ??= hashPassword(randomBytes(16).toString('hex'))
  await verifyPassword(await dummy, password)
  return false
}

/** 256 bits of randomness, URL-safe. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url')
}

export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex')
}

export function safeEqualHex(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex')
  const y = Buffer.from(b, 'hex')
  return x.length === y.length && timingSafeEqual(x, y)
}

/**
 * Prefix of the seeded demo accounts' TOTP secrets, stored unsealed because the seed runs
 * without the application secret (the demo secret is published in the README anyway).
 */
export const DEMO_SECRET_PREFIX = 'demo.'

/** Seals short secrets (TOTP) with a key derived from the application secret. */
export class SecretBox {
  private readonly key: Buffer

  constructor(appSecret: string) {
    this.key = Buffer.from(hkdfSync('sha256', appSecret, 'shop-auth', 'totp-secret', 32))
  }

  seal(plain: string): string {
    const iv = randomBytes(12)
    const cipher = createCipheriv('aes-256-gcm', this.key, iv)
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()])
    return [
      'v1',
      iv.toString('base64url'),
      cipher.getAuthTag().toString('base64url'),
      body.toString('base64url'),
    ].join('.')
  }

  open(sealed: string): string | null {
    if (sealed.startsWith(DEMO_SECRET_PREFIX)) return sealed.slice(DEMO_SECRET_PREFIX.length)
    const [v, iv, tag, body] = sealed.split('.')
    if (v !== 'v1' || !iv || !tag || !body) return null
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'))
      decipher.setAuthTag(Buffer.from(tag, 'base64url'))
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
        'utf8',
      )
    } catch {
      return null
    }
  }
}

const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789'

/** A recovery code like 'k7pq2-xm9rd-4ht6w' (75 bits), easy to read out and type. */
export function recoveryCode(): string {
  const bytes = randomBytes(15)
  let out = ''
  for (let i = 0; i < 15; i++) {
    out += RECOVERY_ALPHABET[bytes[i]! % RECOVERY_ALPHABET.length]
    if (i === 4 || i === 9) out += '-'
  }
  return out
}

export function normaliseRecoveryCode(input: string): string {
  const raw = input.toLowerCase().replace(/[^a-z0-9]/g, '')
  return raw.length === 15 ? `${raw.slice(0, 5)}-${raw.slice(5, 10)}-${raw.slice(10)}` : raw
}

/**
 * The time step a six-digit TOTP code is valid for (±1 step of drift), or null. A code of a step
 * at or before `lastStep` (the last one used) is refused, so the caller can burn the step it
 * returns with a conditional update and a code is never accepted twice.
 */
export function totpStep(
  secret: string,
  code: string,
  lastStep: number | null,
  nowMs: number,
): number | null {
  if (!/^\d{6}$/.test(code)) return null
  try {
    const result = verifySync({
      secret,
      token: code,
      epoch: Math.floor(nowMs / 1000),
      epochTolerance: 30,
      ...(lastStep !== null ? { afterTimeStep: lastStep } : {}),
    }) as { valid: boolean; timeStep?: number }
    return result.valid && result.timeStep !== undefined ? result.timeStep : null
  } catch {
    return null
  }
}
