/**
 * A local stand-in for Storyblok's Content Delivery API v2, serving the embedded store under the
 * real paths and JSON envelopes (`/v2/cdn/stories`, `/v2/cdn/stories/{full_slug}`,
 * `/v2/cdn/spaces/me`, with `Total` and `Per-Page` headers). The Storyblok adapter is tested
 * against it (the same contract tests as the embedded store), and it lets the adapter run with
 * no Storyblok account. Each token opens one site's space.
 */
import Fastify, { type FastifyInstance } from 'fastify'
import qs from 'qs'
import type { ContentStore } from '../../src/server/modules/content/content.store.ts'
import type { StoriesQuery, Version } from '../../src/server/modules/content/storyblok.types.ts'

/** Parameters the stand-in understands; Storyblok answers 422 to unknown ones. */
const KNOWN = new Set([
  'token',
  'version',
  'cv',
  'starts_with',
  'by_slugs',
  'by_uuids',
  'content_type',
  'with_tag',
  'is_startpage',
  'sort_by',
  'per_page',
  'page',
  'resolve_relations',
  'resolve_links',
  'resolve_level',
  'find_by',
  'language',
  'fallback_lang',
])

export async function createStoryblokStandIn(
  store: ContentStore,
  tokens: Record<string, number>,
): Promise<FastifyInstance> {
  const app = Fastify({
    logger: false,
    routerOptions: { querystringParser: (s: string) => qs.parse(s), maxParamLength: 500 },
  })

  app.addHook('onRequest', async (request, reply) => {
    const q = (request.query ?? {}) as Record<string, unknown>
    const siteId = typeof q.token === 'string' ? tokens[q.token] : undefined
    if (siteId === undefined) return reply.code(401).send({ error: 'Unauthorized' })
    const unknown = Object.keys(q).filter((k) => !KNOWN.has(k))
    if (unknown.length) return reply.code(422).send({ error: `Unknown parameter: ${unknown.join(', ')}` })
    ;(request as unknown as { siteId: number }).siteId = siteId
  })

  const version = (q: Record<string, unknown>): Version => (q.version === 'draft' ? 'draft' : 'published')
  const siteOf = (r: unknown) => (r as { siteId: number }).siteId

  app.get('/v2/cdn/spaces/me', async (request) => {
    const cv = await store.cacheVersion(siteOf(request))
    return {
      space: {
        id: siteOf(request),
        name: `site ${siteOf(request)}`,
        domain: '',
        version: cv,
        language_codes: [],
      },
    }
  })

  app.get('/v2/cdn/stories', async (request, reply) => {
    const q = request.query as Record<string, string | undefined>
    const query: StoriesQuery = {
      version: version(q),
      starts_with: q.starts_with,
      by_slugs: q.by_slugs,
      by_uuids: q.by_uuids,
      content_type: q.content_type,
      with_tag: q.with_tag,
      sort_by: q.sort_by,
      resolve_relations: q.resolve_relations,
      per_page: q.per_page ? Number(q.per_page) : undefined,
      page: q.page ? Number(q.page) : undefined,
      ...(q.is_startpage !== undefined
        ? { is_startpage: q.is_startpage === '1' || q.is_startpage === 'true' }
        : {}),
    }
    const result = await store.getStories(siteOf(request), query)
    reply.header('total', String(result.total)).header('per-page', String(result.perPage))
    return { stories: result.stories, cv: result.cv, rels: result.rels, links: [] }
  })

  app.get('/v2/cdn/stories/*', async (request, reply) => {
    const q = request.query as Record<string, string | undefined>
    const slug = (request.params as { '*': string })['*']
    const story = await store.getStory(siteOf(request), slug, { version: version(q) })
    if (!story) return reply.code(404).send(['This record could not be found'])
    // Relations are returned in `rels` (the client inlines them), as Storyblok does.
    const rels = q.resolve_relations
      ? (
          await store.getStories(siteOf(request), {
            version: version(q),
            by_uuids: relationUuids(story.content, q.resolve_relations).join(','),
            per_page: 100,
          })
        ).stories
      : []
    return { story, cv: await store.cacheVersion(siteOf(request)), rels, links: [] }
  })

  return app
}

function relationUuids(content: unknown, spec: string): string[] {
  const wanted = new Set(spec.split(','))
  const out: string[] = []
  const walk = (v: unknown) => {
    if (Array.isArray(v)) v.forEach(walk)
    else if (v && typeof v === 'object') {
      const blok = v as Record<string, unknown>
      for (const [k, value] of Object.entries(blok)) {
        if (typeof blok.component === 'string' && wanted.has(`${blok.component}.${k}`)) {
          for (const u of Array.isArray(value) ? value : [value]) if (typeof u === 'string') out.push(u)
        } else walk(value)
      }
    }
  }
  walk(content)
  return out
}
