import { describe, expect, it } from 'vitest'
import {
  amazonIdempotencyKey,
  idempotencyKey,
  opayoVendorTxCode,
  payaTransactionApiId,
  paypalRequestId,
} from './idempotency.ts'

const id = '3f1c2b9e-8d7a-4c1b-9f0e-2a3b4c5d6e7f'

describe('idempotency keys', () => {
  it('gives the same key for the same attempt, operation and sequence', () => {
    expect(opayoVendorTxCode({ attemptId: id, op: 'pay' })).toBe(
      opayoVendorTxCode({ attemptId: id, op: 'pay', seq: 0 }),
    )
    expect(amazonIdempotencyKey({ attemptId: id, op: 'complete' })).toBe(
      amazonIdempotencyKey({ attemptId: id, op: 'complete' }),
    )
  })

  it('gives a different key for another operation or sequence', () => {
    const keys = new Set(
      (['pay', 'capture', 'refund'] as const).flatMap((op) =>
        [0, 1, 2].map((seq) => opayoVendorTxCode({ attemptId: id, op, seq })),
      ),
    )
    expect(keys.size).toBe(9)
  })

  it("fits each provider's limits", () => {
    const parts = { attemptId: id, op: 'capture' as const, seq: 12 }
    expect(opayoVendorTxCode(parts)).toMatch(/^[A-Za-z0-9-]{1,40}$/)
    expect(amazonIdempotencyKey(parts)).toMatch(/^[a-z0-9]{32}$/)
    expect(payaTransactionApiId(parts).length).toBeLessThanOrEqual(64)
    expect(paypalRequestId(parts).length).toBeLessThanOrEqual(108)
    expect(paypalRequestId(parts)).toBe(idempotencyKey(parts))
  })
})
