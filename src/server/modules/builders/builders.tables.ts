/**
 * The builder tools of a category ('Design A Sign', the custom workwear builder) and the
 * workwear builder's sessions. A sign's design lives on its basket line (cart_items.printable_sign);
 * a workwear design, with its uploaded logo, lives here so the basket's link can reopen it.
 */
import { sql } from 'drizzle-orm'
import {
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core'
import { carts, type PrintableSign, type WorkWearSession } from '../cart/cart.tables.ts'
import { orderItems, orders } from '../orders/orders.tables.ts'
import { categories } from '../catalog/catalog.tables.ts'
import { sites } from '../sites/sites.tables.ts'
import type { WorkwearConfig, WorkwearDesign } from '../../../shared/workwear.ts'

export const BUILDER_TOOL_KINDS = ['sign', 'workwear'] as const
export type BuilderToolKind = (typeof BUILDER_TOOL_KINDS)[number]

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
})

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

/**
 * What an ordered builder line keeps beyond the order item (ADR 0039): the sign's printable data or
 * the workwear line's session data, and its small preview. The preview is served at
 * /order-preview/{token}.png to whoever has the token (order e-mails are read without a session),
 * so the token is 128 random bits; the PNG is drawn from the stored SVG on first request.
 */
export const orderBuilderLines = pgTable(
  'order_builder_lines',
  {
    orderItemId: integer('order_item_id')
      .primaryKey()
      .references(() => orderItems.id, { onDelete: 'cascade' }),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    printableSign: jsonb('printable_sign').$type<PrintableSign>(),
    workWearSession: jsonb('work_wear_session').$type<WorkWearSession>(),
    previewToken: text('preview_token').notNull(),
    previewAlt: text('preview_alt').notNull(),
    previewSvg: text('preview_svg').notNull(),
    previewPng: bytea('preview_png'),
  },
  (t) => [
    uniqueIndex('order_builder_lines_token').on(t.previewToken),
    index('order_builder_lines_order').on(t.orderId),
  ],
)

/** A workwear design as ordered, with its logo: the basket's session row goes with the basket. */
export const orderWorkwearDesigns = pgTable(
  'order_workwear_designs',
  {
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    /** The basket session's id, as the order's lines name it in work_wear_session.id */
    sessionId: uuid('session_id').notNull(),
    categoryId: integer('category_id'),
    design: jsonb('design').$type<WorkwearDesign>().notNull(),
    /** The logo's upload-store key: keys are content hashes, never overwritten or reused */
    logoKey: text('logo_key'),
    logoType: text('logo_type'),
  },
  (t) => [primaryKey({ columns: [t.orderId, t.sessionId] })],
)

export type BuilderToolRow = typeof builderTools.$inferSelect
export type WorkwearSessionRow = typeof workwearSessions.$inferSelect
