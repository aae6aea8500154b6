/**
 * The Storyblok content store (ADR 0040): the official `storyblok-js-client` against the Content
 * Delivery API v2, one client (space) per site. The client keeps published responses in memory
 * and sends the cache version (`cv`) it last saw; `refresh()` (called by the publish webhook)
 * reads the new version from `cdn/spaces/me` so the next requests are not served stale.
 */
import StoryblokClient from 'storyblok-js-client'
import { MAX_PER_PAGE, type ContentStore } from './content.store.ts'
import type { StoriesQuery, StoriesResult, Story, Version } from './storyblok.types.ts'

export interface StoryblokOptions {
  /** Content delivery token for a site (by id); null when the site has none */
  tokenFor: (siteId: number) => Promise<string | null>
  version: Version
  /** API base URL; default Storyblok's EU region (https://api.storyblok.com/v2) */
  endpoint?: string | null
  /** Requests per second the client allows itself (Storyblok's own tiers are 6–50) */
  rateLimit?: number
  fetch?: typeof fetch
}

interface ApiError {
  status?: number
  message?: string
}

function apiError(err: unknown): Error {
  const e = err as ApiError
  return new Error(`Storyblok: ${e.message ?? 'request failed'} (${e.status ?? 0})`, { cause: err })
}

const LIST_PARAMS = [
  'starts_with',
  'by_slugs',
  'by_uuids',
  'content_type',
  'with_tag',
  'sort_by',
  'resolve_relations',
] as const

export class StoryblokContentStore implements ContentStore {
  private readonly clients = new Map<string, StoryblokClient>()

  constructor(private readonly options: StoryblokOptions) {}

  private async client(siteId: number): Promise<StoryblokClient | null> {
    const token = await this.options.tokenFor(siteId)
    if (!token) return null
    let client = this.clients.get(token)
    if (!client) {
      client = new StoryblokClient({
        accessToken: token,
        cache: { type: 'memory', clear: 'auto' },
        rateLimit: this.options.rateLimit,
        maxRetries: 3,
        timeout: 10,
        ...(this.options.endpoint ? { endpoint: this.options.endpoint } : {}),
        ...(this.options.fetch ? { fetch: this.options.fetch } : {}),
      })
      this.clients.set(token, client)
    }
    return client
  }

  async getStory(
    siteId: number,
    fullSlug: string,
    options: { version?: Version; resolve_relations?: string } = {},
  ): Promise<Story | null> {
    const client = await this.client(siteId)
    if (!client) return null
    try {
      const res = await client.get(`cdn/stories/${fullSlug.replace(/^\/+|\/+$/g, '')}`, {
        version: options.version ?? this.options.version,
        ...(options.resolve_relations ? { resolve_relations: options.resolve_relations } : {}),
      })
      return (res.data as { story: Story }).story
    } catch (err) {
      if ((err as ApiError).status === 404) return null
      throw apiError(err)
    }
  }

  async getStories(siteId: number, query: StoriesQuery = {}): Promise<StoriesResult> {
    const client = await this.client(siteId)
    const perPage = Math.min(MAX_PER_PAGE, Math.max(1, Math.floor(query.per_page ?? 25)))
    if (!client) return { stories: [], rels: [], cv: 0, total: 0, perPage }
    const params: Record<string, string | number> = {
      version: query.version ?? this.options.version,
      per_page: perPage,
      page: Math.max(1, Math.floor(query.page ?? 1)),
    }
    for (const key of LIST_PARAMS) {
      const value = query[key]
      if (typeof value === 'string' && value) params[key] = value
    }
    if (query.is_startpage !== undefined) params.is_startpage = query.is_startpage ? 1 : 0
    try {
      const res = await client.get('cdn/stories', params)
      const data = res.data as { stories: Story[]; rels?: Story[]; cv: number }
      return {
        stories: data.stories,
        rels: data.rels ?? [],
        cv: data.cv,
        total: res.total ?? data.stories.length,
        perPage,
      }
    } catch (err) {
      throw apiError(err)
    }
  }

  async cacheVersion(siteId: number): Promise<number> {
    const client = await this.client(siteId)
    if (!client) return 0
    return client.cacheVersion() || 0
  }

  /** After a publish: read the space's new version and drop the client's cached responses. */
  async refresh(siteId: number): Promise<number> {
    const client = await this.client(siteId)
    if (!client) return 0
    await client.flushCache()
    const res = await client.get('cdn/spaces/me', {})
    const version = Number((res.data as { space?: { version?: number } }).space?.version) || 0
    if (version) client.setCacheVersion(version)
    return version
  }
}
