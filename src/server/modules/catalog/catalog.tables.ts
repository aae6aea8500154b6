/**
 * The catalogue: per-site category trees, product groups (the `Product` page) and their SKUs
 * (`products`, one row of a price grid each) with price-break brackets. Money is integer pence
 * (cents on USD sites), ex VAT. Anything the shop filters, sorts or joins on is a column with an
 * index; nested display data (descriptions with tabs, media, builder configuration) stays JSON.
 */
import { VAT_RELIEF_KINDS } from '../../../shared/vat-relief.ts'
import { sql } from 'drizzle-orm'
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core'
import { sites } from '../sites/sites.tables.ts'
import type {
  BuilderConfig,
  CatalogAttributes,
  CatalogFile,
  CatalogMedia,
  ColourSwatch,
  PriceBreak,
  StructuredDescription,
  ZonePricing,
} from '../../../shared/catalog.ts'

export const PAGE_LAYOUTS = ['Default', 'DefaultPGUnderLD', 'MediaLeft', 'SheltersLayout'] as const
export type PageLayout = (typeof PAGE_LAYOUTS)[number]

/** How a category page shows its products: the plain `Category` grid or `CategoryPaginated`. */
export const CATEGORY_DISPLAYS = ['grid', 'paginated'] as const

export const categories = pgTable(
  'categories',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    uuid: uuid('uuid').notNull().defaultRandom(),
    parentId: integer('parent_id'),
    slug: text('slug').notNull(),
    /** Full path, unique per site: '/safety-signs/fire-safety-signs' */
    url: text('url').notNull(),
    name: text('name').notNull(),
    shortDescription: text('short_description').notNull().default(''),
    longDescription: text('long_description').notNull().default(''),
    longDescriptionStructured: jsonb('long_description_structured').$type<StructuredDescription>(),
    attributes: jsonb('attributes').$type<CatalogAttributes>().notNull().default({}),
    media: jsonb('media').$type<CatalogMedia[]>().notNull().default([]),
    files: jsonb('files').$type<CatalogFile[]>().notNull().default([]),
    /** Trade categories, shown in the trade style */
    referrerRequired: boolean('referrer_required').notNull().default(false),
    builder: jsonb('builder').$type<BuilderConfig>(),
    display: text('display', { enum: CATEGORY_DISPLAYS }).notNull().default('paginated'),
    position: integer('position').notNull().default(0),
    published: boolean('published').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true })
      .notNull()
      .default(sql`now()`),
  },
  (t) => [
    uniqueIndex('categories_site_url').on(t.siteId, t.url),
    uniqueIndex('categories_uuid').on(t.uuid),
    index('categories_parent').on(t.siteId, t.parentId, t.position),
  ],
)

