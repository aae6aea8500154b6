/**
 * Orders (spec §3 Order, Order item; design checkout.md "Placing an order"). An order is written
 * once, in the transaction that locks its basket; `cart_ref` (unique, deliberately not a foreign
 * key the basket sweep could cascade) makes a second order for one basket impossible. Order
 * numbers come from a sequence (gaps are fine, max()+1 never). Totals are integer minor units,
 * stored separately: goods net, shipping net and its VAT, VAT, discount, and the charged total.
 * `status` is the shop's own state (order.state.ts); `maginus_status`, the customer's status word, is
 * derived from it. The lifecycle's timeline and shipments are at the end (ADR 0200).
 */
import type { VatReliefDeclaration } from '../../../shared/vat-relief.ts'
import { sql } from 'drizzle-orm'
import {
  bigint,
  boolean,
  check,
  customType,
  index,
  integer,
  jsonb,
  pgSequence,
  pgTable,
  serial,
  text,
  timestamp,
  primaryKey,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core'
import { customers } from '../auth/auth.tables.ts'
import { promotions } from '../cart/cart.tables.ts'
import { sites } from '../sites/sites.tables.ts'

/** The order's lifecycle (order.state.ts declares how it moves; ADR 0200). */
export const ORDER_STATUSES = [
  'pending_payment',
  'payment_failed',
  'placed',
  'held',
  'partially_shipped',
  'shipped',
  'cancelled',
] as const
export type OrderStatus = (typeof ORDER_STATUSES)[number]

/** Where the order's money stands: derived by the lifecycle from payments and refunds, stored. */
export const PAYMENT_STATUSES = ['unpaid', 'paid', 'partially_refunded', 'refunded', 'voided'] as const
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number]

/** What has been sent: derived from the order's shipments, stored. */
export const FULFILMENT_STATUSES = ['unfulfilled', 'partially_shipped', 'shipped'] as const
export type FulfilmentStatus = (typeof FULFILMENT_STATUSES)[number]

/** Who made a change on the timeline. */
export const ACTOR_KINDS = ['token', 'staff', 'provider', 'system', 'customer'] as const
export type ActorKind = (typeof ACTOR_KINDS)[number]

export const orderNumberSeq = pgSequence('order_number_seq', { startWith: 100001, increment: 1 })

/**
 * Every write to an order takes the next value (at insert by the column's default, at every change
 * by the lifecycle): the change feed's cursor. A value is taken before its transaction commits, so
 * the feed serves only rows whose `change_xid` is below the oldest transaction still running.
 */
export const orderChangeSeq = pgSequence('order_change_seq', { startWith: 1, increment: 1 })

/** PostgreSQL's 64-bit transaction id (pg_current_xact_id()), read as a decimal string. */
const xid8 = customType<{ data: string; driverData: string }>({
  dataType: () => 'xid8',
})

/** A contact as ordered (§3 Order contactDetails) */
export interface OrderContact {
  first_name: string
  last_name: string
  email: string
  phone: string
  company: string
}

/** An address as ordered */
export interface OrderAddress {
  company: string
  address1: string
  address2: string
  town: string
  county: string
  postcode: string
  country: string
}

/** What the order item remembers of the product when it was ordered */
export interface OrderedProduct {
  id: number
  sku: string
  name: string
  price: number
  status: 'published' | 'unpublished'
  category_id: number | null
  category: { id: number; name: string; url: string } | null
  details: string
}

