/**
 * Baskets. A cart belongs to one site and is held by the visitor's session (its id in the session
 * key `cartId`); `customer_id` is set when a logged-in customer owns it. Saved baskets and the
 * copies made for sharing are carts too (`kind`). Lines keep only what the shopper chose
 * (product, quantity, options, sign and workwear data); prices are always recomputed from the
 * catalogue. Money is integer minor units (pence or cents), ex VAT.
 */
import type { VatReliefDeclaration } from '../../../shared/vat-relief.ts'
import { sql } from 'drizzle-orm'
import {
  boolean,
  check,
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
import { categories, products } from '../catalog/catalog.tables.ts'
import { sites } from '../sites/sites.tables.ts'
import type { SignDesign, SignSequence, SignSize } from '../../../shared/sign/design.ts'

/**
 * session: a visitor's basket; saved: a customer's named copy; shared: the copy behind a share
 * link; ordered: a session basket an order was placed from (frozen: no call changes it again).
 */
export const CART_KINDS = ['session', 'saved', 'shared', 'ordered'] as const
export type CartKind = (typeof CART_KINDS)[number]

export const PROMOTION_KINDS = ['percentage', 'fixed', 'free_delivery', 'free_gift'] as const
export type PromotionKind = (typeof PROMOTION_KINDS)[number]

/**
 * A printable sign line: what 'Design A Sign' drew (spec §7 "Legacy add helper"). The SVGs are
 * drawn and sanitised by the server from `design`; of the legacy add only the wording is kept.
 */
export interface PrintableSign {
  /**
   * Never read (ADR 0121): older lines may hold an address a browser sent, and Design A Sign
   * writes its own page here. The basket builds every Edit link from its routes and the line's id.
   */
  url?: string
  printableSVG?: string
  webVersionOfSVG?: string
  signReads?: string
  /** The design it was drawn from, so the designer can reopen it (absent on older lines) */
  design?: StoredSignDesign
}

/** A sign's design as stored: the designer's data, the size and material it was drawn for. */
export interface StoredSignDesign {
  design: SignDesign
  size: SignSize
  sizeLabel: string
  material: string
  sku: string
  /** A numbered set: its settings and this line's number */
  sequence?: SignSequence
  numberLabel?: string
}

/** A line made in the custom workwear builder (the design itself is in workwear_sessions). */
export interface WorkWearSession {
  id: string
  builder_json: {
    cat_id: number
    garment?: string
    colour?: string
    size?: string
    /** Chosen positions and text, with their cost per garment when the line was saved */
    customisation?: { name: string; cost: number }[]
  }
}

export const carts = pgTable(
  'carts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: CART_KINDS }).notNull().default('session'),
    /** The owning customer (no customers table yet: the auth module adds the reference) */
    customerId: integer('customer_id'),
    /** Name of a saved basket */
    basketName: text('basket_name'),
    /** True for a basket loaded from a share link: the Cart page hides Share */
    shared: boolean('shared').notNull().default(false),
    /** Secret of a share link (kind = shared); 128 bits, base64url */
    shareToken: text('share_token'),
    /** Null: the site's first zone */
    shippingZone: text('shipping_zone'),
    /** Null: the zone's first despatch type */
    despatchType: text('despatch_type'),
    /** The buyer claims VAT relief: eligible lines are zero-rated */
    applyVatRelief: boolean('apply_vat_relief').notNull().default(false),
    /** The buyer's VAT relief declaration; relief applies only while there is one */
    vatReliefDeclaration: jsonb('vat_relief_declaration').$type<VatReliefDeclaration>(),
    /** Applied promotional codes, as entered (upper-cased) */
    promotionCodes: jsonb('promotion_codes').$type<string[]>().notNull().default([]),
    /**
     * The browser a session basket was started for (a hash of its session or CSRF cookie), so
     * simultaneous first adds of one visitor find one basket. Null once a customer owns it.
     */
    ownerKey: text('owner_key'),
    /** When an order was placed from this basket (kind = ordered) */
    orderedAt: timestamp('ordered_at', { withTimezone: true }),
    /** Summary for the header (kept in step by every write): number of items, total inc VAT */
    summaryCount: integer('summary_count').notNull().default(0),
    summaryTotal: integer('summary_total').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true })
      .notNull()
      .default(sql`now()`),
  },
  (t) => [
    uniqueIndex('carts_share_token').on(t.shareToken),
    uniqueIndex('carts_owner_key').on(t.siteId, t.ownerKey),
    index('carts_customer').on(t.siteId, t.customerId, t.kind),
  ],
)

