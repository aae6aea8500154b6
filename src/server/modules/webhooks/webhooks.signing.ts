/**
 * Standard Webhooks signing (ADR 0230), with node:crypto only: a secret is `whsec_` + base64 of
 * 32 random bytes; a message is signed as `v1,<base64 HMAC-SHA256>` of `id.timestamp.body` with
 * the secret's decoded bytes; the body is signed exactly as it is sent.
 */
import { createHmac, randomBytes } from 'node:crypto'

const SECRET_PREFIX = 'whsec_'

/** A fresh endpoint secret (24–64 bytes by the specification; 32 here). */
export function newSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64')
}

/** `msg_` + time (for a reader's eye) + 96 random bits: unique, and the receiver's dedupe key. */
export function newMessageId(now: Date = new Date()): string {
  return `msg_${now.getTime().toString(36)}${randomBytes(12).toString('base64url')}`
}

export function newEndpointId(): string {
  return `ep_${randomBytes(12).toString('base64url')}`
}

function secretKey(secret: string): Buffer {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret
  const key = Buffer.from(encoded, 'base64')
  if (key.length === 0) throw new Error('a webhook secret cannot be empty')
  return key
}

/** The `webhook-signature` value of one secret: `v1,<base64>`. */
export function sign(secret: string, id: string, timestampSeconds: number, body: string): string {
  const mac = createHmac('sha256', secretKey(secret)).update(`${id}.${timestampSeconds}.${body}`, 'utf8')
  return `v1,${mac.digest('base64')}`
}

/**
 * The three Standard Webhooks headers (and the content type) of one attempt. Several secrets (the
 * new one and, for a while after a rotation, the old one) give several space-separated signatures.
 */
export function webhookHeaders(
  secrets: readonly string[],
  id: string,
  attemptAt: Date,
  body: string,
): Record<string, string> {
  const timestamp = Math.floor(attemptAt.getTime() / 1000)
  return {
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((s) => sign(s, id, timestamp, body)).join(' '),
  }
}

/** The secret as the API shows it elsewhere than at creation: its prefix and last four characters. */
export function maskSecret(secret: string): string {
  return `${SECRET_PREFIX}…${secret.slice(-4)}`
}
