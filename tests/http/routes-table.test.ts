/**
 * docs/routes.md lists every path the app serves, with its method and module. This test builds
 * the real app, collects every route Fastify registers and fails when the table and the app
 * disagree, so "where is /x" keeps one true answer.
 */
import { existsSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import type { RouteOptions } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../../src/server/app.ts'
import { loadConfig } from '../../src/server/config.ts'
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts'

const TABLE = resolve(import.meta.dirname, '../../docs/routes.md')
const PUBLIC = resolve(import.meta.dirname, '../../public')

/** "GET /cart" for every route; HEAD routes Fastify adds beside a GET are left out. */
function key(method: string, url: string): string {
  return `${method} ${url}`
}

function documented(): { routes: Set<string>; modules: string[] } {
  const routes = new Set<string>()
  const modules: string[] = []
  for (const line of readFileSync(TABLE, 'utf8').split('\n')) {
    const m = /^\| `([A-Z, ]+)` \| `([^`]+)` \| `([^`]+)` \|/.exec(line)
    if (!m) continue
    for (const method of m[1]!.split(',')) routes.add(key(method.trim(), m[2]!))
    modules.push(m[3]!)
  }
  return { routes, modules }
}

describe('the routes table', () => {
  const seen = new Set<string>()
  let testDb: TestDatabase
  let close: () => Promise<void>

  beforeAll(async () => {
    testDb = await createTestDatabase()
    const config = loadConfig(
      {
        NODE_ENV: 'test',
        SEED_ON_START: 'false',
        // Every optional part switched on, so its routes are in the app and in the table.
        MAIL_OUTBOX_PAGE: 'true',
        STORYBLOK_WEBHOOK_SECRET: 'routes-table-secret-1234',
      },
      {},
    )
    const app = await buildApp(config, {
      database: testDb.database,
      migrated: true,
      startJobs: false,
      onRoute: (route: RouteOptions) => {
        const methods = Array.isArray(route.method) ? route.method : [route.method]
        const url = route.url ?? ''
        // One route per file under public/ (@fastify/static): the table names the folder once.
        if (url !== '/' && existsSync(PUBLIC + url)) return
        // The built client (only when dist/ exists): named once in the table's introduction.
        if (url === '/assets/*') return
        for (const method of methods) if (method !== 'HEAD') seen.add(key(method, url))
      },
    })
    await app.ready()
    close = async () => {
      await app.close()
      await testDb.dispose()
    }
  })
  afterAll(async () => close?.())

  it('lists every route the app registers, and no route the app does not have', () => {
    const { routes } = documented()
    expect([...seen].filter((r) => !routes.has(r)).sort()).toEqual([])
    expect([...routes].filter((r) => !seen.has(r)).sort()).toEqual([])
  })

  it('names a source file that exists for every route', () => {
    for (const file of new Set(documented().modules)) {
      expect(() => readFileSync(resolve(import.meta.dirname, '../..', file)), file).not.toThrow()
    }
  })
})
