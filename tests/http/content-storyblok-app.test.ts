/**
 * The shop switched to Storyblok by configuration (CONTENT_PROVIDER=storyblok): pages, the blog
 * and the site settings come through storyblok-js-client from the local API stand-in.
 */
import { eq } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../../src/server/app.ts'
import { loadConfig } from '../../src/server/config.ts'
import { sites } from '../../src/server/db/schema.ts'
import { LocalContentStore } from '../../src/server/modules/content/content.store.ts'
import { StoryblokContentStore } from '../../src/server/modules/content/storyblok.store.ts'
import { createStoryblokStandIn } from '../support/storyblok-standin.ts'
import { inertiaHeaders } from '../helpers/app.ts'
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts'

let testDb: TestDatabase
let standIn: FastifyInstance
let app: FastifyInstance
let requests = 0

beforeAll(async () => {
  testDb = await createTestDatabase()
  const db = testDb.database.db
  const [row] = await db.select({ id: sites.id }).from(sites).where(eq(sites.code, 'harbour'))
  standIn = await createStoryblokStandIn(new LocalContentStore(db), { 'harbour-token': row!.id })
  standIn.addHook('onRequest', async () => {
    requests++
  })
  const address = await standIn.listen({ port: 0, host: '127.0.0.1' })
  const config = loadConfig({
    NODE_ENV: 'test',
    SEED_ON_START: 'false',
    CONTENT_PROVIDER: 'storyblok',
    STORYBLOK_TOKENS: 'harbour:harbour-token',
    STORYBLOK_ENDPOINT: `${address}/v2`,
  })
  app = await buildApp(config, { database: testDb.database, migrated: true })
  await app.ready()
})

afterAll(async () => {
  await app?.close()
  await standIn?.close()
  await testDb?.dispose()
})

const visit = (url: string, host = 'localhost') =>
  app.inject({ url, headers: { host, ...inertiaHeaders({ 'x-inertia-version': app.assetVersion }) } })

describe('the shop on Storyblok', () => {
  it('uses the Storyblok store', () => {
    expect(app.content.store).toBeInstanceOf(StoryblokContentStore)
  })

  it('renders content pages, the blog and the settings from the Content Delivery API', async () => {
    const page = (await visit('/delivery-information')).json()
    expect(page.component).toBe('Page')
    expect(page.props.blocks[2].component).toBe('simple_table')
    const post = (await visit('/blog/how-often-should-fire-extinguishers-be-serviced')).json()
    expect(post.props.breadcrumbs[1]).toEqual({ name: 'Fire Safety', url: '/blog/fire-safety' })
    expect(page.props.site.headerMessage.title).toBe('Free UK delivery on orders over £100')
    expect(page.props.site.theme.colours.primary).toBe('#12355b')
    expect(requests).toBeGreaterThan(0)
  })

  it('serves a site without a token with no content', async () => {
    expect((await visit('/about-us', '127.0.0.1')).statusCode).toBe(404)
    const home = (await visit('/', '127.0.0.1')).json()
    expect(home.props.blocks).toEqual([])
  })

  it('refuses to start with Storyblok but no token', () => {
    expect(() => loadConfig({ NODE_ENV: 'test', CONTENT_PROVIDER: 'storyblok' })).toThrow(/STORYBLOK_TOKEN/)
  })
})
