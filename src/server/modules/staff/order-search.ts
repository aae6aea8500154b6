/**
 * The back office's order list and order page (read only; ADR 0262, ADR 0284). The list is
 * keyset-paginated on (order_date, id) newest first and never counts; each filter and search kind
 * has an index (drizzle/*_staff_order_indexes.sql) that reads the rows in that order or narrows
 * them to a bounded few:
 *
 * - number: the unique order number;
 * - postcode: a whole UK postcode, or its outward code ('BS1', 'SW1A 1'), by (postcode or outward
 *   code, order_date, id) indexes read in date order; anything else as a prefix;
 * - e-mail: lower(contact e-mail), PO number: upper(po_number), by prefix; name: the generated
 *   column search_name, lower(first || ' ' || last), by trigram (pg_trgm) where the database has it.
 *
 * A prefix (e-mail, PO number) has its own index for a rare one and an (order_date, id, expression)
 * index for a common one, tested in the index while read in date order; the planner chooses.
 * A name fragment, unless the planner expects more than `SEARCH_CANDIDATES` matches, first reads at
 * most that many from the trigram index: when that is all of them, the page is those ids sorted by
 * date; when there are more, the list's date index (or a filter's) is walked instead for the ids
 * of the page, testing each row with an expression no index serves (so the planner cannot fall
 * back to reading every match and sorting them), until 51 are found. Without filters that walk
 * reads only an index, (order_date, id) with the name included (ADR 0285).
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
  /** lower('first last'), kept by PostgreSQL as a generated column (ADR 0285). */
  name: sql`${orders.searchName}`,
  postcode: sql`upper(replace(${orders.shippingAddress} ->> 'postcode', ' ', ''))`,
  /** The outward code: a UK postcode's inward part is always its last three characters. */
  outward: sql`left(upper(replace(${orders.shippingAddress} ->> 'postcode', ' ', '')), -3)`,
  po: sql`upper(${orders.poNumber})`,
}

/**
 * A name search reads at most this many matches from the trigram index; with more, it walks
 * the date index instead, finding 51 within about 51 × 1,000,000 / 2,000 rows. Measured at
 * 1,000,000 orders (docs/performance.md), a candidate costs about ten rows of the walk (a heap page
 * of its own against the next row on the same page), so the worst case of either way is similar.
 */
export const SEARCH_CANDIDATES = 2000

