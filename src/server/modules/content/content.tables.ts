import { sql } from 'drizzle-orm'
import { boolean, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
import type { Breadcrumb } from '../../../shared/page-props.ts'
import { sites } from '../sites/sites.tables.ts'

/**
 * Generic content pages (page name `Page`), one slug per site. The content-system issue
 * replaces the source of these with Storyblok-shaped stories; the page contract stays.
 */
export const contentPages = pgTable(
  'content_pages',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    /** Path without the leading slash: 'about-us', 'help/delivery' */
    slug: text('slug').notNull(),
    title: text('title').notNull(),
    metaDescription: text('meta_description').notNull().default(''),
    keywords: text('keywords'),
    noindex: boolean('noindex').notNull().default(false),
    breadcrumbs: jsonb('breadcrumbs').$type<Breadcrumb[]>(),
    /** HTML, sanitised when rendered */
    body: text('body').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true })
      .notNull()
      .default(sql`now()`),
  },
  (t) => [uniqueIndex('content_pages_site_slug').on(t.siteId, t.slug)],
)
