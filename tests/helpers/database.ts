/**
 * An isolated database per test file. Without DATABASE_URL: an in-memory PGlite cloned from a
 * template that was migrated and seeded once per worker. With DATABASE_URL: a fresh PostgreSQL
 * database created next to the given one, migrated, seeded, and dropped afterwards.
 */
import { randomBytes } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { inject } from 'vitest'
import { migrate, openDatabase, type Database } from '../../src/server/db/client.ts'
import { openPGlite } from '../../src/server/db/embedded.ts'
import { seed } from '../../src/server/db/seed/index.ts'

export interface TestDatabase {
  database: Database
  dispose(): Promise<void>
}

let template: Promise<Blob> | null = null

/** The run's template (tests/helpers/global-setup.ts), or one built here when there is none. */
async function pgliteTemplate(): Promise<Blob> {
  const file = inject('pgliteTemplateFile')
  if (file) return new Blob([await readFile(file)])
  const { PGlite } = await import('@electric-sql/pglite')
  const { drizzle } = await import('drizzle-orm/pglite')
  const { migrate: run } = await import('drizzle-orm/pglite/migrator')
  const { migrationsFolder } = await import('../../src/server/db/client.ts')
  const pg = new PGlite()
  const db = drizzle(pg)
  await run(db, { migrationsFolder })
  await seed(db as never)
  const dump = await pg.dumpDataDir('none')
  await pg.close()
  return dump
}

async function pgliteClone(): Promise<TestDatabase> {
  template ??= pgliteTemplate()
  const { drizzle } = await import('drizzle-orm/pglite')
  const schema = await import('../../src/server/db/schema.ts')
  const { queryLogger } = await import('../../src/server/db/query-count.ts')
  // The shop's own PGlite (statements take turns with the event loop, as they do when it serves).
  const client = await openPGlite(undefined, { loadDataDir: await template })
  await client.waitReady
  const db = drizzle(client, { schema, logger: queryLogger })
  const database: Database = {
    db: db as never,
    driver: 'pglite',
    ping: async () => void (await client.query('select 1')),
    close: () => client.close(),
  }
  return { database, dispose: () => database.close() }
}

async function postgresDatabase(url: string): Promise<TestDatabase> {
  const { default: pg } = await import('pg')
  const name = `shop_t_${process.pid}_${randomBytes(4).toString('hex')}`
  const admin = new pg.Client({ connectionString: url })
  const templateName = inject('postgresTemplate')
  await admin.connect()
  await admin.query(
    templateName ? `create database "${name}" template "${templateName}"` : `create database "${name}"`,
  )
  await admin.end()
  const target = new URL(url)
  target.pathname = `/${name}`
  const database = await openDatabase({ driver: 'postgres', url: target.toString(), poolSize: 4 })
  if (!templateName) {
    await migrate(database)
    await seed(database.db)
  }
  return {
    database,
    dispose: async () => {
      await database.close()
      const drop = new pg.Client({ connectionString: url })
      await drop.connect()
      await drop.query(`drop database if exists "${name}" with (force)`)
      await drop.end()
    },
  }
}

export function createTestDatabase(): Promise<TestDatabase> {
  const url = process.env.DATABASE_URL
  return url ? postgresDatabase(url) : pgliteClone()
}
