import { readFile } from 'node:fs/promises'
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
/** The handle inside `db.transaction(async (tx) => …)`. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]
/** Anything a query can run on: the database, or a transaction in progress. */
export type Executor = Db | Tx

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
    // An idle client that errors (server restart) must not crash the process, nor may one that is
    // checked out between two statements (the pool listens only to its idle clients): the
    // statement under way fails and its request is answered 503 (plugins/error-handler.ts).
    pool.on('error', () => {})
    pool.on('connect', (client) => client.on('error', () => {}))
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

/**
 * Applies the committed SQL migrations in drizzle/. Safe to run at every start.
 *
 * A start on a database that has them all (every start but the first after a release) only
 * reads the journal and asks for the latest applied migration: drizzle's migrator would read and
 * hash every SQL file and send CREATE SCHEMA/TABLE IF NOT EXISTS, the same select and an empty
 * transaction, 20–40 ms of the main thread on PGlite before the first answer (issue 18). Anything
 * else (a migration missing, no bookkeeping table yet, the check failing) runs the migrator as
 * before. On PostgreSQL this runs under the start-up advisory lock (ops/startup.ts), so an
 * instance that waited for another one's migrations finds them applied.
 */
export async function migrate(database: Database, folder = migrationsFolder): Promise<void> {
  if (await hasEveryMigration(database.db, folder)) return
  if (database.driver === 'postgres') {
    const { migrate: run } = await import('drizzle-orm/node-postgres/migrator')
    await run(database.db as never, { migrationsFolder: folder })
  } else {
    const { migrate: run } = await import('drizzle-orm/pglite/migrator')
    await run(database.db as never, { migrationsFolder: folder })
  }
}

/**
 * True when drizzle's migrator would apply nothing: it applies each journal entry whose `when` is
 * later than the `created_at` of the row its own query finds (the same query as here, so NULLs
 * sort the same way), and every entry when there is no row. A missing schema or table fails the
 * select; that, like any other failure, is "no" and leaves the answer to the migrator.
 */
export async function hasEveryMigration(db: Db, folder = migrationsFolder): Promise<boolean> {
  const journal = JSON.parse(await readFile(resolve(folder, 'meta/_journal.json'), 'utf8')) as {
    entries: { when: number }[]
  }
  if (journal.entries.length === 0) return false
  const newest = Math.max(...journal.entries.map((entry) => entry.when))
  let rows: { created_at: string | number | bigint | null }[]
  try {
    const result = (await db.execute(
      sql`select created_at from drizzle.__drizzle_migrations order by created_at desc limit 1`,
    )) as unknown as { rows: { created_at: string | number | bigint | null }[] }
    rows = result.rows
  } catch {
    return false
  }
  const latest = rows[0]
  return latest !== undefined && Number(latest.created_at) >= newest
}
