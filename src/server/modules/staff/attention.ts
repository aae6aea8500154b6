/**
 * Payments that need a person (issue 34, the back office): what the reconcilers could not finish
 * on their own, each with the action that moves it on. Read from the payments module's tables; the
 * actions are the payments and orders services' own (the same a reconciler pass would take now,
 * for this one row), never a write of their rows from here.
 *
 * - **Money taken, no order**: an authorised or captured attempt that no order claimed: still
 *   unresolved after the grace period (UNCLAIMED_PAYMENT_GRACE_MS), being given back (`voiding`),
 *   or handed to a person (`needs_attention`). Actions: resolve now (the reconciler's resolver:
 *   place the order from the kept order form, else give the money back), give the money back
 *   without trying to place it, and, for one a person holds, place the order.
 * - **Payments in an unknown state**: the provider's answer was lost; action: ask the provider now.
 * - **Refunds not confirmed**: pending or unknown rows of the refund ledger; action: ask the
 *   provider now.
 * - **Orders**: the order list's 'needs attention' filter (order-search.ts `attentionCondition`):
 *   awaiting payment for over an hour, or with one of the refunds above.
 *
 * Each list is keyset-paginated newest first on (created_at, id). Provider calls run outside any
 * transaction (as the reconcilers'), so the audit row is written after the call, with the row's
 * state before and after.
 */
import { and, desc, eq, lt, or, sql, type SQL } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import type { Db } from '../../db/client.ts'
import { DomainError } from '../../lib/domain-error.ts'
import { orders } from '../orders/orders.tables.ts'
import { placeFromPayment } from '../orders/unclaimed-payments.ts'
import { SUCCESS_STATES } from '../payments/attempt.state.ts'
import { BASKET_ORDER_PREFIX } from '../payments/order-ref.ts'
import { PaymentError } from '../payments/payment-error.ts'
import { UNCLAIMED_PAYMENT_GRACE_MS, type PaymentService } from '../payments/payments.service.ts'
import {
  paymentAttempts,
  paymentRefunds,
  type PaymentAttemptRow,
  type PaymentRefundRow,
} from '../payments/payments.tables.ts'
import type { RefundLedger } from '../payments/refunds.ts'
import { sites } from '../sites/sites.tables.ts'
import { UNSETTLED_REFUND_STATUSES } from './order-search.ts'
import { writeAudit, type Actor } from './staff.audit.ts'
import type { ATTENTION_ACTIONS } from '../../../shared/staff-customers.ts'

export const ATTENTION_PAGE_SIZE = 25

/** What a person may do to a row, by the row's kind. */
export type AttentionIntent = (typeof ATTENTION_ACTIONS)[number]

export interface Cursor {
  at: Date
  id: string
}

/** `<created_at ms>.<id>`: the last row shown. */
export function parseAttentionCursor(value: string | undefined): Cursor | null {
  const m = value ? /^(\d{1,15})\.([0-9a-f-]{36})$/.exec(value) : null
  return m ? { at: new Date(Number(m[1])), id: m[2]! } : null
}

const cursorOf = (row: { createdAt: Date; id: string }) => `${row.createdAt.getTime()}.${row.id}`

export interface AttemptItem {
  id: string
  site: string
  method: string
  state: string
  resolution: string | null
  amount: number
  currency: string
  note: string | null
  lastMessage: string | null
  createdAt: string
  /** The order this attempt pays for, when one claimed it. */
  orderNumber: number | null
  /** The shopper's e-mail from the order form kept with the payment, when there is one. */
  email: string | null
  /** The actions this row offers (the server checks each again when asked). */
  actions: AttentionIntent[]
}

export interface RefundItem {
  id: string
  orderNumber: number | null
  method: string
  how: string
  status: string
  amount: number
  currency: string
  reason: string
  message: string | null
  createdAt: string
  actions: AttentionIntent[]
}

export interface Page<T> {
  rows: T[]
  next: string | null
}

/** The actions a payment attempt offers as it is now. */
export function attemptActions(row: Pick<PaymentAttemptRow, 'state' | 'resolution'>): AttentionIntent[] {
  if (row.state === 'unknown' || row.state === 'pending' || row.state === 'requires_action')
    return ['reconcile']
  if (!SUCCESS_STATES.has(row.state)) return []
  if (row.resolution === null) return ['resolve', 'give_back']
  if (row.resolution === 'voiding') return ['resolve']
  if (row.resolution === 'needs_attention') return ['place']
  return []
}

