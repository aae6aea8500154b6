/**
 * Search: redirect rules (a query that goes straight to a page), the query log kept for click
 * analytics and query suggestions, and the click events themselves.
 */
import { boolean, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
import { sites } from '../sites/sites.tables.ts'

/** Query → url. The query is stored normalised (lower case, single spaces) and matched whole. */
export const searchRedirects = pgTable(
  'search_redirects',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    query: text('query').notNull(),
    url: text('url').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('search_redirects_site_query').on(t.siteId, t.query)],
)

/** One row per search that asked for click analytics (the dropdown's products, the /search page). */
export const searchQueries = pgTable(
  'search_queries',
  {
    /** The queryID handed to the browser: 32 lowercase hex characters */
    queryId: text('query_id').primaryKey(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    indexName: text('index_name').notNull(),
    /** Normalised query text */
    query: text('query').notNull(),
    nbHits: integer('nb_hits').notNull(),
    /** True for searches the visitor submitted (the /search page): the source of suggestions */
    submitted: boolean('submitted').notNull().default(false),
    userToken: text('user_token'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('search_queries_site_submitted').on(t.siteId, t.submitted, t.createdAt)],
)

/** Clicks on search results (Insights 'click' events): query, object and 1-based position. */
export const searchClicks = pgTable(
  'search_clicks',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    queryId: text('query_id').notNull(),
    objectId: text('object_id').notNull(),
    position: integer('position').notNull(),
    eventName: text('event_name').notNull(),
    indexName: text('index_name').notNull(),
    userToken: text('user_token'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('search_clicks_site_object').on(t.siteId, t.objectId),
    index('search_clicks_query').on(t.queryId),
  ],
)
