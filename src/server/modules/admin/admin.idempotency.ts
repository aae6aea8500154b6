/**
 * Idempotency-Key for the back-office API's writes (ADR 0220). Every POST, PUT and DELETE may
 * carry an `Idempotency-Key` (the order writes must): the key is claimed for the token by
 * inserting its row first, in its own statement, before the write runs; the write's answer is
 * then stored with it for 24 hours.
 *
 * - The same key with the same request (method, path and body, hashed) again: the stored answer,
 *   with `Idempotent-Replayed: true`; nothing runs again.
 * - The same key with another request: 422, nothing runs.
 * - The same key while its first request still runs (two at once, on any instance): 409. A key
 *   whose request never answered (the instance died) may be taken again after a lease.
 * - A 5xx answer is not kept: the key is released so that a retry runs.
 *
 * Many instances: the row and its unique (token, key) index in PostgreSQL are the only state, so
 * every instance sees the same keys; expired rows are deleted by the `admin-idempotency-sweep`
 * job (one run at a time across instances; a plain DELETE, safe to repeat) and, for a key reused
 * after expiry, on the spot.
 */
import { createHash } from 'node:crypto'
import { and, eq, isNull, lt, sql } from 'drizzle-orm'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import type { Db } from '../../db/client.ts'
import { adminIdempotency } from './admin.tables.ts'

export const IDEMPOTENCY_TTL_SECONDS = 24 * 3600
/** How long a claimed key waits for its request's answer before another request may take it. */
export const IDEMPOTENCY_LEASE_SECONDS = 120

export const IDEMPOTENCY_MESSAGES = {
  required: 'This request needs an Idempotency-Key header (a new unique key per change, e.g. a UUID).',
  malformed: 'The Idempotency-Key header must be 1 to 255 printable characters without spaces.',
  mismatch:
    'This Idempotency-Key was already used for a different request (method, path or body). Use a new key for a new request.',
  busy: 'A request with this Idempotency-Key is still being processed.',
}

const KEY = /^[\x21-\x7e]{1,255}$/
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])
/** Headers of the answer that are replayed with it. */
const KEPT_HEADERS = ['content-type', 'etag', 'location']

declare module 'fastify' {
  interface FastifyRequest {
    /** The claimed key of this write, if it carries one (its row id and the key itself). */
    idempotency: { id: number; key: string } | null
    idempotencyHash: string | null
  }
  interface FastifyContextConfig {
    /** 'required': the write is refused (400) without an Idempotency-Key. Default: optional. */
    idempotencyKey?: 'optional' | 'required'
  }
}

export function requestHash(method: string, url: string, body: unknown): string {
  const text = typeof body === 'string' ? body : JSON.stringify(body ?? null)
  return createHash('sha256').update(`${method}\n${url}\n${text}`).digest('hex')
}

export type Claim =
  | { kind: 'claimed'; id: number }
  | { kind: 'mismatch' }
  | { kind: 'busy' }
  | { kind: 'stored'; status: number; body: string; headers: Record<string, string> }

/** Claims a key for a request, or says why not (another request's key, running, or answered). */
export async function claimKey(
  db: Db,
  input: { tokenId: number; key: string; hash: string; method: string; path: string },
): Promise<Claim> {
  const mine = and(eq(adminIdempotency.tokenId, input.tokenId), eq(adminIdempotency.key, input.key))
  // A key past its 24 hours is forgotten, even before the sweep runs.
  await db.delete(adminIdempotency).where(and(mine, lt(adminIdempotency.expiresAt, sql`now()`)))
  for (let attempt = 0; attempt < 3; attempt++) {
    const [inserted] = await db
      .insert(adminIdempotency)
      .values({
        tokenId: input.tokenId,
        key: input.key,
        requestHash: input.hash,
        method: input.method,
        path: input.path.slice(0, 2000),
        expiresAt: sql`now() + make_interval(secs => ${IDEMPOTENCY_TTL_SECONDS})`,
      })
      .onConflictDoNothing({ target: [adminIdempotency.tokenId, adminIdempotency.key] })
      .returning({ id: adminIdempotency.id })
    if (inserted) return { kind: 'claimed', id: inserted.id }
    const [row] = await db.select().from(adminIdempotency).where(mine)
    if (!row) continue // released (a 5xx) between the two statements: try to claim it again
    if (row.requestHash !== input.hash) return { kind: 'mismatch' }
    if (row.responseStatus !== null)
      return {
        kind: 'stored',
        status: row.responseStatus,
        body: row.responseBody ?? '',
        headers: row.responseHeaders ?? {},
      }
    const [taken] = await db
      .update(adminIdempotency)
      .set({ lockedAt: sql`now()` })
      .where(
        and(
          eq(adminIdempotency.id, row.id),
          isNull(adminIdempotency.responseStatus),
          lt(adminIdempotency.lockedAt, sql`now() - make_interval(secs => ${IDEMPOTENCY_LEASE_SECONDS})`),
        ),
      )
      .returning({ id: adminIdempotency.id })
    return taken ? { kind: 'claimed', id: taken.id } : { kind: 'busy' }
  }
  return { kind: 'busy' }
}