export function refundActions(row: Pick<PaymentRefundRow, 'status' | 'attemptId'>): AttentionIntent[] {
  return row.attemptId && (UNSETTLED_REFUND_STATUSES as readonly string[]).includes(row.status)
    ? ['refund_status']
    : []
}

type CreatedAt = typeof paymentAttempts.createdAt | typeof paymentRefunds.createdAt
type Id = typeof paymentAttempts.id | typeof paymentRefunds.id

function olderThan(cursor: Cursor | null, at: CreatedAt, id: Id) {
  if (!cursor) return undefined
  return or(lt(at, cursor.at), and(eq(at, cursor.at), lt(id, cursor.id)))
}

export interface AttentionDeps {
  db: Db
  payments: Pick<PaymentService, 'get' | 'reconcile' | 'markVoiding' | 'voidUnclaimed'>
  refunds: Pick<RefundLedger, 'get' | 'settle'>
  /** The reconciler's resolver of a paid attempt without an order (unclaimed-payments.ts). */
  resolveUnclaimed: (attempt: PaymentAttemptRow) => Promise<void>
  /** Places the order of a paid attempt from its kept form; why not, or null when placed. */
  placeFromPayment: (attempt: PaymentAttemptRow) => Promise<string | null>
  now?: () => number
}

/** Why an action was not taken: no such row (on this site), the row no longer offers it, or it failed. */
export type ActionRefusal = 'not_found' | 'not_offered' | 'failed'

/** The row as it is after the action: an attempt's state and resolution, or a refund's status. */
export type ActionRow =
  | { kind: 'payment'; id: string; state: string; resolution: string | null }
  | { kind: 'refund'; id: string; status: string }

export type ActionResult =
  | { ok: true; message: string; row?: ActionRow }
  | { ok: false; message: string; reason: ActionRefusal; error?: unknown; row?: ActionRow }

/** Only one site's rows (the integration API's token); absent, every site's (the back office). */
export interface SiteScope {
  siteId?: number | undefined
}

export class AttentionService {
  private readonly now: () => number

  constructor(private readonly deps: AttentionDeps) {
    this.now = deps.now ?? Date.now
  }

  /** The condition of each attempt list. */
  private attemptWhere(list: 'paid' | 'unknown'): SQL {
    // Literal states, as the partial index `payment_attempts_attention` names them, so the
    // planner can prove the index covers the query (a bound parameter would hide it).
    const a = paymentAttempts
    if (list === 'unknown') return sql`${a.state} = 'unknown'`
    const graceOver = new Date(this.now() - UNCLAIMED_PAYMENT_GRACE_MS)
    return sql`${a.state} in ('authorised', 'captured') and (${a.resolution} in ('voiding', 'needs_attention') or (${a.resolution} is null and ${a.updatedAt} < ${graceOver}))`
  }

  async attempts(
    list: 'paid' | 'unknown',
    after: Cursor | null,
    scope: SiteScope = {},
  ): Promise<Page<AttemptItem>> {
    const where = [this.attemptWhere(list)]
    if (scope.siteId !== undefined) where.push(eq(paymentAttempts.siteId, scope.siteId))
    const older = olderThan(after, paymentAttempts.createdAt, paymentAttempts.id)
    if (older) where.push(older)
    const rows = await this.deps.db
      .select({
        attempt: paymentAttempts,
        site: sites.name,
        orderNumber: orders.orderNumber,
      })
      .from(paymentAttempts)
      .innerJoin(sites, eq(sites.id, paymentAttempts.siteId))
      .leftJoin(orders, eq(orders.paymentAttemptId, paymentAttempts.id))
      .where(and(...where))
      .orderBy(desc(paymentAttempts.createdAt), desc(paymentAttempts.id))
      .limit(ATTENTION_PAGE_SIZE + 1)
    const page = rows.slice(0, ATTENTION_PAGE_SIZE)
    return {
      rows: page.map(({ attempt: a, site, orderNumber }) => ({
        id: a.id,
        site,
        method: a.method,
        state: a.state,
        resolution: a.resolution,
        amount: a.confirmedAmountMinor ?? a.amountMinor,
        currency: a.confirmedCurrency ?? a.currency,
        note: a.resolutionNote,
        lastMessage: a.lastMessage,
        createdAt: a.createdAt.toISOString(),
        orderNumber: orderNumber ?? null,
        email: typeof a.checkout?.form?.email === 'string' ? a.checkout.form.email : null,
        actions: attemptActions(a),
      })),
      next: rows.length > ATTENTION_PAGE_SIZE ? cursorOf(page.at(-1)!.attempt) : null,
    }
  }