export const orders = pgTable(
  'orders',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'restrict' }),
    orderNumber: bigint('order_number', { mode: 'number' })
      .notNull()
      .default(sql`nextval('order_number_seq')`),
    /** The basket this order was placed from: one order per basket */
    cartRef: uuid('cart_ref').notNull(),
    /** An optional Idempotency-Key header sent with the placement */
    idempotencyKey: text('idempotency_key'),
    customerId: integer('customer_id').references(() => customers.id, { onDelete: 'set null' }),
    /** Placed without logging in (the customer is a guest or an existing account matched by e-mail) */
    placedAsGuest: boolean('placed_as_guest').notNull().default(false),
    status: text('status', { enum: ORDER_STATUSES }).notNull(),
    /**
     * The customer's status word (empty, 1 held, 2 shipped, 3 cancelled: spec §4), derived from
     * `status` by the lifecycle (order.state.ts CUSTOMER_STATUS) in the statement that moves it.
     */
    maginusStatus: integer('maginus_status'),
    /** Optimistic concurrency: bumped by every change; a write naming another version is refused */
    version: integer('version').notNull().default(1),
    /** The change feed's cursor (order_change_seq), set at insert and at every change */
    changeSeq: bigint('change_seq', { mode: 'number' })
      .notNull()
      .default(sql`nextval('order_change_seq')`),
    /** The transaction that wrote `change_seq` (pg_current_xact_id()) */
    changeXid: xid8('change_xid')
      .notNull()
      .default(sql`pg_current_xact_id()`),
    /** While held: the status a release returns to (placed or partially_shipped) */
    heldFrom: text('held_from', { enum: ORDER_STATUSES }),
    holdReason: text('hold_reason'),
    cancelReason: text('cancel_reason'),
    /** The ERP's own reference, given when it acknowledged (exported) the order */
    erpRef: text('erp_ref'),
    erpAcknowledgedAt: timestamp('erp_acknowledged_at', { withTimezone: true }),
    paymentStatus: text('payment_status', { enum: PAYMENT_STATUSES }).notNull().default('unpaid'),
    fulfilmentStatus: text('fulfilment_status', { enum: FULFILMENT_STATUSES })
      .notNull()
      .default('unfulfilled'),
    /** What refunds have given back so far (succeeded ones), minor units */
    refundedMinor: integer('refunded_minor').notNull().default(0),
    orderSource: text('order_source').notNull().default('Desktop'),
    currency: text('currency').notNull(),
    paymentMethod: text('payment_method').notNull(),
    poNumber: text('po_number'),
    vatNumber: text('vat_number'),
    notes: text('notes').notNull().default(''),
    contact: jsonb('contact').$type<OrderContact>().notNull(),
    /**
     * 'first last' in lower case, kept by PostgreSQL from the contact (never written by the shop):
     * the back office's name search tests it in an index instead of reading the contact's JSON
     * row by row (ADR 0285; staff/order-search.ts).
     */
    searchName: text('search_name').generatedAlwaysAs(
      sql`lower(("contact" ->> 'first_name') || ' ' || ("contact" ->> 'last_name'))`,
    ),
    shippingAddress: jsonb('shipping_address').$type<OrderAddress>().notNull(),
    billingAddress: jsonb('billing_address').$type<OrderAddress>().notNull(),
    /** The delivery chosen: despatch type and the rate's name */
    despatchType: text('despatch_type').notNull().default(''),
    deliveryName: text('delivery_name').notNull().default(''),
    promotionCodes: jsonb('promotion_codes').$type<string[]>().notNull().default([]),
    applyVatRelief: boolean('apply_vat_relief').notNull().default(false),
    /** The VAT relief declaration the order was zero-rated under (kept for HMRC) */
    vatReliefDeclaration: jsonb('vat_relief_declaration').$type<VatReliefDeclaration>(),
    /** Goods after discount, ex VAT (totalCost) */
    goodsNet: integer('goods_net').notNull(),
    /** Delivery ex VAT and its VAT */
    shippingNet: integer('shipping_net').notNull(),
    shippingVat: integer('shipping_vat').notNull(),
    /** All VAT (goods and delivery) */
    vat: integer('vat').notNull(),
    /** Discount ex VAT (totalDiscountCost) */
    discount: integer('discount').notNull(),
    customisationCharge: integer('customisation_charge').notNull().default(0),
    /** What the customer pays: goods and delivery with VAT; the provider's confirmed amount */
    totalIncVat: integer('total_inc_vat').notNull(),
    /**
     * The payment attempt this order claimed (every method but the purchase order): its
     * settlement moves a pending order on. Text, as the payments module's ids are.
     */
    paymentAttemptId: text('payment_attempt_id'),
    /** The shop's own address the order was placed through ('https://shop.example'): its later e-mails' links */
    siteOrigin: text('site_origin').notNull().default(''),
    orderDate: timestamp('order_date', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true })
      .notNull()
      .default(sql`now()`),
  },
  (t) => [
    uniqueIndex('orders_order_number').on(t.orderNumber),
    uniqueIndex('orders_cart_ref').on(t.cartRef),
    uniqueIndex('orders_payment_attempt').on(t.paymentAttemptId),
    uniqueIndex('orders_idempotency_key').on(t.siteId, t.idempotencyKey),
    index('orders_customer').on(t.customerId, t.orderDate),
    index('orders_change_seq').on(t.changeSeq),
    check('orders_refunded', sql`${t.refundedMinor} >= 0 and ${t.refundedMinor} <= ${t.totalIncVat}`),
    check('orders_total', sql`${t.totalIncVat} = ${t.goodsNet} + ${t.shippingNet} + ${t.vat}`),
  ],
)

