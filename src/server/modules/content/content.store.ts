/**
 * The content interface (ADR 0040): stories in Storyblok's shape, from the embedded database
 * store or from Storyblok itself. Both implementations answer the same queries the same way and
 * pass the same contract tests (tests/http/content-store.contract.test.ts).
 */
import { and, asc, desc, eq, inArray, isNotNull, like, sql, type SQL } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { contentSpaces, contentStories, type ContentStoryRow } from './content.tables.ts'
import {
  isBlok,
  type Blok,
  type StoriesQuery,
  type StoriesResult,
  type Story,
  type Version,
} from './storyblok.types.ts'

export interface ContentStore {
  /** One story by full slug; null when missing (or, for `published`, never published). */
  getStory(
    siteId: number,
    fullSlug: string,
    options?: { version?: Version; resolve_relations?: string },
  ): Promise<Story | null>
  /** A page of stories, Storyblok's list semantics (`starts_with`, `by_slugs`, paging...). */
  getStories(siteId: number, query?: StoriesQuery): Promise<StoriesResult>
  /** The cache version (cv) of the site's space. */
  cacheVersion(siteId: number): Promise<number>
}

export const MAX_PER_PAGE = 100
export const DEFAULT_PER_PAGE = 25
/** Storyblok resolves at most this many relations per request. */
export const MAX_RESOLVED_RELATIONS = 50

export function toStory(row: ContentStoryRow, version: Version): Story {
  const content = (
    version === 'draft' ? row.draftContent : (row.publishedContent ?? row.draftContent)
  ) as Blok
  return {
    id: row.id,
    uuid: row.uuid,
    name: row.name,
    slug: row.slug,
    full_slug: row.fullSlug,
    content,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    published_at: row.publishedAt?.toISOString() ?? null,
    first_published_at: row.firstPublishedAt?.toISOString() ?? null,
    sort_by_date: row.sortByDate,
    position: row.position,
    tag_list: row.tagList,
    is_startpage: row.isStartpage,
    parent_id: null,
    group_id: row.uuid,
    lang: 'default',
    alternates: [],
  }
}

/**
 * `resolve_relations=component.field,...`: swap UUID strings held in those fields for the story
 * objects (Storyblok's js-client does the same walk), returning the stories used.
 */
export async function resolveRelations(
  stories: Story[],
  spec: string | undefined,
  load: (uuids: string[]) => Promise<Story[]>,
): Promise<Story[]> {
  if (!spec) return []
  const wanted = new Set(
    spec
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  )
  const uuids = new Set<string>()
  const visit = (value: unknown, fn: (blok: Blok) => void) => {
    if (Array.isArray(value)) value.forEach((v) => visit(v, fn))
    else if (isBlok(value)) {
      fn(value)
      for (const v of Object.values(value)) if (typeof v === 'object') visit(v, fn)
    }
  }
  const collect = (blok: Blok) => {
    for (const [field, value] of Object.entries(blok)) {
      if (!wanted.has(`${blok.component}.${field}`)) continue
      const list = Array.isArray(value) ? value : [value]
      for (const v of list) if (typeof v === 'string') uuids.add(v)
    }
  }
  stories.forEach((s) => visit(s.content, collect))
  if (uuids.size === 0) return []
  const rels = await load([...uuids].slice(0, MAX_RESOLVED_RELATIONS))
  const byUuid = new Map(rels.map((r) => [r.uuid, r]))
  const replace = (blok: Blok) => {
    for (const [field, value] of Object.entries(blok)) {
      if (!wanted.has(`${blok.component}.${field}`)) continue
      if (Array.isArray(value))
        blok[field] = value.map((v) => (typeof v === 'string' ? (byUuid.get(v) ?? v) : v))
      else if (typeof value === 'string') blok[field] = byUuid.get(value) ?? value
    }
  }
  stories.forEach((s) => visit(s.content, replace))
  return rels
}

const SORTABLE: Record<string, SQL | typeof contentStories.position> = {
  position: sql`${contentStories.position}`,
  name: sql`${contentStories.name}`,
  created_at: sql`${contentStories.createdAt}`,
  published_at: sql`${contentStories.publishedAt}`,
  first_published_at: sql`${contentStories.firstPublishedAt}`,
  sort_by_date: sql`${contentStories.sortByDate}`,
  slug: sql`${contentStories.slug}`,
}

function orderBy(sortBy: string | undefined, version: Version): SQL[] {
  const out: SQL[] = []
  if (sortBy) {
    const [field = '', dir = 'asc', cast] = sortBy.split(':')
    const direction = dir === 'desc' ? desc : asc
    const column = SORTABLE[field]
    if (column) out.push(direction(column))
    else if (/^content\.[A-Za-z0-9_]{1,60}$/.test(field)) {
      const key = field.slice('content.'.length)
      const source = version === 'draft' ? contentStories.draftContent : contentStories.publishedContent
      const value = sql`(${source} ->> ${key})`
      out.push(direction(cast === 'int' || cast === 'float' ? sql`${value}::numeric` : value))
    }
  }
  out.push(asc(contentStories.position), asc(contentStories.id))
  return out
}

