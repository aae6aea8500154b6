/**
 * The builder tools of a category ('Design A Sign', the custom workwear builder) and the
 * workwear builder's sessions. A sign's design lives on its basket line (cart_items.printable_sign);
 * a workwear design, with its uploaded logo, lives here so the basket's link can reopen it.
 */
import { sql } from 'drizzle-orm'
import { index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core'
import { carts } from '../cart/cart.tables.ts'
import { categories } from '../catalog/catalog.tables.ts'
import { sites } from '../sites/sites.tables.ts'
import type { WorkwearConfig, WorkwearDesign } from '../../../shared/workwear.ts'

export const BUILDER_TOOL_KINDS = ['sign', 'workwear'] as const
export type BuilderToolKind = (typeof BUILDER_TOOL_KINDS)[number]

/** A category that opens a builder: its kind and (workwear) its colours, positions and costs. */
export const builderTools = pgTable('builder_tools', {
  categoryId: integer('category_id')
    .primaryKey()
    .references(() => categories.id, { onDelete: 'cascade' }),
  siteId: integer('site_id')
    .notNull()
    .references(() => sites.id, { onDelete: 'cascade' }),
  kind: text('kind', { enum: BUILDER_TOOL_KINDS }).notNull(),
  config: jsonb('config').$type<WorkwearConfig | Record<string, never>>().notNull().default({}),
})

/** One workwear design, owned by the basket it was added to. */
export const workwearSessions = pgTable(
  'workwear_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    cartId: uuid('cart_id')
      .notNull()
      .references(() => carts.id, { onDelete: 'cascade' }),
    categoryId: integer('category_id')
      .notNull()
      .references(() => categories.id, { onDelete: 'cascade' }),
    design: jsonb('design').$type<WorkwearDesign>().notNull(),
    /** Key of the uploaded logo in the upload store (sanitised SVG, or re-encoded PNG/JPEG) */
    logoKey: text('logo_key'),
    logoType: text('logo_type'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true })
      .notNull()
      .default(sql`now()`),
  },
  (t) => [index('workwear_sessions_cart').on(t.cartId)],
)

export type BuilderToolRow = typeof builderTools.$inferSelect
export type WorkwearSessionRow = typeof workwearSessions.$inferSelect
