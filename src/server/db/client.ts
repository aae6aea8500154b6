import { resolve } from 'node:path'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import { sql } from 'drizzle-orm'
import type { Config } from '../config.ts'
import { projectRoot } from '../config.ts'
import type { PGlite } from '@electric-sql/pglite'
import { startEmbeddedDatabase } from './embedded.ts'
import { queryLogger } from './query-count.ts'
import * as schema from './schema.ts'

export type Schema = typeof schema
export type Db = PgDatabase<PgQueryResultHKT, Schema>

export interface Database {
  db: Db
  driver: 'pglite' | 'postgres'
  /** Resolves when the database answers a trivial query. */
  ping(): Promise<void>
  close(): Promise<void>
  /** PostgreSQL: the URL, for connections outside the pool (LISTEN). */
  connectionString?: string
  /**
   * PostgreSQL: runs `fn` while holding the session-level advisory lock `key` on a connection of
   * its own, so instances starting together take turns. Absent on the embedded database.
   */
  withLock?<T>(key: number, fn: () => Promise<T>): Promise<T>
  /** PostgreSQL: the pool's connection counts (metrics). */
  poolStats?(): { total: number; idle: number; waiting: number; max: number }
}

/** Advisory lock keys (one namespace for the whole shop). */
export const LOCKS = {
  /** Migrations and the demo seed at start. */
  startup: 7_160_001,
} as const

export const migrationsFolder = resolve(projectRoot, 'drizzle')

/**
 * Opens the configured database: embedded PGlite (a directory, or in memory when dataDir is null)
 * or a PostgreSQL pool. Both speak the same dialect, so the rest of the app cannot tell them apart.
 */
export async function openDatabase(
  dbConfig: Config['db'],
  /** The embedded database, when the caller started it already (serve.ts). */
  started?: Promise<PGlite>,
): Promise<Database> {
  if (dbConfig.driver === 'postgres') {
    const { default: pg } = await import('pg')
    const { drizzle } = await import('drizzle-orm/node-postgres')
    const pool = new pg.Pool({
      connectionString: dbConfig.url,
      max: dbConfig.poolSize,
      connectionTimeoutMillis: 5000,
      idleTimeoutMillis: 30_000,
      // Statements issued together on one connection (a transaction's lock and read) go out in
      // one write and come back in one read, not one round trip each (ADR 0111).
      pipeline: true,
    })
    // An idle client that errors (server restart) must not crash the process.
    pool.on('error', () => {})
    const db = drizzle(pool, { schema, logger: queryLogger }) as unknown as Db
    return {
      db,
      driver: 'postgres',
      ping: async () => void (await db.execute(sql`select 1`)),
      close: () => pool.end(),
      connectionString: dbConfig.url,
      // Its own connection, not one from the pool: `fn` needs the pool (which may have one slot).
      withLock: async (key, fn) => {
        const client = new pg.Client({ connectionString: dbConfig.url })
        client.on('error', () => {})
        await client.connect()
        try {
          await client.query('select pg_advisory_lock($1)', [key])
          return await fn()
        } finally {
          // Ending the session releases the lock even if unlocking is never reached.
          await client.end().catch(() => {})
        }
      },
      poolStats: () => ({
        total: pool.totalCount,
        idle: pool.idleCount,
        waiting: pool.waitingCount,
        max: dbConfig.poolSize,
      }),
    }
  }
  // Started early by the server (serve.ts); not waited for here: statements sent while it starts
  // wait for it, and a failed start fails them (the first is the migrations' check).
  const client = await (started ?? startEmbeddedDatabase(dbConfig.dataDir))
  const { drizzle } = await import('drizzle-orm/pglite')
  const db = drizzle(client, { schema, logger: queryLogger }) as unknown as Db
  return {
    db,
    driver: 'pglite',
    ping: async () => void (await client.query('select 1')),
    close: () => client.close(),
  }
}

/** Applies the committed SQL migrations in drizzle/. Safe to run at every start. */
export async function migrate(database: Database): Promise<void> {
  if (database.driver === 'postgres') {
    const { migrate: run } = await import('drizzle-orm/node-postgres/migrator')
    await run(database.db as never, { migrationsFolder })
  } else {
    const { migrate: run } = await import('drizzle-orm/pglite/migrator')
    await run(database.db as never, { migrationsFolder })
  }
}
