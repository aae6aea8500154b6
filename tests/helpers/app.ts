import type { FastifyInstance } from 'fastify'
import { buildApp, type AppDependencies } from '../../src/server/app.ts'
import { loadConfig, type Config } from '../../src/server/config.ts'
import { createTestDatabase } from './database.ts'

export interface TestApp {
  app: FastifyInstance
  close(): Promise<void>
}

/** The real app on an isolated, seeded database. */
export async function buildTestApp(
  overrides: Partial<Config> = {},
  deps: Pick<AppDependencies, 'sendMail'> = {},
): Promise<TestApp> {
  const testDb = await createTestDatabase()
  const config = loadConfig({ NODE_ENV: 'test', SEED_ON_START: 'false' }, overrides)
  const app = await buildApp(config, { ...deps, database: testDb.database, migrated: true })
  await app.ready()
  // Tests start where a load balancer would send the first request: after /readyz says 200 (the
  // search index is built in the background, giving the event loop turns meanwhile).
  await app.searchService.ready()
  assetVersion = app.assetVersion
  return {
    app,
    close: async () => {
      await app.close()
      await testDb.dispose()
    },
  }
}

let assetVersion = ''

/** Headers of an Inertia visit from the browser client, carrying the current asset version. */
export function inertiaHeaders(extra: Record<string, string> = {}): Record<string, string> {
  return {
    'x-inertia': 'true',
    'x-requested-with': 'XMLHttpRequest',
    accept: 'text/html, application/xhtml+xml',
    'x-inertia-version': assetVersion,
    ...extra,
  }
}

/** Cookie header value from a response's set-cookie list. */
export function cookiesFrom(res: { cookies: { name: string; value: string }[] }): Record<string, string> {
  return Object.fromEntries(res.cookies.map((c) => [c.name, c.value]))
}

export function cookieHeader(cookies: Record<string, string>): string {
  return Object.entries(cookies)
    .map(([k, v]) => `${k}=${v}`)
    .join('; ')
}
