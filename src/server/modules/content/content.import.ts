/**
 * Imports the JSON stories under `content/<site code>/` into the embedded store (ADR 0040).
 * The files are the source: a story whose file is gone is removed, and the site's cache version
 * (cv) moves, so every process drops its cached content.
 *
 * A file `content/harbour/blog/safety-week.json` is the story with full_slug `blog/safety-week`:
 *   { "name": "...", "content": { "component": "post", ... },
 *     "published": true,            // default true; false = draft only
 *     "draft": { ... },             // optional draft content that differs from the published one
 *     "uuid": "...", "tag_list": [], "position": 0, "is_startpage": false, "sort_by_date": "2026-01-31" }
 * Blocks without `_uid` get a stable one derived from the story and their place in it.
 */
import { createHash } from 'node:crypto'
import { readdir, readFile } from 'node:fs/promises'
import { join, relative, sep } from 'node:path'
import { and, eq, notInArray, sql } from 'drizzle-orm'
import { z } from 'zod'
import { projectRoot } from '../../config.ts'
import type { Db } from '../../db/client.ts'
import { sites } from '../sites/sites.tables.ts'
import { contentSpaces, contentStories } from './content.tables.ts'
import type { Blok } from './storyblok.types.ts'

export const CONTENT_DIR = join(projectRoot, 'content')

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*(?:\/[a-z0-9]+(?:-[a-z0-9]+)*)*$/

const blokSchema = z.looseObject({
  component: z.string().regex(/^[a-z][a-z0-9_]*$/),
  _uid: z.string().optional(),
})

const storyFileSchema = z.object({
  name: z.string().min(1).max(200),
  uuid: z.uuid().optional(),
  content: blokSchema,
  draft: blokSchema.optional(),
  published: z.boolean().default(true),
  tag_list: z.array(z.string().max(60)).max(50).default([]),
  position: z.number().int().default(0),
  is_startpage: z.boolean().default(false),
  sort_by_date: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .nullable()
    .default(null),
  published_at: z.iso.datetime({ offset: true }).optional(),
})

export interface ParsedStory extends z.output<typeof storyFileSchema> {
  fullSlug: string
  uuid: string
}

/** A stable UUID (v5-style layout) from a name. */
export function stableUuid(name: string): string {
  const h = createHash('sha1').update(name).digest('hex')
  const variant = ((parseInt(h.slice(16, 18), 16) & 0x3f) | 0x80).toString(16)
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${variant}${h.slice(18, 20)}-${h.slice(20, 32)}`
}

/** Gives every block in the tree a `_uid` (stable: derived from the path to it). */
export function withUids(value: unknown, path: string): unknown {
  if (Array.isArray(value)) return value.map((v, i) => withUids(v, `${path}.${i}`))
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(value)) out[k] = withUids(v, `${path}.${k}`)
    if (typeof out.component === 'string' && typeof out._uid !== 'string') out._uid = stableUuid(path)
    return out
  }
  return value
}

async function jsonFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => [])
  const out: string[] = []
  for (const e of entries) {
    const full = join(dir, e.name)
    if (e.isDirectory()) out.push(...(await jsonFiles(full)))
    else if (e.isFile() && e.name.endsWith('.json')) out.push(full)
  }
  return out.sort()
}

/** Reads and checks every story file of one site; a bad file stops the import with its name. */
export async function readSiteStories(dir: string, siteCode: string): Promise<ParsedStory[]> {
  const base = join(dir, siteCode)
  const out: ParsedStory[] = []
  for (const file of await jsonFiles(base)) {
    const fullSlug = relative(base, file).slice(0, -'.json'.length).split(sep).join('/')
    if (!SLUG.test(fullSlug)) throw new Error(`content/${siteCode}/${fullSlug}.json: not a valid slug`)
    let raw: unknown
    try {
      raw = JSON.parse(await readFile(file, 'utf8'))
    } catch (err) {
      throw new Error(`content/${siteCode}/${fullSlug}.json: ${(err as Error).message}`, { cause: err })
    }
    const parsed = storyFileSchema.safeParse(raw)
    if (!parsed.success) {
      throw new Error(`content/${siteCode}/${fullSlug}.json: ${z.prettifyError(parsed.error)}`)
    }
    const uuid = parsed.data.uuid ?? stableUuid(`${siteCode}/${fullSlug}`)
    out.push({
      ...parsed.data,
      content: withUids(parsed.data.content, `${uuid}.content`) as Blok,
      draft: parsed.data.draft ? (withUids(parsed.data.draft, `${uuid}.content`) as Blok) : undefined,
      fullSlug,
      uuid,
    })
  }
  return out
}

export interface ImportResult {
  site: string
  stories: number
  removed: number
  cv: number
}

/**
 * Imports every site's stories in one transaction. Sites without a folder keep no stories.
 * Returns a line per site.
 */
export async function importContent(
  db: Db,
  dir: string = CONTENT_DIR,
  now = new Date(),
): Promise<ImportResult[]> {
  const results: ImportResult[] = []
  const siteRows = await db.select({ id: sites.id, code: sites.code }).from(sites)
  const parsed = new Map<string, ParsedStory[]>()
  for (const site of siteRows) parsed.set(site.code, await readSiteStories(dir, site.code))

  await db.transaction(async (tx) => {
    for (const site of siteRows) {
      const stories = parsed.get(site.code) ?? []
      for (const s of stories) {
        const published = s.published ? s.content : null
        const publishedAt = s.published ? new Date(s.published_at ?? now.toISOString()) : null
        const values = {
          siteId: site.id,
          uuid: s.uuid,
          name: s.name,
          slug: s.fullSlug.split('/').at(-1) as string,
          fullSlug: s.fullSlug,
          isStartpage: s.is_startpage,
          position: s.position,
          tagList: s.tag_list,
          draftContent: (s.draft ?? s.content) as Blok,
          publishedContent: published as Blok | null,
          sortByDate: s.sort_by_date,
          publishedAt,
        }
        await tx
          .insert(contentStories)
          .values({ ...values, firstPublishedAt: publishedAt })
          .onConflictDoUpdate({
            target: [contentStories.siteId, contentStories.fullSlug],
            set: {
              ...values,
              updatedAt: sql`now()`,
              firstPublishedAt: sql`coalesce(${contentStories.firstPublishedAt}, ${publishedAt})`,
            },
          })
      }
      const keep = stories.map((s) => s.fullSlug)
      const removed = await tx
        .delete(contentStories)
        .where(
          keep.length
            ? and(eq(contentStories.siteId, site.id), notInArray(contentStories.fullSlug, keep))
            : eq(contentStories.siteId, site.id),
        )
        .returning({ id: contentStories.id })
      const cv = await bumpCacheVersion(tx as unknown as Db, site.id, now)
      results.push({ site: site.code, stories: stories.length, removed: removed.length, cv })
    }
  })
  return results
}

/** Moves a site's cache version on: epoch seconds, always greater than before. */
export async function bumpCacheVersion(db: Db, siteId: number, now = new Date()): Promise<number> {
  const seconds = Math.floor(now.getTime() / 1000)
  const [row] = await db
    .insert(contentSpaces)
    .values({ siteId, version: seconds })
    .onConflictDoUpdate({
      target: contentSpaces.siteId,
      set: { version: sql`greatest(${contentSpaces.version} + 1, ${seconds})` },
    })
    .returning({ version: contentSpaces.version })
  return row?.version ?? seconds
}
