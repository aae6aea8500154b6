import fastifyCookie from '@fastify/cookie'
import fastifySession, { type SessionStore } from '@fastify/session'
import { eq, lt } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import type { Redis } from 'ioredis'
import { LRUCache } from 'lru-cache'
import type { Db } from '../db/client.ts'
import { recordCache } from '../lib/cache-stats.ts'
import type { ChangeBus } from '../ops/change-bus.ts'
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

/** How long a cached session may go unchecked at most (a missed notification's worst case). */
export const SESSION_CACHE_TTL_MS = 60_000

/**
 * Sessions in the `sessions` table; expired rows are ignored on read and swept periodically.
 *
 * Sessions this instance read or wrote are cached here (as JSON text, so every request gets its
 * own copy): a returning visitor's request reads no row. How the cache learns of a change made
 * by another instance: every write and destroy calls `onChange(id)`, which the session plugin
 * publishes on the change bus (topic `session`); the other instances `forget(id)`. When the
 * listening connection was lost, the bus's reset drops every entry (`forgetAll`), and no entry
 * is used after `SESSION_CACHE_TTL_MS` whatever happens.
 */
export class DatabaseSessionStore implements AsyncStore {
  private readonly cache = new LRUCache<string, { text: string; expiresAt: number }>({
    max: 50_000,
    ttl: SESSION_CACHE_TTL_MS,
  })
  /** Bumped by every write and forget: a read that overlapped one does not fill the cache. */
  private epoch = 0
  /** Told of every write and destroy of a session by this instance (the change bus). */
  onChange: ((id: string) => void) | null = null

  constructor(
    private readonly db: Db,
    private readonly ttlSeconds: number,
  ) {}

  async get(id: string): Promise<Stored | null> {
    const cached = this.cache.get(id)
    recordCache('session', cached !== undefined)
    if (cached && cached.expiresAt > Date.now()) return JSON.parse(cached.text) as Stored
    const epoch = this.epoch
    const [row] = await this.db.select().from(sessions).where(eq(sessions.id, id)).limit(1)
    if (!row) return null
    if (row.expiresAt.getTime() <= Date.now()) {
      await this.destroy(id)
      return null
    }
    if (epoch === this.epoch)
      this.cache.set(id, { text: JSON.stringify(row.data), expiresAt: row.expiresAt.getTime() })
    return row.data as Stored
  }

  async set(id: string, data: Stored): Promise<void> {
    const expiresAt = expiryOf(data, this.ttlSeconds)
    const epoch = ++this.epoch
    this.cache.delete(id)
    await this.db
      .insert(sessions)
      .values({ id, data, expiresAt })
      .onConflictDoUpdate({ target: sessions.id, set: { data, expiresAt } })
    // Cached only when nothing else touched the cache meanwhile (which write won is the row's say).
    if (epoch === this.epoch)
      this.cache.set(id, { text: JSON.stringify(data), expiresAt: expiresAt.getTime() })
    else this.forget(id)
    this.onChange?.(id)
  }

  async destroy(id: string): Promise<void> {
    this.epoch++
    this.cache.delete(id)
    await this.db.delete(sessions).where(eq(sessions.id, id))
    this.epoch++
    this.cache.delete(id)
    this.onChange?.(id)
  }

  /** Another instance (or another writer) changed or ended this session. */
  forget(id: string): void {
    this.epoch++
    this.cache.delete(id)
  }

  /** Notifications may have been missed: nothing cached is trusted any more. */
  forgetAll(): void {
    this.epoch++
    this.cache.clear()
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
  /** The database store's cache follows other instances' session writes through it. */
  changes?: ChangeBus
}

/** What other code may tell the session store (tests that write session rows themselves). */
export interface SessionCacheControl {
  /** Another writer changed or ended this session: read it again. */
  forget(id: string): void
  /** Sessions were changed or ended in bulk (a customer's other sessions): read them all again. */
  forgetAll(): void
}

declare module 'fastify' {
  interface FastifyInstance {
    sessionCache: SessionCacheControl
  }
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
    if (store instanceof DatabaseSessionStore) {
      const bus = opts.changes
      if (bus) {
        store.onChange = (id) => bus.publish('session', { id })
        bus.on('session', (p) => {
          if (typeof p.id === 'string') store.forget(p.id)
          // A message too large to carry its id (never, for a session id): trust nothing.
          else store.forgetAll()
        })
        bus.onReset(() => store.forgetAll())
      }
      app.decorate('sessionCache', {
        forget: (id: string) => store.forget(id),
        forgetAll: () => store.forgetAll(),
      })
    } else {
      // Redis is read on every request: nothing cached here.
      app.decorate('sessionCache', { forget: () => {}, forgetAll: () => {} })
    }

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
