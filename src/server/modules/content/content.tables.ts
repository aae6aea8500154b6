import { sql } from 'drizzle-orm'
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core'
import { sites } from '../sites/sites.tables.ts'
import type { Blok } from './storyblok.types.ts'

/**
 * The embedded content store, shaped like a Storyblok space (one space per site): each story keeps
 * its draft content and, once published, a snapshot of the published content. Stories come from
 * the JSON files under `content/` (see ADR 0040).
 */
export const contentStories = pgTable(
  'content_stories',
  {
    id: serial('id').primaryKey(),
    uuid: uuid('uuid').notNull().unique().defaultRandom(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** Last path segment: 'about-us' */
    slug: text('slug').notNull(),
    /** Whole path without the leading slash: 'blog/safety-week' */
    fullSlug: text('full_slug').notNull(),
    isStartpage: boolean('is_startpage').notNull().default(false),
    position: integer('position').notNull().default(0),
    tagList: jsonb('tag_list').$type<string[]>().notNull().default([]),
    /** What `version=draft` returns: the root blok */
    draftContent: jsonb('draft_content').$type<Blok>().notNull(),
    /** Snapshot taken at publish; null = not published (`version=published` answers 404) */
    publishedContent: jsonb('published_content').$type<Blok>(),
    sortByDate: text('sort_by_date'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true })
      .notNull()
      .default(sql`now()`),
    publishedAt: timestamp('published_at', { withTimezone: true }),
    firstPublishedAt: timestamp('first_published_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('content_stories_site_full_slug').on(t.siteId, t.fullSlug),
    index('content_stories_site_prefix').on(t.siteId, t.fullSlug.op('text_pattern_ops')),
  ],
)

/** One row per site: the cache version (`cv`), moved on every import or publish. */
export const contentSpaces = pgTable('content_spaces', {
  siteId: integer('site_id')
    .primaryKey()
    .references(() => sites.id, { onDelete: 'cascade' }),
  version: bigint('version', { mode: 'number' }).notNull(),
})

/** Submissions of forms defined in content (the `form` block). */
export const formSubmissions = pgTable(
  'form_submissions',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    formId: text('form_id').notNull(),
    /** Field name -> value, as validated against the form definition */
    data: jsonb('data').$type<Record<string, string>>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('form_submissions_site_form').on(t.siteId, t.formId)],
)

export type ContentStoryRow = typeof contentStories.$inferSelect