export const orderItems = pgTable(
  'order_items',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    /** The basket line it came from (parents are matched through it) */
    cartItemId: integer('cart_item_id'),
    parentCartItemId: integer('parent_cart_item_id'),
    sku: text('sku').notNull(),
    name: text('name').notNull(),
    product: jsonb('product').$type<OrderedProduct>().notNull(),
    quantity: integer('quantity').notNull(),
    /** Unit price with options, ex VAT (line_item_cost) */
    unitPrice: integer('unit_price').notNull(),
    /** After the line's share of the discount, ex VAT (line_total) */
    lineTotal: integer('line_total').notNull(),
    /** Before discount, ex VAT */
    lineTotalExDiscountExTax: integer('line_total_ex_discount_ex_tax').notNull(),
    vatRate: integer('vat_rate').notNull(),
    vat: integer('vat').notNull(),
    isFreeGift: boolean('is_free_gift').notNull().default(false),
    builderId: integer('builder_id'),
    sequenceId: text('sequence_id'),
    options: jsonb('options')
      .$type<{ id: number; title: string; name: string; cost: number }[]>()
      .notNull()
      .default([]),
  },
  (t) => [index('order_items_order').on(t.orderId, t.id)],
)

/** One row per payment attempt or record (§3 Order transactions). */
export const orderTransactions = pgTable(
  'order_transactions',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    paymentProvider: text('payment_provider').notNull(),
    paymentDetails: jsonb('payment_details').$type<Record<string, unknown>>().notNull().default({}),
    amount: integer('amount').notNull(),
    message: text('message').notNull().default(''),
    authCode: text('auth_code').notNull().default('empty'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('order_transactions_order').on(t.orderId)],
)

/** A promotional code used by a placed order: the basket's use became permanent. */
export const promotionRedemptions = pgTable(
  'promotion_redemptions',
  {
    id: serial('id').primaryKey(),
    promotionId: integer('promotion_id')
      .notNull()
      .references(() => promotions.id, { onDelete: 'cascade' }),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    code: text('code').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('promotion_redemptions_order_promotion').on(t.orderId, t.promotionId),
    // A promotion's uses (the back office's promotions list and page), without reading every order's.
    index('promotion_redemptions_promotion').on(t.promotionId, t.createdAt),
  ],
)

/** Customer feedback sent from Order Complete. */
export const orderFeedback = pgTable(
  'order_feedback',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    feedback: text('feedback').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('order_feedback_order').on(t.orderId)],
)

// --- invoices and owner confirmations -------------------------------------------------------

/*
 * An invoice is made once per order by the back office (`npm run admin -- invoice create`) and
 * keeps a copy of what it bills, so the page and the PDF show the same figures however the order
 * or the catalogue change later.
 */