/** `%` and `_` typed by a person are literal characters in a LIKE pattern. */
function likeEscape(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`)
}

const OUTWARD = /^[A-Z]{1,2}\d[A-Z\d]?$/
const WHOLE_POSTCODE = /^[A-Z]{1,2}\d[A-Z\d]?\d[A-Z]{2}$/

/**
 * How a search finds its rows: `ordered`, one condition the planner serves from an index in date
 * order (or a bounded few rows); or, for a name fragment, `indexed` (the trigram index, to read the
 * candidates) with `walk`, the same test that no index serves, for when the matches are many.
 */
export type SearchPlan = { ordered: SQL } | { indexed: SQL; walk: SQL }

export function searchPlan(q: string, kindIn: OrderListQuery['kind']): SearchPlan {
  const kind = searchKindOf(q, kindIn)
  const t = q.trim()
  // A prefix has two indexes, and the planner (its statistics on both) takes the cheaper: its own
  // for a rare one (the matches, sorted), or (order_date, id, expression) for a common one, read in
  // date order and tested in the index itself, so only matches are read from the table.
  const prefix = (expr: SQL, value: string): SearchPlan => ({
    ordered: sql`${expr} like ${`${likeEscape(value)}%`}`,
  })
  switch (kind) {
    case 'number': {
      const n = Number(t.replace(/\D/g, ''))
      return { ordered: Number.isSafeInteger(n) && n > 0 ? eq(orders.orderNumber, n) : sql`false` }
    }
    case 'email':
      return prefix(EXPR.email, t.toLowerCase())
    case 'po':
      return prefix(EXPR.po, t.toUpperCase())
    case 'name': {
      const part = t.toLowerCase()
      return {
        indexed: sql`${EXPR.name} like ${`%${likeEscape(part)}%`}`,
        walk: sql`strpos(${EXPR.name}, ${part}) > 0`,
      }
    }
    case 'postcode': {
      const whole = normalisePostcode(t)
      if (WHOLE_POSTCODE.test(whole)) return { ordered: sql`${EXPR.postcode} = ${whole}` }
      const [outward = '', inward, ...rest] = t.toUpperCase().split(/\s+/)
      if (OUTWARD.test(outward) && !rest.length) {
        // 'BS1' is the district BS1 (not BS10–BS19); 'SW1A 1' is its sector 1.
        const sector = inward ? sql` and ${EXPR.postcode} like ${`${outward}${likeEscape(inward)}%`}` : sql``
        return { ordered: sql`(${EXPR.outward} = ${outward}${sector})` }
      }
      return prefix(EXPR.postcode, whole)
    }
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

/** The filters' conditions (site, status, method, dates, attention); the search is `searchPlan`'s. */
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
  return where
}

/** The planner's estimate of the rows matching a condition (its statistics; nothing is read). */
async function estimatedRows(db: Executor, where: SQL): Promise<number> {
  const res = (await db.execute(
    sql`explain (format json) select 1 from ${orders} where ${where}`,
  )) as unknown as {
    rows: Record<string, unknown>[]
  }
  const cell = res.rows[0]?.['QUERY PLAN']
  const plan = (typeof cell === 'string' ? JSON.parse(cell) : cell) as [{ Plan?: { 'Plan Rows'?: number } }]
  return Number(plan?.[0]?.Plan?.['Plan Rows'] ?? 0)
}

/**
 * The search's condition for this page: the ordered one; or, for a name, the ids of all its
 * matches when they are at most `candidates`, else the ids of the page the date walk found. The
 * planner's estimate goes first: a fragment it expects to match more than that walks at once,
 * without reading candidates it would not use (each a table page of its own).
 */
async function searchWhere(
  db: Executor,
  plan: SearchPlan,
  candidates: number,
  filters: readonly SQL[],
): Promise<{ condition: SQL; byIds: boolean }> {
  if ('ordered' in plan) return { condition: plan.ordered, byIds: false }
  const walk = () => walkedIds(db, plan.walk, filters)
  if ((await estimatedRows(db, plan.indexed)) > candidates) return walk()
  const found = await db
    .select({ id: orders.id })
    .from(orders)
    .where(plan.indexed)
    .limit(candidates + 1)
  if (found.length > candidates) return walk()
  return byIds(found.map((r) => r.id))
}

/** A condition on these ids: one array parameter, whatever their number. */
function byIds(ids: readonly number[]): { condition: SQL; byIds: true } {
  if (!ids.length) return { condition: sql`false`, byIds: true }
  return { condition: sql`${orders.id} = any(${`{${ids.join(',')}}`}::int[])`, byIds: true }
}

/**
 * The ids of the page found by walking the list's order with the test (the filters and the cursor
 * applied as well): only ids are asked for, so without filters the walk reads the
 * (order_date, id) index that includes the name and never the table's rows.
 */
async function walkedIds(db: Executor, test: SQL, filters: readonly SQL[]) {
  const rows = await db
    .select({ id: orders.id })
    .from(orders)
    .where(and(...filters, test))
    .orderBy(desc(orders.orderDate), desc(orders.id))
    .limit(ORDER_PAGE_SIZE + 1)
  return byIds(rows.map((r) => r.id))
}

export interface ListOptions {
  now?: number
  /** The most matches a prefix or name search reads from its own index (tests lower it). */
  candidates?: number
}

export async function listOrders(
  db: Executor,
  q: OrderListQuery,
  { now = Date.now(), candidates = SEARCH_CANDIDATES }: ListOptions = {},
): Promise<OrderListPage> {
  const where = listConditions(q, now, q.attention ? await unsettledRefundOrderIds(db) : [])
  const cursor = parseCursor(q.after)
  if (cursor) {
    const older = or(
      lt(orders.orderDate, cursor.at),
      and(eq(orders.orderDate, cursor.at), lt(orders.id, cursor.id)),
    )
    if (older) where.push(older)
  }
  const search = q.q ? await searchWhere(db, searchPlan(q.q, q.kind), candidates, where) : undefined
  if (search) where.push(search.condition)
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
    // Candidates by id are read by the primary key and sorted: ordering by an expression no index
    // has keeps the planner from walking the date index to find ids that may all be old ones.
    .orderBy(
      desc(search?.byIds ? sql`${orders.orderDate} + interval '0 s'` : orders.orderDate),
      desc(orders.id),
    )
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
