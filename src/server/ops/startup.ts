/**
 * What an instance does to its database before it serves: migrations, then the demo seed when
 * asked for, both under one PostgreSQL advisory lock so instances starting together on an empty
 * database take turns (the second finds the migrations applied and the sites present).
 * The seed and its demo data are imported only when seeding.
 */
import { sites } from '../db/schema.ts'
import { LOCKS, migrate, type Database, type Db } from '../db/client.ts'

export interface PrepareOptions {
  /** The caller already applied the migrations (tests). */
  migrated?: boolean
  seed: boolean
  log: (message: string) => void
}

/** True when the database has no sites yet (a fresh install). */
export async function isEmpty(db: Db): Promise<boolean> {
  const rows = await db.select({ id: sites.id }).from(sites).limit(1)
  return rows.length === 0
}

export async function prepareDatabase(database: Database, options: PrepareOptions): Promise<void> {
  const work = async () => {
    if (!options.migrated) await migrate(database)
    if (options.seed && (await isEmpty(database.db))) {
      const { seed } = await import('../db/seed/index.ts')
      await seed(database.db, { log: options.log })
    }
  }
  if (database.withLock) await database.withLock(LOCKS.startup, work)
  else await work()
}