/** Stores a write's answer with its key, or releases the key after a server error. */
export async function settleKey(
  db: Db,
  id: number,
  answer: { status: number; body: string; headers: Record<string, string> },
) {
  if (answer.status >= 500) {
    await db.delete(adminIdempotency).where(eq(adminIdempotency.id, id))
    return
  }
  await db
    .update(adminIdempotency)
    .set({ responseStatus: answer.status, responseBody: answer.body, responseHeaders: answer.headers })
    .where(eq(adminIdempotency.id, id))
}

/** Deletes the keys past their 24 hours (the sweep job). */
export async function sweepIdempotencyKeys(db: Db): Promise<number> {
  const rows = await db
    .delete(adminIdempotency)
    .where(lt(adminIdempotency.expiresAt, sql`now()`))
    .returning({ id: adminIdempotency.id })
  return rows.length
}

function refuse(reply: FastifyReply, status: number, message: string) {
  const errors = status === 422 ? { errors: [{ row: 0, field: 'Idempotency-Key', message }] } : {}
  return reply.code(status).send({ message, ...errors })
}

/** The hooks, on the secured admin scope (after the token check and the schema validation). */
export const adminIdempotencyPlugin = fp(
  async (app: FastifyInstance) => {
    const db = app.db
    app.decorateRequest('idempotency', null)
    app.decorateRequest('idempotencyHash', null)

    // The request as it was sent (before validation trims or defaults anything).
    app.addHook('preValidation', async (request: FastifyRequest) => {
      if (WRITES.has(request.method))
        request.idempotencyHash = requestHash(request.method, request.url, request.body)
    })

    app.addHook('preHandler', async (request, reply) => {
      if (!WRITES.has(request.method) || !request.adminToken) return
      const header = request.headers['idempotency-key']
      if (header === undefined) {
        if (request.routeOptions.config.idempotencyKey === 'required')
          return refuse(reply, 400, IDEMPOTENCY_MESSAGES.required)
        return
      }
      if (typeof header !== 'string' || !KEY.test(header))
        return refuse(reply, 400, IDEMPOTENCY_MESSAGES.malformed)
      const claim = await claimKey(db, {
        tokenId: request.adminToken.tokenId,
        key: header,
        hash: request.idempotencyHash ?? requestHash(request.method, request.url, request.body),
        method: request.method,
        path: request.url,
      })
      switch (claim.kind) {
        case 'claimed':
          request.idempotency = { id: claim.id, key: header }
          return
        case 'mismatch':
          return refuse(reply, 422, IDEMPOTENCY_MESSAGES.mismatch)
        case 'busy':
          return refuse(reply, 409, IDEMPOTENCY_MESSAGES.busy)
        case 'stored':
          return reply
            .code(claim.status)
            .headers({ ...claim.headers, 'idempotent-replayed': 'true' })
            .send(claim.body)
      }
    })

    app.addHook('onSend', async (request, reply, payload) => {
      const claimed = request.idempotency
      if (!claimed) return payload
      request.idempotency = null
      const headers: Record<string, string> = {}
      for (const name of KEPT_HEADERS) {
        const value = reply.getHeader(name)
        if (value !== undefined) headers[name] = String(value)
      }
      const body =
        typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : ''
      await settleKey(db, claimed.id, { status: reply.statusCode, body, headers })
      return payload
    })
  },
  { name: 'admin-idempotency' },
)
