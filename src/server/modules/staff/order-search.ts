/**
 * The back office's order list and order page (read only; ADR 0262). The list is keyset-paginated
 * on (order_date, id) newest first and never counts; each filter and search kind has an index
 * (drizzle/*_staff_order_indexes.sql) that reads the rows in that order or narrows them to a few:
 *
 * - number: the unique order number; e-mail: lower(contact e-mail), exact or prefix;
 * - postcode: the delivery postcode upper-cased without spaces, exact or prefix;
 * - PO number: upper(po_number), prefix; name: lower(first || ' ' || last) by trigram (pg_trgm)
 *   where the database has it, else a scan (the embedded database).
 *
 * 'Needs attention' is an order waiting for its payment for over an hour (`pending_payment`), or
 * one with a refund the provider has not confirmed (pending or unknown in the refund ledger): the
 * orders the back office's 'Payments that need attention' page lists (attention.ts). The first
 * uses the (status, order_date) index; the refunds' orders are few and read first by their ids,
 * so the two are an index OR, never a scan of the orders.
 */
import { and, asc, desc, eq, gte, inArray, lt, or, sql, type SQL } from 'drizzle-orm'
import type { Executor } from '../../db/client.ts'
import { mailJobs } from '../mail/mail.tables.ts'
import { orderItems, orders } from '../orders/orders.tables.ts'
import { paymentAttempts, paymentRefunds } from '../payments/payments.tables.ts'
import { sites } from '../sites/sites.tables.ts'
import { normalisePostcode, searchKindOf, type OrderListQuery } from '../../../shared/staff.ts'

export const ORDER_PAGE_SIZE = 50
/** A pending payment older than this needs a person. */
export const ATTENTION_AFTER_MS = 60 * 60_000
/** The e-mails an order queues, by the last part of their dedupe key. */
const ORDER_MAIL_KINDS = ['acknowledgement', 'notification', 'payment-failed']

/** Refunds the provider has not confirmed yet: their orders need a person's eye. */
export const UNSETTLED_REFUND_STATUSES = ['pending', 'unknown'] as const
/** At most this many refunds' orders join the attention filter (more would be an outage, not a list). */
const ATTENTION_REFUND_ORDERS = 1000

/** The ids of orders with a refund not yet confirmed by the provider. */
export async function unsettledRefundOrderIds(db: Executor): Promise<number[]> {
  const rows = await db
    .selectDistinct({ orderId: paymentRefunds.orderId })
    .from(paymentRefunds)
    // Literal, as the partial index `payment_refunds_unsettled` names them.
    .where(sql`${paymentRefunds.status} in ('pending', 'unknown')`)
    .limit(ATTENTION_REFUND_ORDERS)
  return rows.map((r) => Number(r.orderId)).filter((n) => Number.isSafeInteger(n) && n > 0)
}

/** An order needing attention (see the file's comment), given the orders with unsettled refunds. */
export function attentionCondition(now: number, refundOrderIds: readonly number[]): SQL {
  const waiting = and(
    eq(orders.status, 'pending_payment'),
    lt(orders.orderDate, new Date(now - ATTENTION_AFTER_MS)),
  )!
  return refundOrderIds.length ? or(waiting, inArray(orders.id, [...refundOrderIds]))! : waiting
}

export const PAYMENT_METHODS = ['sagepay', 'paya', 'paypal', 'amazon', 'purchase_order'] as const

/** SQL expressions the indexes are built on: the query must use exactly these. */
export const EXPR = {
  email: sql`lower(${orders.contact} ->> 'email')`,
  name: sql`lower((${orders.contact} ->> 'first_name') || ' ' || (${orders.contact} ->> 'last_name'))`,
  postcode: sql`upper(replace(${orders.shippingAddress} ->> 'postcode', ' ', ''))`,
  po: sql`upper(${orders.poNumber})`,
}

