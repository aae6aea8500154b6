import fastifyCookie from '@fastify/cookie'
import fastifySession, { type SessionStore } from '@fastify/session'
import { eq, lt } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import type { Redis } from 'ioredis'
import type { Db } from '../db/client.ts'
import { sessions } from './session.tables.ts'

export const SESSION_COOKIE = 'shop_session'

type Stored = Record<string, unknown> & { cookie?: { expires?: string | Date | null } }

function expiryOf(session: Stored, ttlSeconds: number): Date {
  const e = session.cookie?.expires
  const d = e ? new Date(e) : null
  return d && !Number.isNaN(d.getTime()) ? d : new Date(Date.now() + ttlSeconds * 1000)
}

/** Promise-returning store, adapted to the callback interface @fastify/session expects. */
interface AsyncStore {
  get(id: string): Promise<Stored | null>
  set(id: string, data: Stored): Promise<void>
  destroy(id: string): Promise<void>
}

/**
 * A store failure as the request sees it: a plain 500 with no detail. The original (which may
 * quote SQL, the session id and the session's contents) is only logged.
 */
export class SessionStoreError extends Error {
  readonly statusCode = 500
  readonly code = 'SHOP_SESSION_STORE'
  constructor() {
    super('session store unavailable')
  }
}

/**
 * Session data as JSON that any store can keep: NUL (which PostgreSQL's jsonb refuses) becomes
 * U+FFFD. Nothing a visitor typed can make a session unsavable.
 */
export function storableSession(session: unknown): Stored {
  return JSON.parse(
    JSON.stringify(session, (_k, v: unknown) =>
      typeof v === 'string' ? v.replaceAll('\u0000', '\ufffd') : v,
    ),
  ) as Stored
}

function callbackStore(store: AsyncStore, log: (err: unknown, op: string) => void): SessionStore {
  const fail = (err: unknown, op: string) => {
    log(err, op)
    return new SessionStoreError()
  }
  return {
    get: (id, cb) =>
      void store.get(id).then(
        (s) => cb(null, s as never),
        (err: unknown) => cb(fail(err, 'get'), null as never),
      ),
    set: (id, session, cb) =>
      void store.set(id, storableSession(session)).then(
        () => cb(),
        (err: unknown) => cb(fail(err, 'set')),
      ),
    destroy: (id, cb) =>
      void store.destroy(id).then(
        () => cb(),
        (err: unknown) => cb(fail(err, 'destroy')),
      ),
  }
}

/** Sessions in the `sessions` table; expired rows are ignored on read and swept periodically. */
export class DatabaseSessionStore implements AsyncStore {
  constructor(
    private readonly db: Db,
    private readonly ttlSeconds: number,
  ) {}

  async get(id: string): Promise<Stored | null> {
    const [row] = await this.db.select().from(sessions).where(eq(sessions.id, id)).limit(1)
    if (!row) return null
    if (row.expiresAt.getTime() <= Date.now()) {
      await this.destroy(id)
      return null
    }
    return row.data as Stored
  }

  async set(id: string, data: Stored): Promise<void> {
    const expiresAt = expiryOf(data, this.ttlSeconds)
    await this.db
      .insert(sessions)
      .values({ id, data, expiresAt })
      .onConflictDoUpdate({ target: sessions.id, set: { data, expiresAt } })
  }

  async destroy(id: string): Promise<void> {
    await this.db.delete(sessions).where(eq(sessions.id, id))
  }

  async sweep(): Promise<number> {
    return sweepExpiredSessions(this.db)
  }
}

/** Deletes expired session rows (one statement: safe on every instance at once); returns how many. */
export async function sweepExpiredSessions(db: Db): Promise<number> {
  const gone = await db
    .delete(sessions)
    .where(lt(sessions.expiresAt, new Date()))
    .returning({ id: sessions.id })
  return gone.length
}

/** Sessions in Redis with the key's own expiry. */
export class RedisSessionStore implements AsyncStore {
  constructor(
    private readonly redis: Redis,
    private readonly ttlSeconds: number,
    private readonly prefix = 'sess:',
  ) {}

  async get(id: string): Promise<Stored | null> {
    const raw = await this.redis.get(this.prefix + id)
    return raw ? (JSON.parse(raw) as Stored) : null
  }

  async set(id: string, data: Stored): Promise<void> {
    const ms = Math.max(1000, expiryOf(data, this.ttlSeconds).getTime() - Date.now())
    await this.redis.set(this.prefix + id, JSON.stringify(data), 'PX', ms)
  }

  async destroy(id: string): Promise<void> {
    await this.redis.del(this.prefix + id)
  }
}

export interface SessionPluginOptions {
  secret: string
  ttlSeconds: number
  cookieSecure: boolean | 'auto'
  db: Db
  redis: Redis | null
}

/**
 * Server-side sessions. A session is written only when something is stored in it (flash,
 * errors, login), so anonymous page views never create a row. The id is rotated at login with
 * `request.session.regenerate()`.
 */
export const sessionPlugin = fp(
  async (app: FastifyInstance, opts: SessionPluginOptions) => {
    if (!app.hasDecorator('parseCookie')) await app.register(fastifyCookie)
    // Expired database rows are swept by the jobs module (src/server/jobs); Redis keys expire themselves.
    const store: AsyncStore = opts.redis
      ? new RedisSessionStore(opts.redis, opts.ttlSeconds)
      : new DatabaseSessionStore(opts.db, opts.ttlSeconds)

    await app.register(fastifySession, {
      secret: opts.secret,
      cookieName: SESSION_COOKIE,
      store: callbackStore(store, (err, op) => app.log.error({ err }, `session store ${op} failed`)),
      saveUninitialized: false,
      rolling: false,
      cookie: {
        path: '/',
        httpOnly: true,
        sameSite: 'lax',
        secure: opts.cookieSecure,
        maxAge: opts.ttlSeconds * 1000,
      },
    })
  },
  { name: 'shop-session' },
)