  async refunds(after: Cursor | null, scope: SiteScope = {}): Promise<Page<RefundItem>> {
    // Literal, as the partial index `payment_refunds_unsettled` names them.
    const where: SQL[] = [sql`${paymentRefunds.status} in ('pending', 'unknown')`]
    // A refund is its order's site's.
    if (scope.siteId !== undefined) where.push(eq(orders.siteId, scope.siteId))
    const older = olderThan(after, paymentRefunds.createdAt, paymentRefunds.id)
    if (older) where.push(older)
    const rows = await this.deps.db
      .select({ refund: paymentRefunds, orderNumber: orders.orderNumber })
      .from(paymentRefunds)
      // The ledger keeps the order's id as text: cast it (when it is one) so the join reads the
      // orders' primary key, never the whole table.
      .leftJoin(
        orders,
        sql`${orders.id} = case when ${paymentRefunds.orderId} ~ '^[0-9]{1,9}$' then ${paymentRefunds.orderId}::integer end`,
      )
      .where(and(...where))
      .orderBy(desc(paymentRefunds.createdAt), desc(paymentRefunds.id))
      .limit(ATTENTION_PAGE_SIZE + 1)
    const page = rows.slice(0, ATTENTION_PAGE_SIZE)
    return {
      rows: page.map(({ refund: r, orderNumber }) => ({
        id: r.id,
        orderNumber: orderNumber ?? null,
        method: r.method,
        how: r.how,
        status: r.status,
        amount: r.amountMinor,
        currency: r.currency,
        reason: r.reason,
        message: r.message,
        createdAt: r.createdAt.toISOString(),
        actions: refundActions(r),
      })),
      next: rows.length > ATTENTION_PAGE_SIZE ? cursorOf(page.at(-1)!.refund) : null,
    }
  }

  /**
   * One action on one row, if the row (as it is now) offers it; audited with the row's state
   * before and after. A provider that cannot be asked just now changes nothing and says so.
   */
  async act(actor: Actor, intent: AttentionIntent, id: string, scope: SiteScope = {}): Promise<ActionResult> {
    if (intent === 'refund_status') return this.askAboutRefund(actor, id, scope)
    const before = await this.deps.payments.get(id)
    if (!before || (scope.siteId !== undefined && before.siteId !== scope.siteId))
      return { ok: false, reason: 'not_found', message: 'There is no payment with this reference.' }
    if (!attemptActions(before).includes(intent))
      return {
        ok: false,
        reason: 'not_offered',
        message: 'This payment no longer needs that: the page shows it as it is now.',
        row: attemptRow(before),
      }
    let result: ActionResult
    try {
      result = await this.runAttempt(intent, before)
    } catch (err) {
      result = { ok: false, reason: 'failed', message: unreachable(err), error: err }
    }
    const after = (await this.deps.payments.get(id)) ?? before
    result = { ...result, row: attemptRow(after) }
    await writeAudit(this.deps.db, actor, {
      action: `payment.${intent}`,
      targetType: 'payment_attempt',
      targetId: id,
      before: { state: before.state, resolution: before.resolution },
      after: { state: after.state, resolution: after.resolution, result: result.message },
    })
    return result
  }

  private async runAttempt(intent: AttentionIntent, row: PaymentAttemptRow): Promise<ActionResult> {
    if (intent === 'reconcile') {
      const after = await this.deps.payments.reconcile(row.id)
      return after.state === row.state
        ? { ok: true, message: `The provider has no news yet: the payment is still ${after.state}.` }
        : { ok: true, message: `The provider says the payment is ${after.state}.` }
    }
    if (intent === 'place') {
      const why = await this.deps.placeFromPayment(row)
      if (why) return { ok: false, reason: 'failed', message: `The order could not be placed: ${why}.` }
      const number = await this.orderNumberOf(row)
      return {
        ok: true,
        message: number ? `Order ${number} was placed from this payment.` : 'The order was placed.',
      }
    }
    if (intent === 'give_back') {
      // No order may claim it from here on; then the provider gives it back (the reconciler's
      // own steps for a payment whose order cannot be placed).
      const note = 'given back from the back office'
      if (!(await this.deps.payments.markVoiding(row.id, note)))
        return {
          ok: false,
          reason: 'not_offered',
          message: 'An order claimed this payment meanwhile: nothing was given back.',
        }
      await this.deps.payments.voidUnclaimed(row.id, note)
    } else await this.deps.resolveUnclaimed(row)
    const after = (await this.deps.payments.get(row.id))!
    switch (after.resolution) {
      case 'order_placed': {
        const number = await this.orderNumberOf(after)
        return {
          ok: true,
          message: number ? `Order ${number} was placed from this payment.` : 'The order was placed.',
        }
      }
      case 'voided':
        return { ok: true, message: 'The money was given back to the shopper.' }
      case 'needs_attention':
        return {
          ok: true,
          message: `The money could not be given back here (${after.resolutionNote ?? 'no reason given'}): refund it with the provider.`,
        }
      default:
        return { ok: true, message: 'The provider is giving the money back; ask again later.' }
    }
  }