/** The embedded store: stories in PostgreSQL (or PGlite). */
export class LocalContentStore implements ContentStore {
  constructor(private readonly db: Db) {}

  async getStory(
    siteId: number,
    fullSlug: string,
    options: { version?: Version; resolve_relations?: string } = {},
  ): Promise<Story | null> {
    const version = options.version ?? 'published'
    const conditions = [
      eq(contentStories.siteId, siteId),
      eq(contentStories.fullSlug, fullSlug.replace(/^\/+|\/+$/g, '')),
    ]
    if (version === 'published') conditions.push(isNotNull(contentStories.publishedContent))
    const [row] = await this.db
      .select()
      .from(contentStories)
      .where(and(...conditions))
      .limit(1)
    if (!row) return null
    const story = structuredClone(toStory(row, version))
    await resolveRelations([story], options.resolve_relations, (uuids) =>
      this.byUuids(siteId, uuids, version),
    )
    return story
  }

  async getStories(siteId: number, query: StoriesQuery = {}): Promise<StoriesResult> {
    const version = query.version ?? 'published'
    const perPage = Math.min(MAX_PER_PAGE, Math.max(1, Math.floor(query.per_page ?? DEFAULT_PER_PAGE)))
    const page = Math.max(1, Math.floor(query.page ?? 1))
    const conditions: SQL[] = [eq(contentStories.siteId, siteId)]
    if (version === 'published') conditions.push(isNotNull(contentStories.publishedContent))
    if (query.starts_with) {
      const prefix = query.starts_with.replace(/^\/+/, '').replace(/[\\%_]/g, (c) => `\\${c}`)
      conditions.push(like(contentStories.fullSlug, `${prefix}%`))
    }
    if (query.by_slugs) {
      const slugs = query.by_slugs
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
      const exact = slugs.filter((s) => !s.includes('*'))
      const patterns = slugs.filter((s) => s.includes('*'))
      const parts: SQL[] = []
      if (exact.length) parts.push(inArray(contentStories.fullSlug, exact))
      for (const p of patterns)
        parts.push(like(contentStories.fullSlug, p.replace(/[\\%_]/g, (c) => `\\${c}`).replaceAll('*', '%')))
      conditions.push(parts.length ? sql`(${sql.join(parts, sql` or `)})` : sql`false`)
    }
    if (query.by_uuids) {
      const uuids = query.by_uuids
        .split(',')
        .map((s) => s.trim())
        .filter((s) => /^[0-9a-f-]{36}$/i.test(s))
      conditions.push(uuids.length ? inArray(contentStories.uuid, uuids) : sql`false`)
    }
    const contentColumn = version === 'draft' ? contentStories.draftContent : contentStories.publishedContent
    if (query.content_type) conditions.push(sql`(${contentColumn} ->> 'component') = ${query.content_type}`)
    if (query.with_tag && query.with_tag.split(',').some((s) => s.trim())) {
      const tags = query.with_tag
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
      conditions.push(
        sql`(${sql.join(
          tags.map((t) => sql`${contentStories.tagList} @> ${JSON.stringify([t])}::jsonb`),
          sql` or `,
        )})`,
      )
    }
    if (query.is_startpage !== undefined) conditions.push(eq(contentStories.isStartpage, query.is_startpage))
    const where = and(...conditions)
    const [counted] = await this.db
      .select({ n: sql<number>`count(*)::int` })
      .from(contentStories)
      .where(where)
    const rows = await this.db
      .select()
      .from(contentStories)
      .where(where)
      .orderBy(...orderBy(query.sort_by, version))
      .limit(perPage)
      .offset((page - 1) * perPage)
    const stories = rows.map((r) => structuredClone(toStory(r, version)))
    const rels = await resolveRelations(stories, query.resolve_relations, (uuids) =>
      this.byUuids(siteId, uuids, version),
    )
    return { stories, rels, cv: await this.cacheVersion(siteId), total: counted?.n ?? 0, perPage }
  }

  async cacheVersion(siteId: number): Promise<number> {
    const [row] = await this.db
      .select({ version: contentSpaces.version })
      .from(contentSpaces)
      .where(eq(contentSpaces.siteId, siteId))
    return row?.version ?? 0
  }

  private async byUuids(siteId: number, uuids: string[], version: Version): Promise<Story[]> {
    if (uuids.length === 0) return []
    const valid = uuids.filter((s) => /^[0-9a-f-]{36}$/i.test(s))
    if (valid.length === 0) return []
    const conditions = [eq(contentStories.siteId, siteId), inArray(contentStories.uuid, valid)]
    if (version === 'published') conditions.push(isNotNull(contentStories.publishedContent))
    const rows = await this.db
      .select()
      .from(contentStories)
      .where(and(...conditions))
    return rows.map((r) => toStory(r, version))
  }
}