/** `%` and `_` typed by a person are literal characters in a LIKE pattern. */
function likePrefix(value: string): string {
  return `${value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
}

function searchCondition(q: string, kindIn: OrderListQuery['kind']): SQL | undefined {
  const kind = searchKindOf(q, kindIn)
  const t = q.trim()
  switch (kind) {
    case 'number': {
      const n = Number(t.replace(/\D/g, ''))
      return Number.isSafeInteger(n) && n > 0 ? eq(orders.orderNumber, n) : sql`false`
    }
    case 'email':
      return sql`${EXPR.email} like ${likePrefix(t.toLowerCase())}`
    case 'postcode':
      return sql`${EXPR.postcode} like ${likePrefix(normalisePostcode(t))}`
    case 'po':
      return sql`${EXPR.po} like ${likePrefix(t.toUpperCase())}`
    case 'name':
      return sql`${EXPR.name} like ${`%${t.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`}`
  }
}

export interface OrderListRow {
  id: number
  number: number
  site: string
  date: string
  status: string
  method: string
  currency: string
  total: number
  customer: string
  email: string
  postcode: string
  poNumber: string | null
}

export interface OrderListPage {
  rows: OrderListRow[]
  /** Cursor of the next page, or null on the last. */
  next: string | null
}

export function parseCursor(after: string | undefined): { at: Date; id: number } | null {
  if (!after) return null
  const [ms, id] = after.split('.').map(Number)
  if (!Number.isSafeInteger(ms) || !Number.isSafeInteger(id)) return null
  return { at: new Date(ms!), id: id! }
}

export function listConditions(
  q: OrderListQuery,
  now: number,
  refundOrderIds: readonly number[] = [],
): SQL[] {
  const where: SQL[] = []
  if (q.site) where.push(eq(orders.siteId, q.site))
  if (q.status) where.push(eq(orders.status, q.status))
  if (q.method) where.push(eq(orders.paymentMethod, q.method))
  if (q.from) where.push(gte(orders.orderDate, new Date(`${q.from}T00:00:00Z`)))
  if (q.to) where.push(lt(orders.orderDate, new Date(Date.parse(`${q.to}T00:00:00Z`) + 86_400_000)))
  if (q.attention) where.push(attentionCondition(now, refundOrderIds))
  if (q.q) {
    const c = searchCondition(q.q, q.kind)
    if (c) where.push(c)
  }
  return where
}

export async function listOrders(db: Executor, q: OrderListQuery, now = Date.now()): Promise<OrderListPage> {
  const where = listConditions(q, now, q.attention ? await unsettledRefundOrderIds(db) : [])
  const cursor = parseCursor(q.after)
  if (cursor) {
    const older = or(
      lt(orders.orderDate, cursor.at),
      and(eq(orders.orderDate, cursor.at), lt(orders.id, cursor.id)),
    )
    if (older) where.push(older)
  }
  const rows = await db
    .select({
      id: orders.id,
      number: orders.orderNumber,
      site: sites.name,
      date: orders.orderDate,
      status: orders.status,
      method: orders.paymentMethod,
      currency: orders.currency,
      total: orders.totalIncVat,
      contact: orders.contact,
      shipping: orders.shippingAddress,
      poNumber: orders.poNumber,
    })
    .from(orders)
    .innerJoin(sites, eq(sites.id, orders.siteId))
    .where(where.length ? and(...where) : undefined)
    .orderBy(desc(orders.orderDate), desc(orders.id))
    .limit(ORDER_PAGE_SIZE + 1)
  const page = rows.slice(0, ORDER_PAGE_SIZE)
  const last = page.at(-1)
  return {
    rows: page.map((r) => ({
      id: r.id,
      number: r.number,
      site: r.site,
      date: r.date.toISOString(),
      status: r.status,
      method: r.method,
      currency: r.currency,
      total: r.total,
      customer: `${r.contact.first_name} ${r.contact.last_name}`.trim(),
      email: r.contact.email,
      postcode: r.shipping.postcode,
      poNumber: r.poNumber,
    })),
    next: rows.length > ORDER_PAGE_SIZE && last ? `${new Date(last.date).getTime()}.${last.id}` : null,
  }
}

export async function siteChoices(db: Executor) {
  return db.select({ id: sites.id, name: sites.name }).from(sites).orderBy(asc(sites.id))
}

/** Everything the order page shows, or null for an unknown number. */
export async function orderDetail(db: Executor, orderNumber: number) {
  const [row] = await db
    .select({ order: orders, site: { name: sites.name, code: sites.code } })
    .from(orders)
    .innerJoin(sites, eq(sites.id, orders.siteId))
    .where(eq(orders.orderNumber, orderNumber))
    .limit(1)
  if (!row) return null
  const o = row.order
  const [lines, attempts, mails] = await Promise.all([
    db
      .select({
        sku: orderItems.sku,
        name: orderItems.name,
        quantity: orderItems.quantity,
        unitPrice: orderItems.unitPrice,
        lineTotal: orderItems.lineTotal,
        vat: orderItems.vat,
        vatRate: orderItems.vatRate,
        isFreeGift: orderItems.isFreeGift,
      })
      .from(orderItems)
      .where(eq(orderItems.orderId, o.id))
      .orderBy(asc(orderItems.id)),
    o.paymentAttemptId
      ? db
          .select({
            id: paymentAttempts.id,
            method: paymentAttempts.method,
            state: paymentAttempts.state,
            amount: paymentAttempts.amountMinor,
            currency: paymentAttempts.currency,
            reference: paymentAttempts.reference,
            resolution: paymentAttempts.resolution,
            lastMessage: paymentAttempts.lastMessage,
            createdAt: paymentAttempts.createdAt,
          })
          .from(paymentAttempts)
          .where(eq(paymentAttempts.id, o.paymentAttemptId))
      : Promise.resolve([]),
    db
      .select({
        key: mailJobs.dedupeKey,
        subject: sql<string>`${mailJobs.message} ->> 'subject'`,
        status: mailJobs.status,
        attempts: mailJobs.attempts,
        sentAt: mailJobs.sentAt,
        createdAt: mailJobs.createdAt,
      })
      .from(mailJobs)
      // The order's e-mails by their keys (orders.service.ts, pending-orders.ts): the unique index.
      .where(
        inArray(
          mailJobs.dedupeKey,
          ORDER_MAIL_KINDS.map((k) => `order:${o.id}:${k}`),
        ),
      )
      .orderBy(asc(mailJobs.id)),
  ])
  return {
    number: o.orderNumber,
    site: row.site.name,
    status: o.status,
    date: o.orderDate.toISOString(),
    method: o.paymentMethod,
    currency: o.currency,
    poNumber: o.poNumber,
    vatNumber: o.vatNumber,
    notes: o.notes,
    contact: o.contact,
    shippingAddress: o.shippingAddress,
    billingAddress: o.billingAddress,
    delivery: o.deliveryName,
    promotionCodes: o.promotionCodes,
    vatRelief: o.applyVatRelief ? o.vatReliefDeclaration : null,
    totals: {
      goodsNet: o.goodsNet,
      shippingNet: o.shippingNet,
      shippingVat: o.shippingVat,
      vat: o.vat,
      discount: o.discount,
      customisation: o.customisationCharge,
      total: o.totalIncVat,
    },
    lines,
    attempts: attempts.map((a) => ({ ...a, createdAt: a.createdAt.toISOString() })),
    mails: mails.map((m) => ({
      key: m.key.split(':').at(-1) ?? m.key,
      subject: m.subject,
      status: m.status,
      attempts: m.attempts,
      sentAt: m.sentAt?.toISOString() ?? null,
      queuedAt: m.createdAt.toISOString(),
    })),
  }
}
