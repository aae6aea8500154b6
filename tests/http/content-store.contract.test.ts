/**
 * The contract both content stores keep: the embedded store, and the Storyblok adapter (the
 * official storyblok-js-client) talking to the local stand-in of the Content Delivery API.
 */
import type { FastifyInstance } from 'fastify'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Db } from '../../src/server/db/client.ts'
import { sites } from '../../src/server/db/schema.ts'
import { bumpCacheVersion } from '../../src/server/modules/content/content.import.ts'
import { LocalContentStore, type ContentStore } from '../../src/server/modules/content/content.store.ts'
import { StoryblokContentStore } from '../../src/server/modules/content/storyblok.store.ts'
import { createStoryblokStandIn } from '../support/storyblok-standin.ts'
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts'

let testDb: TestDatabase
let db: Db
let standIn: FastifyInstance
let siteId: number
const stores: Record<string, ContentStore> = {}

beforeAll(async () => {
  testDb = await createTestDatabase()
  db = testDb.database.db
  const [row] = await db.select({ id: sites.id }).from(sites).where(eq(sites.code, 'harbour'))
  siteId = row!.id
  const local = new LocalContentStore(db)
  standIn = await createStoryblokStandIn(local, { 'harbour-preview-token': siteId })
  const address = await standIn.listen({ port: 0, host: '127.0.0.1' })
  stores.embedded = local
  stores.storyblok = new StoryblokContentStore({
    version: 'published',
    endpoint: `${address}/v2`,
    rateLimit: 1000,
    tokenFor: async (id) => (id === siteId ? 'harbour-preview-token' : null),
  })
})

afterAll(async () => {
  await standIn?.close()
  await testDb?.dispose()
})

describe.each(['embedded', 'storyblok'])('the %s content store', (name) => {
  const store = () => stores[name]!

  it('returns a story in Storyblok’s shape', async () => {
    const story = await store().getStory(siteId, 'about-us')
    expect(story).toMatchObject({
      name: 'About us',
      slug: 'about-us',
      full_slug: 'about-us',
      tag_list: [],
      content: { component: 'page', title: 'About Harbour Safety Supplies' },
    })
    expect(story!.id).toEqual(expect.any(Number))
    expect(story!.uuid).toMatch(/^[0-9a-f-]{36}$/)
    expect(story!.published_at).toEqual(expect.any(String))
    expect(story!.content._uid).toEqual(expect.any(String))
    const text = (story!.content.body as { component: string; text: unknown }[]).find(
      (b) => b.component === 'columns',
    )
    expect(text).toBeDefined()
  })

  it('keeps rich text as Storyblok’s rich-text document', async () => {
    const story = await store().getStory(siteId, 'privacy-policy')
    const [block] = story!.content.body as { text: { type: string; content: unknown[] } }[]
    expect(block!.text.type).toBe('doc')
    expect(block!.text.content[0]).toEqual({
      type: 'heading',
      attrs: { level: 2 },
      content: [{ type: 'text', text: 'Your data' }],
    })
  })

  it('answers null for a missing story and for a draft-only story when published is asked', async () => {
    expect(await store().getStory(siteId, 'no-such-page')).toBeNull()
    expect(await store().getStory(siteId, 'careers')).toBeNull()
    const draft = await store().getStory(siteId, 'careers', { version: 'draft' })
    expect(draft?.content.title).toBe('Careers')
  })

  it('lists a folder with starts_with, paging and the total', async () => {
    const first = await store().getStories(siteId, {
      starts_with: 'blog/',
      per_page: 4,
      page: 1,
      sort_by: 'slug:asc',
    })
    const second = await store().getStories(siteId, {
      starts_with: 'blog/',
      per_page: 4,
      page: 2,
      sort_by: 'slug:asc',
    })
    expect(first.total).toBe(10)
    expect(first.perPage).toBe(4)
    expect(first.stories).toHaveLength(4)
    expect(second.stories).toHaveLength(4)
    const slugs = [...first.stories, ...second.stories].map((s) => s.slug)
    expect(slugs).toEqual([...slugs].sort())
    expect(new Set(slugs).size).toBe(8)
    expect(first.stories.every((s) => s.full_slug.startsWith('blog/'))).toBe(true)
  })

  it('filters by content type, by slugs and by uuids', async () => {
    const posts = await store().getStories(siteId, {
      starts_with: 'blog/',
      content_type: 'post',
      per_page: 100,
    })
    expect(posts.total).toBe(6)
    const bySlug = await store().getStories(siteId, { by_slugs: 'about-us,contact-us' })
    expect(bySlug.stories.map((s) => s.slug).sort()).toEqual(['about-us', 'contact-us'])
    const wildcard = await store().getStories(siteId, { by_slugs: 'settings/*', per_page: 100 })
    expect(wildcard.total).toBe(3)
    const uuid = bySlug.stories[0]!.uuid
    const byUuid = await store().getStories(siteId, { by_uuids: uuid })
    expect(byUuid.stories.map((s) => s.uuid)).toEqual([uuid])
  })

  it('resolves relations into story objects', async () => {
    const story = await store().getStory(siteId, 'blog/how-often-should-fire-extinguishers-be-serviced', {
      resolve_relations: 'post.categories',
    })
    const categories = story!.content.categories as { name: string; full_slug: string }[]
    expect(categories.map((c) => c.name)).toEqual(['Fire Safety', 'Fire Extinguishers'])
    expect(categories[0]!.full_slug).toBe('blog/fire-safety')
  })

  it('reports a cache version that moves on import', async () => {
    if (name === 'storyblok') await (store() as StoryblokContentStore).refresh(siteId)
    const before = await store().cacheVersion(siteId)
    expect(before).toBeGreaterThan(0)
    await bumpCacheVersion(db, siteId, new Date(Date.now() + 3_600_000))
    if (name === 'storyblok') await (store() as StoryblokContentStore).refresh(siteId)
    expect(await store().cacheVersion(siteId)).toBeGreaterThan(before)
  })

  it('answers an empty list for a site without content', async () => {
    const result = await store().getStories(siteId + 1000, { starts_with: 'blog/' })
    expect(result.stories).toEqual([])
    expect(result.total).toBe(0)
  })
})