  private async askAboutRefund(actor: Actor, id: string, scope: SiteScope): Promise<ActionResult> {
    const before = await this.deps.refunds.get(id)
    if (!before || (scope.siteId !== undefined && (await this.refundSite(before)) !== scope.siteId))
      return { ok: false, reason: 'not_found', message: 'There is no refund with this reference.' }
    if (!refundActions(before).includes('refund_status'))
      return {
        ok: false,
        reason: 'not_offered',
        message: 'This refund no longer needs that: the page shows it as it is now.',
        row: refundRow(before),
      }
    let result: ActionResult
    let after: PaymentRefundRow = before
    try {
      after = await this.deps.refunds.settle(id)
      result =
        after.status === before.status
          ? {
              ok: true,
              message: `The provider has not confirmed it yet: the refund is still ${after.status}.`,
            }
          : {
              ok: true,
              message: `The provider says the refund ${after.status === 'succeeded' ? 'succeeded' : `is ${after.status}`}.`,
            }
    } catch (err) {
      result = { ok: false, reason: 'failed', message: unreachable(err), error: err }
    }
    result = { ...result, row: refundRow(after) }
    await writeAudit(this.deps.db, actor, {
      action: 'refund.reconcile',
      targetType: 'payment_refund',
      targetId: id,
      before: { status: before.status },
      after: { status: after.status, result: result.message },
    })
    return result
  }

  /** The site of a refund: its order's (the ledger keeps the order's id as text), else its payment's. */
  private async refundSite(row: PaymentRefundRow): Promise<number | null> {
    if (/^[0-9]{1,9}$/.test(row.orderId)) {
      const [order] = await this.deps.db
        .select({ siteId: orders.siteId })
        .from(orders)
        .where(eq(orders.id, Number(row.orderId)))
      if (order) return order.siteId
    }
    const attempt = row.attemptId ? await this.deps.payments.get(row.attemptId) : null
    return attempt?.siteId ?? null
  }

  /** The order a payment paid for: its basket's (the placement may have claimed another attempt), else its own. */
  private async orderNumberOf(row: PaymentAttemptRow): Promise<number | null> {
    const cartRef = row.orderRef.slice(BASKET_ORDER_PREFIX.length)
    const byBasket = row.orderRef.startsWith(BASKET_ORDER_PREFIX) && UUID.test(cartRef)
    const [order] = await this.deps.db
      .select({ number: orders.orderNumber })
      .from(orders)
      .where(byBasket ? eq(orders.cartRef, cartRef) : eq(orders.paymentAttemptId, row.id))
      .limit(1)
    return order?.number ?? null
  }
}

/**
 * The shop's own attention service: its payments, refund ledger, the reconciler's resolver and
 * the orders side's placement. The back office, the integration API and the CLI all use this one.
 */
export function attentionServiceOf(app: FastifyInstance): AttentionService {
  return new AttentionService({
    db: app.db,
    payments: app.payments,
    refunds: app.refunds,
    // Set by the orders side when the app starts: read when asked.
    resolveUnclaimed: async (attempt) => {
      const resolver = app.payments.unclaimedResolver
      if (!resolver) throw new DomainError('invalid', 'No resolver of taken payments runs in this shop')
      await resolver(attempt)
    },
    placeFromPayment: (attempt) => placeFromPayment(app, attempt),
  })
}

const attemptRow = (r: PaymentAttemptRow): ActionRow => ({
  kind: 'payment',
  id: r.id,
  state: r.state,
  resolution: r.resolution,
})
const refundRow = (r: PaymentRefundRow): ActionRow => ({ kind: 'refund', id: r.id, status: r.status })

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** A provider that could not be asked: the person's message (nothing changed). */
function unreachable(err: unknown): string {
  if (err instanceof DomainError || err instanceof PaymentError)
    return `Nothing changed: ${err.message.replace(/\.$/, '')}.`
  return 'The provider could not be reached just now; nothing changed. Please try again later.'
}