export const invoiceNumberSeq = pgSequence('invoice_number_seq', { startWith: 700001, increment: 1 })

/** One billed line as it stood when the invoice was made (minor units, ex VAT). */
export interface InvoiceLine {
  sku: string
  name: string
  quantity: number
  unitPrice: number
  lineTotal: number
  vat: number
}

export const invoices = pgTable(
  'invoices',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'restrict' }),
    invoiceNumber: bigint('invoice_number', { mode: 'number' })
      .notNull()
      .default(sql`nextval('invoice_number_seq')`),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'restrict' }),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    invoiceDate: timestamp('invoice_date', { withTimezone: true }).notNull().defaultNow(),
    currency: text('currency').notNull(),
    /** The order's total inc VAT (Invoice_Amount) and its parts */
    amount: integer('amount').notNull(),
    goodsNet: integer('goods_net').notNull(),
    shippingNet: integer('shipping_net').notNull(),
    vat: integer('vat').notNull(),
    billingAddress: jsonb('billing_address').$type<OrderAddress>().notNull(),
    lines: jsonb('lines').$type<InvoiceLine[]>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('invoices_invoice_number').on(t.invoiceNumber),
    uniqueIndex('invoices_order').on(t.orderId),
    index('invoices_customer').on(t.customerId, t.invoiceDate),
  ],
)

/**
 * An order placed without logging in and linked to an account by its e-mail alone (ADR 0066)
 * shows in that account only once the account's owner confirmed it is theirs (ADR 0145): logged
 * in, from the signed link in the order's acknowledgement e-mail. One row per order and owner.
 */
export const orderOwnerConfirmations = pgTable(
  'order_owner_confirmations',
  {
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.orderId, t.customerId] })],
)

// --- the order's timeline and shipments (ADR 0200) ---------------------------------------------

/**
 * The order's timeline: one row per change, written in the change's transaction, with who made
 * it. `data` holds what the change was (reason, shipment, refund outcome…), never a secret.
 */
export const orderEvents = pgTable(
  'order_events',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    actorKind: text('actor_kind', { enum: ACTOR_KINDS }).notNull(),
    actorName: text('actor_name').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('order_events_order').on(t.orderId, t.id)],
)

/** A parcel sent: its carrier and tracking, and which lines in what quantities it holds. */
export const shipments = pgTable(
  'shipments',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    /** The sender's own reference: one shipment per reference per order (a replay is recognised) */
    shipmentRef: text('shipment_ref').notNull(),
    carrier: text('carrier').notNull(),
    /** Null: the parcel went without one (the ERP's Maginus status 2 names no parcel) */
    trackingNumber: text('tracking_number'),
    /** As given; the shop links to it only when it is https (orders/tracking-link.ts) */
    trackingUrl: text('tracking_url'),
    shippedAt: timestamp('shipped_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('shipments_order_ref').on(t.orderId, t.shipmentRef)],
)

export const shipmentLines = pgTable(
  'shipment_lines',
  {
    shipmentId: integer('shipment_id')
      .notNull()
      .references(() => shipments.id, { onDelete: 'cascade' }),
    orderLineId: integer('order_line_id')
      .notNull()
      .references(() => orderItems.id, { onDelete: 'cascade' }),
    quantity: integer('quantity').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.shipmentId, t.orderLineId] }),
    index('shipment_lines_line').on(t.orderLineId),
    check('shipment_lines_quantity', sql`${t.quantity} > 0`),
  ],
)

export type OrderRow = typeof orders.$inferSelect
export type OrderEventRow = typeof orderEvents.$inferSelect
export type ShipmentRow = typeof shipments.$inferSelect
export type OrderItemRow = typeof orderItems.$inferSelect
export type OrderTransactionRow = typeof orderTransactions.$inferSelect
export type InvoiceRow = typeof invoices.$inferSelect