export const cartItems = pgTable(
  'cart_items',
  {
    id: serial('id').primaryKey(),
    cartId: uuid('cart_id')
      .notNull()
      .references(() => carts.id, { onDelete: 'cascade' }),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    /** The category the product was added from (builder options and links come from it) */
    categoryId: integer('category_id').references(() => categories.id, { onDelete: 'set null' }),
    quantity: integer('quantity').notNull(),
    /** A child line (an accessory of another line); removed with its parent */
    parentId: integer('parent_id'),
    /** A child whose quantity does not follow its parent's */
    isIsolatedFromParent: boolean('is_isolated_from_parent').notNull().default(false),
    /** Added by a free-gift promotion: priced at 0, quantity fixed */
    isFreeGift: boolean('is_free_gift').notNull().default(false),
    /** Lines drawn together in the sign builder share a sequence id */
    sequenceId: text('sequence_id'),
    printableSign: jsonb('printable_sign').$type<PrintableSign>(),
    /** Builder customisation: ids of the chosen builder items (selector first) */
    options: jsonb('options').$type<number[]>().notNull().default([]),
    workWearSession: jsonb('work_wear_session').$type<WorkWearSession>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('cart_items_cart').on(t.cartId, t.id),
    check('cart_items_quantity', sql`${t.quantity} >= 0 and ${t.quantity} <= 9999`),
  ],
)

export const promotions = pgTable(
  'promotions',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    /** Stored upper case; codes are matched case-insensitively */
    code: text('code').notNull(),
    description: text('description').notNull().default(''),
    kind: text('kind', { enum: PROMOTION_KINDS }).notNull(),
    /** percentage: whole percent (1–100); fixed: minor units off the goods; others: unused */
    value: integer('value').notNull().default(0),
    /** free_gift: the SKU given */
    giftProductId: integer('gift_product_id').references(() => products.id, { onDelete: 'set null' }),
    /** Goods total ex VAT the cart must reach (minor units) */
    minimumSpend: integer('minimum_spend').notNull().default(0),
    startsAt: timestamp('starts_at', { withTimezone: true }),
    endsAt: timestamp('ends_at', { withTimezone: true }),
    /** Uses of the code: held by baskets (promotion_uses, expired or not) plus redeemed by orders; null = unlimited */
    usageLimit: integer('usage_limit'),
    timesUsed: integer('times_used').notNull().default(0),
    active: boolean('active').notNull().default(true),
  },
  (t) => [
    uniqueIndex('promotions_site_code').on(t.siteId, t.code),
    check('promotions_usage', sql`${t.usageLimit} is null or ${t.timesUsed} <= ${t.usageLimit}`),
  ],
)

/**
 * One row per cart holding a limited code: a use counted against the limit (in
 * `promotions.times_used`) until the hold expires and another basket gives it back, or an order
 * turns it into a redemption (promotion-holds.ts, ADR 0122).
 */
export const promotionUses = pgTable(
  'promotion_uses',
  {
    promotionId: integer('promotion_id')
      .notNull()
      .references(() => promotions.id, { onDelete: 'cascade' }),
    cartId: uuid('cart_id')
      .notNull()
      .references(() => carts.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * When the hold ends (PROMOTION_HOLD_MINUTES after it was taken); an expired hold does not
     * count against the limit. The default (now) makes holds stored before this column expired.
     */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.promotionId, t.cartId] }),
    index('promotion_uses_expiry').on(t.promotionId, t.expiresAt),
  ],
)

/** Delivery prices per site, shipping zone and despatch type. */
export const deliveryRates = pgTable(
  'delivery_rates',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    zone: text('zone').notNull(),
    despatchType: text('despatch_type').notNull(),
    name: text('name').notNull(),
    /** Minor units, ex VAT */
    price: integer('price').notNull(),
    /** Goods total (ex VAT, after discount) from which this rate is free; null = never free */
    freeOver: integer('free_over'),
    position: integer('position').notNull().default(0),
  },
  (t) => [uniqueIndex('delivery_rates_site_zone_type').on(t.siteId, t.zone, t.despatchType)],
)

export type CartRow = typeof carts.$inferSelect
export type CartItemRow = typeof cartItems.$inferSelect
export type PromotionRow = typeof promotions.$inferSelect
export type DeliveryRateRow = typeof deliveryRates.$inferSelect
