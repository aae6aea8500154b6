import { sql } from 'drizzle-orm'
import { jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core'
import type { SiteSettings } from './sites.settings.ts'

/** One row per brand. A request's host picks the site. */
export const sites = pgTable('sites', {
  id: serial('id').primaryKey(),
  /** Host name without port, lower case: 'localhost', 'shop.example.co.uk' */
  host: text('host').notNull().unique(),
  /** Short brand code used in seeds and logs */
  code: text('code').notNull().unique(),
  name: text('name').notNull(),
  currency: text('currency', { enum: ['GBP', 'USD'] })
    .notNull()
    .default('GBP'),
  logo: text('logo'),
  settings: jsonb('settings').$type<SiteSettings>().notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true })
    .notNull()
    .default(sql`now()`),
})

export type SiteRow = typeof sites.$inferSelect
export type NewSiteRow = typeof sites.$inferInsert
