import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { migrate, migrationsFolder, openDatabase, type Database } from '../../src/server/db/client.ts'
import { withQueryTally, type QueryTally } from '../../src/server/db/query-count.ts'
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts'

/** Every statement `migrate` sends (transaction control aside), in order. */
async function statementsOf(database: Database, folder?: string): Promise<string[]> {
  const tally: QueryTally = { count: 0, statements: [] }
  await withQueryTally(tally, () => migrate(database, folder))
  return tally.statements!
}

async function tableExists(database: Database, name: string): Promise<boolean> {
  const result = (await database.db.execute(sql`select to_regclass(${name}) as t`)) as unknown as {
    rows: { t: string | null }[]
  }
  return result.rows[0]!.t !== null
}

let testDb: TestDatabase
let folder: string
beforeAll(async () => {
  testDb = await createTestDatabase()
  folder = await mkdtemp(join(tmpdir(), 'shop-migrations-'))
})
afterAll(async () => {
  await testDb?.dispose()
  if (folder) await rm(folder, { recursive: true, force: true })
})

describe('the migrations at start', () => {
  it('only asks for the latest applied migration when the database has every one', async () => {
    const statements = await statementsOf(testDb.database)
    expect(statements).toEqual([
      'select created_at from drizzle.__drizzle_migrations order by created_at desc limit 1',
    ])
  })

  it('runs the migrator when the journal has a migration the database lacks', async () => {
    // The committed migrations plus one more, dated after the last.
    await cp(migrationsFolder, folder, { recursive: true })
    const journalFile = join(folder, 'meta/_journal.json')
    const journal = JSON.parse(await readFile(journalFile, 'utf8')) as {
      entries: { idx: number; version: string; when: number; tag: string; breakpoints: boolean }[]
    }
    const last = journal.entries.at(-1)!
    journal.entries.push({ ...last, idx: last.idx + 1, when: last.when + 1000, tag: '9999_probe' })
    await writeFile(journalFile, JSON.stringify(journal))
    await writeFile(join(folder, '9999_probe.sql'), 'CREATE TABLE "migration_probe" ("id" integer);')

    const statements = await statementsOf(testDb.database, folder)
    expect(statements).toContain('CREATE TABLE "migration_probe" ("id" integer);')
    expect(await tableExists(testDb.database, 'migration_probe')).toBe(true)

    // Recorded as applied: the next start takes the short way again.
    expect(await statementsOf(testDb.database, folder)).toHaveLength(1)
  })

  it('runs every migration on an empty database, which has no bookkeeping table yet', async () => {
    const empty = await openDatabase({ driver: 'pglite', dataDir: null, poolSize: 1 })
    try {
      const statements = await statementsOf(empty)
      expect(statements.length).toBeGreaterThan(1)
      expect(await tableExists(empty, 'sites')).toBe(true)
      expect(await statementsOf(empty)).toHaveLength(1)
    } finally {
      await empty.close()
    }
  })
})
