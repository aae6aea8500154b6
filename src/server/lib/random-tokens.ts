/**
 * Per-request random tokens (the CSP nonce) drawn from a pool of cryptographically random bytes
 * refilled a few kilobytes at a time: one call into the system's random source per 256 tokens
 * instead of one per request (the same batching Node's randomUUID() does). Every byte is used
 * once; the pool is private to this module.
 */
import { randomFillSync } from 'node:crypto'

export function randomTokens(bytesPerToken: number, tokensPerFill = 256): () => string {
  const pool = Buffer.alloc(bytesPerToken * tokensPerFill)
  let offset = pool.length
  return () => {
    if (offset + bytesPerToken > pool.length) {
      randomFillSync(pool)
      offset = 0
    }
    const token = pool.toString('base64', offset, offset + bytesPerToken)
    offset += bytesPerToken
    return token
  }
}