export const productGroups = pgTable(
  'product_groups',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    uuid: uuid('uuid').notNull().defaultRandom(),
    /** The primary category: breadcrumbs, builder and canonical trail come from it */
    categoryId: integer('category_id')
      .notNull()
      .references(() => categories.id),
    slug: text('slug').notNull(),
    /** Full path, unique per site: '/safety-signs/fire-exit-sign-running-man' */
    url: text('url').notNull(),
    name: text('name').notNull(),
    shortDescription: text('short_description').notNull().default(''),
    longDescription: text('long_description').notNull().default(''),
    longDescription2: text('long_description2').notNull().default(''),
    longDescriptionStructured: jsonb('long_description_structured').$type<StructuredDescription>(),
    attributes: jsonb('attributes').$type<CatalogAttributes>().notNull().default({}),
    media: jsonb('media').$type<CatalogMedia[]>().notNull().default([]),
    files: jsonb('files').$type<CatalogFile[]>().notNull().default([]),
    colourSwatches: jsonb('colour_swatches').$type<Record<string, ColourSwatch>>(),
    zonePricing: jsonb('zone_pricing').$type<ZonePricing[]>(),
    layout: text('layout', { enum: PAGE_LAYOUTS }).notNull().default('Default'),
    brand: text('brand'),
    mp3Link: text('mp3_link'),
    imageSku: text('image_sku'),
    /** Lowest published unit price across its SKUs and brackets (pence, ex VAT): sorting, 'As Low As' */
    minPrice: integer('min_price').notNull().default(0),
    /** Zero-rated for VAT when the buyer claims relief (incontinence, mobility) */
    vatReliefEligible: boolean('vat_relief_eligible').notNull().default(false),
    /** Eligible goods with a per-order limit under relief (pads, washable pads, underwear); null: none */
    vatReliefKind: text('vat_relief_kind', { enum: VAT_RELIEF_KINDS }),
    published: boolean('published').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true })
      .notNull()
      .default(sql`now()`),
  },
  (t) => [
    uniqueIndex('product_groups_site_url').on(t.siteId, t.url),
    uniqueIndex('product_groups_uuid').on(t.uuid),
    index('product_groups_category').on(t.categoryId),
    index('product_groups_site_published_name').on(t.siteId, t.published, t.name),
    index('product_groups_site_published_price').on(t.siteId, t.published, t.minPrice),
    index('product_groups_site_published_created').on(t.siteId, t.published, t.createdAt),
  ],
)

/** SKUs: one row of a price grid each. */
export const products = pgTable(
  'products',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    groupId: integer('group_id')
      .notNull()
      .references(() => productGroups.id, { onDelete: 'cascade' }),
    sku: text('sku').notNull(),
    /** Product code shown in the grid */
    productCode: text('product_code').notNull(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    /** Price grid number, 1 to 3 */
    grid: integer('grid').notNull().default(1),
    /**
     * SKUs that share a row key form one grid row with a dropdown of options (keyed by product
     * id); choosing one zeroes its siblings. Null = a row of its own.
     */
    rowKey: text('row_key'),
    /** Label of this SKU in its row's dropdown */
    optionLabel: text('option_label'),
    /** Stock quantity */
    qty: integer('qty').notNull().default(0),
    minimumOrder: integer('minimum_order').notNull().default(1),
    /** Price brackets, lowest quantity first; the last may be open-ended (higherQty null) */
    priceList: jsonb('price_list').$type<PriceBreak[]>().notNull(),
    /** Earlier unit price shown struck through (pence, ex VAT) */
    wasPrice: integer('was_price'),
    position: integer('position').notNull().default(0),
    published: boolean('published').notNull().default(true),
  },
  (t) => [
    uniqueIndex('products_site_sku').on(t.siteId, t.sku),
    index('products_group').on(t.groupId, t.grid, t.position),
  ],
)

/** Category membership for listings (a product group may sit in several categories). */
export const categoryProducts = pgTable(
  'category_products',
  {
    categoryId: integer('category_id')
      .notNull()
      .references(() => categories.id, { onDelete: 'cascade' }),
    groupId: integer('group_id')
      .notNull()
      .references(() => productGroups.id, { onDelete: 'cascade' }),
    position: integer('position').notNull().default(0),
    /** Overrides when shown in this category */
    nameOverride: text('name_override'),
    descriptionOverride: text('description_override'),
    imageOverride: text('image_override'),
  },
  (t) => [primaryKey({ columns: [t.categoryId, t.groupId] }), index('category_products_group').on(t.groupId)],
)

/** Alternative products shown on a product page (showAlternatives, alternativesLimit). */
export const productAlternatives = pgTable(
  'product_alternatives',
  {
    groupId: integer('group_id')
      .notNull()
      .references(() => productGroups.id, { onDelete: 'cascade' }),
    alternativeId: integer('alternative_id')
      .notNull()
      .references(() => productGroups.id, { onDelete: 'cascade' }),
    position: integer('position').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.alternativeId] })],
)

export type CategoryRow = typeof categories.$inferSelect
export type ProductGroupRow = typeof productGroups.$inferSelect
export type ProductRow = typeof products.$inferSelect
