/**
 * Builds the HTTP tests' template database once per run instead of once per test file (every
 * file runs in its own module context, so a module-level cache would be rebuilt per file).
 *
 * - Embedded (no DATABASE_URL): a migrated, seeded PGlite data directory dumped to a temporary
 *   file; each test file loads a copy of it.
 * - PostgreSQL (DATABASE_URL): a migrated, seeded database that each test file clones with
 *   `CREATE DATABASE … TEMPLATE`, which copies files instead of replaying migrations and seed.
 *
 * The template is made fresh for every run, so it always matches the migrations and seed on disk.
 */
import { randomBytes } from 'node:crypto'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestProject } from 'vitest/node'
import { migrate, openDatabase } from '../../src/server/db/client.ts'
import { seed } from '../../src/server/db/seed/index.ts'

declare module 'vitest' {
  export interface ProvidedContext {
    /** Path of the dumped PGlite template, when the tests run on the embedded database. */
    pgliteTemplateFile: string
    /** Name of the PostgreSQL template database, when DATABASE_URL is set. */
    postgresTemplate: string
  }
}

async function pgliteTemplate(file: string): Promise<void> {
  const { PGlite } = await import('@electric-sql/pglite')
  const { drizzle } = await import('drizzle-orm/pglite')
  const { migrate: run } = await import('drizzle-orm/pglite/migrator')
  const { migrationsFolder } = await import('../../src/server/db/client.ts')
  const pg = new PGlite()
  await run(drizzle(pg), { migrationsFolder })
  await seed(drizzle(pg) as never)
  const dump = await pg.dumpDataDir('none')
  await pg.close()
  await writeFile(file, Buffer.from(await dump.arrayBuffer()))
}

async function adminQuery(url: string, sql: string): Promise<void> {
  const { default: pg } = await import('pg')
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  try {
    await admin.query(sql)
  } finally {
    await admin.end()
  }
}

async function postgresTemplate(url: string, name: string): Promise<void> {
  await adminQuery(url, `create database "${name}"`)
  const target = new URL(url)
  target.pathname = `/${name}`
  const database = await openDatabase({ driver: 'postgres', url: target.toString(), poolSize: 2 })
  try {
    await migrate(database)
    await seed(database.db)
  } finally {
    await database.close()
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const url = process.env.DATABASE_URL
  if (url) {
    const name = `shop_tpl_${process.pid}_${randomBytes(4).toString('hex')}`
    await postgresTemplate(url, name)
    project.provide('postgresTemplate', name)
    return () => adminQuery(url, `drop database if exists "${name}" with (force)`)
  }
  const dir = await mkdtemp(join(tmpdir(), 'shop-test-template-'))
  const file = join(dir, 'pglite.tar')
  await pgliteTemplate(file)
  project.provide('pgliteTemplateFile', file)
  return () => rm(dir, { recursive: true, force: true })
}
