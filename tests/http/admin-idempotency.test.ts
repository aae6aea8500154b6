/**
 * Idempotency-Key on the back-office API's writes (ADR 0220), through HTTP on a real database:
 * a repeat answers the stored answer without running again, another request under the same key
 * is refused, a key whose request still runs answers 409, and expired keys are swept.
 */
import { and, eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { adminIdempotency, promotions } from '../../src/server/db/schema.ts'
import {
  claimKey,
  IDEMPOTENCY_MESSAGES,
  requestHash,
  sweepIdempotencyKeys,
} from '../../src/server/modules/admin/admin.idempotency.ts'
import { AdminTokens } from '../../src/server/modules/admin/admin.tokens.ts'
import { buildTestApp, type TestApp } from '../helpers/app.ts'
import { siteIdFor } from '../factories/product.ts'

let t: TestApp
let token: string
let tokenId: number
let otherToken: string
let siteId: number
beforeAll(async () => {
  t = await buildTestApp()
  const tokens = new AdminTokens(t.app.db)
  ;({ token, id: tokenId } = await tokens.create('localhost', 'idempotency'))
  ;({ token: otherToken } = await tokens.create('localhost', 'second system'))
  siteId = await siteIdFor(t.app.db)
})
afterAll(async () => {
  await t?.close()
})

const put = (path: string, payload: unknown, key?: string, as = token) =>
  t.app.inject({
    method: 'PUT',
    url: `/api/admin/v1${path}`,
    headers: {
      host: 'localhost',
      authorization: `Bearer ${as}`,
      ...(key === undefined ? {} : { 'idempotency-key': key }),
    },
    payload: payload as object,
  })

const promotion = (code: string, value: number) => ({ items: [{ code, kind: 'percentage', value }] })
const promotionValue = async (code: string) => {
  const [row] = await t.app.db
    .select({ value: promotions.value })
    .from(promotions)
    .where(and(eq(promotions.siteId, siteId), eq(promotions.code, code)))
  return row?.value ?? null
}

describe('a write with an Idempotency-Key', () => {
  it('answers a repeat with the stored answer and does not run it again', async () => {
    const first = await put('/promotions', promotion('IDEM1', 10), 'key-idem-1')
    expect(first.statusCode, first.body).toBe(200)
    expect(first.json()).toEqual({ created: 1, updated: 0 })
    expect(first.headers['idempotent-replayed']).toBeUndefined()

    // Changed since by another means: a replay must not write its values back.
    await put('/promotions', promotion('IDEM1', 25))
    const again = await put('/promotions', promotion('IDEM1', 10), 'key-idem-1')
    expect(again.statusCode).toBe(200)
    expect(again.headers['idempotent-replayed']).toBe('true')
    // Had it run again, it would have answered updated: 1.
    expect(again.json()).toEqual({ created: 1, updated: 0 })
    expect(again.headers['content-type']).toContain('application/json')
    expect(await promotionValue('IDEM1')).toBe(25)
  })

  it('refuses the same key with a different request (422) and runs nothing', async () => {
    expect((await put('/promotions', promotion('IDEM2', 10), 'key-idem-2')).statusCode).toBe(200)
    const other = await put('/promotions', promotion('IDEM2', 30), 'key-idem-2')
    expect(other.statusCode).toBe(422)
    expect(other.json().message).toBe(IDEMPOTENCY_MESSAGES.mismatch)
    expect(await promotionValue('IDEM2')).toBe(10)
    const otherPath = await put('/delivery-rates', { items: [] }, 'key-idem-2')
    expect(otherPath.statusCode).toBe(422)
  })

  it('answers 409 while the first request with the key is still running, and runs nothing', async () => {
    const body = promotion('IDEM3', 15)
    // Another instance has claimed the key and is still working on it.
    const claim = await claimKey(t.app.db, {
      tokenId,
      key: 'key-idem-3',
      hash: requestHash('PUT', '/api/admin/v1/promotions', body),
      method: 'PUT',
      path: '/api/admin/v1/promotions',
    })
    expect(claim.kind).toBe('claimed')
    const res = await put('/promotions', body, 'key-idem-3')
    expect(res.statusCode).toBe(409)
    expect(res.json().message).toBe('A request with this Idempotency-Key is still being processed.')
    expect(await promotionValue('IDEM3')).toBeNull()

    // The other instance died: after the lease the key may be taken and the request runs once.
    await t.app.db
      .update(adminIdempotency)
      .set({ lockedAt: sql`now() - interval '10 minutes'` })
      .where(eq(adminIdempotency.key, 'key-idem-3'))
    const taken = await put('/promotions', body, 'key-idem-3')
    expect(taken.statusCode).toBe(200)
    expect(await promotionValue('IDEM3')).toBe(15)
  })

  it('runs two requests sent at once with the same key once', async () => {
    const body = promotion('IDEM4', 20)
    const answers = await Promise.all([
      put('/promotions', body, 'key-idem-4'),
      put('/promotions', body, 'key-idem-4'),
      put('/promotions', body, 'key-idem-4'),
    ])
    const created = answers
      .filter((a) => a.statusCode === 200)
      .map((a) => ({ replayed: a.headers['idempotent-replayed'] === 'true', ...a.json() }))
    // Exactly one ran; each other answer is a 409 (still running) or the replay of that run.
    expect(created.filter((c) => !c.replayed)).toEqual([{ replayed: false, created: 1, updated: 0 }])
    for (const a of answers.filter((x) => x.statusCode !== 200)) {
      expect(a.statusCode).toBe(409)
      expect(a.json().message).toBe(IDEMPOTENCY_MESSAGES.busy)
    }
    const rows = await t.app.db.select().from(adminIdempotency).where(eq(adminIdempotency.key, 'key-idem-4'))
    expect(rows).toHaveLength(1)
  })

  it('keeps keys per token: another token may use the same key for its own request', async () => {
    expect((await put('/promotions', promotion('IDEM5', 10), 'shared-key')).statusCode).toBe(200)
    const other = await put('/promotions', promotion('IDEM6', 12), 'shared-key', otherToken)
    expect(other.statusCode).toBe(200)
    expect(other.headers['idempotent-replayed']).toBeUndefined()
    expect(await promotionValue('IDEM6')).toBe(12)
  })

  it('does not spend a key on a request its schema refuses', async () => {
    const bad = await put(
      '/promotions',
      { items: [{ code: 'IDEM7', kind: 'percentage', value: 500 }] },
      'key-7',
    )
    expect(bad.statusCode).toBe(422)
    const good = await put('/promotions', promotion('IDEM7', 50), 'key-7')
    expect(good.statusCode).toBe(200)
    expect(await promotionValue('IDEM7')).toBe(50)
  })

  it('refuses an ill-formed key (400) and still accepts a catalogue write without one', async () => {
    for (const key of ['', 'has space', 'x'.repeat(256), 'é']) {
      const res = await put('/promotions', promotion('IDEM8', 10), key)
      expect(res.statusCode, key).toBe(400)
      expect(res.json().message).toBe(IDEMPOTENCY_MESSAGES.malformed)
    }
    expect(await promotionValue('IDEM8')).toBeNull()
    expect((await put('/promotions', promotion('IDEM8', 10))).statusCode).toBe(200)
  })

  it('forgets a key after 24 hours: the sweep deletes it and the key may be used again', async () => {
    expect((await put('/promotions', promotion('IDEM9', 10), 'key-9')).statusCode).toBe(200)
    const [row] = await t.app.db.select().from(adminIdempotency).where(eq(adminIdempotency.key, 'key-9'))
    const hours = (row!.expiresAt.getTime() - row!.createdAt.getTime()) / 3600_000
    expect(hours).toBeGreaterThanOrEqual(24)
    expect(row!.responseStatus).toBe(200)

    await t.app.db
      .update(adminIdempotency)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(adminIdempotency.key, 'key-9'))
    expect(await sweepIdempotencyKeys(t.app.db)).toBeGreaterThanOrEqual(1)
    expect(await t.app.db.select().from(adminIdempotency).where(eq(adminIdempotency.key, 'key-9'))).toEqual(
      [],
    )
    const reused = await put('/promotions', promotion('IDEM9', 40), 'key-9')
    expect(reused.statusCode).toBe(200)
    expect(reused.headers['idempotent-replayed']).toBeUndefined()
    expect(await promotionValue('IDEM9')).toBe(40)
  })
})
