/**
 * Rate-limit counts in PostgreSQL, for several instances on one database without Redis (ADR 0176).
 *
 * The same fixed window as @fastify/rate-limit's memory and Redis stores: the first request of a
 * key opens a window of `timeWindow` ms; requests within it are counted; the first one after it
 * opens the next. Each request is ONE atomic upsert that counts and answers, so concurrent
 * requests through any number of processes are each counted exactly once. The database's clock
 * decides when a window ends, so instances whose clocks differ still agree. Expired rows are
 * swept by the `rate-limit-sweep` job (src/server/jobs/).
 */
import { createHash } from 'node:crypto'
import { and, eq, gt, lte, sql } from 'drizzle-orm'
import type { FastifyRateLimitStore } from '@fastify/rate-limit'
import type { Db } from '../db/client.ts'
import { rateLimitCounts } from './rate-limit.tables.ts'

export interface RateLimitCount {
  /** Requests in the current window, this one included */
  current: number
  /** Milliseconds until the window ends */
  ttl: number
}

/** Keys longer than this are stored as their SHA-256 (a client cannot grow the table's rows). */
const MAX_KEY_LENGTH = 200

function storedKey(key: string): string {
  return key.length <= MAX_KEY_LENGTH ? key : `sha256:${createHash('sha256').update(key).digest('base64url')}`
}

const ttlMs = sql<number>`greatest(0, floor(extract(epoch from (${rateLimitCounts.expiresAt} - now())) * 1000))::int`

export class PostgresRateLimitCounter {
  constructor(private readonly db: Db) {}

  /**
   * Counts one request for `key` in its current window (opening one if none is open). One
   * statement: it counts and answers atomically. It commits without waiting for the write-ahead
   * log to reach the disk (`synchronous_commit` off for this statement only): a count is not worth
   * an fsync per request, and a crash loses at most the last few counts (ADR 0176).
   */
  async hit(key: string, windowMs: number): Promise<RateLimitCount> {
    const window = Math.max(1, Math.trunc(windowMs))
    const result = await this.db.execute<{ current: number; ttl: number }>(sql`
      insert into ${rateLimitCounts} as r (key, count, expires_at)
      select ${storedKey(key)}, 1, now() + ${window} * interval '1 millisecond'
      from (select set_config('synchronous_commit', 'off', true)) as quick_commit
      on conflict (key) do update set
        count = case when r.expires_at <= now() then 1 else r.count + 1 end,
        expires_at = case when r.expires_at <= now() then excluded.expires_at else r.expires_at end
      returning r.count as current,
        greatest(0, floor(extract(epoch from (r.expires_at - now())) * 1000))::int as ttl`)
    const row = (result as unknown as { rows: { current: number; ttl: number }[] }).rows[0]!
    return { current: Number(row.current), ttl: Number(row.ttl) }
  }

  /** The count in the open window without counting (0 when none is open). */
  async read(key: string): Promise<RateLimitCount> {
    const [row] = await this.db
      .select({ current: rateLimitCounts.count, ttl: ttlMs })
      .from(rateLimitCounts)
      .where(and(eq(rateLimitCounts.key, storedKey(key)), gt(rateLimitCounts.expiresAt, sql`now()`)))
    return row ? { current: row.current, ttl: Number(row.ttl) } : { current: 0, ttl: 0 }
  }

  /** Deletes the rows whose window has ended; returns how many. */
  async sweep(): Promise<number> {
    const gone = await this.db
      .delete(rateLimitCounts)
      .where(lte(rateLimitCounts.expiresAt, sql`now()`))
      .returning({ key: rateLimitCounts.key })
    return gone.length
  }
}

interface StoreOptions {
  continueExceeding?: boolean
  exponentialBackoff?: boolean
  routeInfo?: { method?: string | string[]; url?: string }
}

type Callback = (error: Error | null, result?: RateLimitCount) => void

/**
 * The store class @fastify/rate-limit constructs (`store` option), bound to one counter. Each
 * route with its own limit gets a child whose keys carry the route, as the Redis store's do.
 */
export function postgresRateLimitStore(
  counter: PostgresRateLimitCounter,
  /** Sees each failed count (the database unreachable); the request is then let through. */
  onError: (err: Error) => void = () => {},
) {
  const failed = (callback: Callback) => (err: Error) => {
    onError(err)
    callback(err)
  }
  class PostgresRateLimitStore implements FastifyRateLimitStore {
    constructor(
      options: StoreOptions,
      private readonly prefix = 'all:',
    ) {
      // The window only moves forward on a new request; the options that move it on an exceeded
      // one are not implemented here, so asking for them is an error rather than ignored.
      if (options.continueExceeding || options.exponentialBackoff) {
        throw new Error(
          'The PostgreSQL rate-limit store supports neither continueExceeding nor exponentialBackoff',
        )
      }
    }

    incr(key: string, callback: Callback, timeWindow: number): void {
      counter.hit(this.prefix + key, timeWindow).then((count) => callback(null, count), failed(callback))
    }

    read(key: string, callback: Callback): void {
      counter.read(this.prefix + key).then((count) => callback(null, count), failed(callback))
    }

    child(route: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
      // The route's merged rate-limit options, with `routeInfo` (the route) added by the plugin.
      const routeOptions = route as StoreOptions
      const method = [routeOptions.routeInfo?.method ?? ''].flat().join(',')
      return new PostgresRateLimitStore(routeOptions, `${method} ${routeOptions.routeInfo?.url ?? ''}:`)
    }
  }
  return PostgresRateLimitStore
}
