/**
 * The back office's order actions (issue 34): hold, release, ship, cancel, refund, resend the
 * acknowledgement, invoice and an internal note. Each goes through the same service the ERP's
 * integration API calls (the order lifecycle, putErpInvoice), with the staff member as the
 * timeline's actor, the page's version as the optimistic check, and one audit row written in the
 * change's own transaction. Every form carries a submission key: a second submit of the same form
 * finds the first one's audit row and does nothing. Knows nothing of HTTP; refusals are DomainErrors.
 */
import { randomUUID } from 'node:crypto'
import { and, eq, sql } from 'drizzle-orm'
import type { Db, Tx } from '../../db/client.ts'
import { DomainError } from '../../lib/domain-error.ts'
import { putErpInvoice } from '../admin/admin.invoices.ts'
import { enqueueMail } from '../mail/mail.queue.ts'
import { acknowledgementMail } from '../orders/orders.mail.ts'
import { orderEvents, orders, type OrderRow } from '../orders/orders.tables.ts'
import type { OrderLifecycle, OrderLifecycleDeps } from '../orders/order-lifecycle.types.ts'
import { orderNotFound } from '../orders/order-lifecycle.types.ts'
import { checkVersion } from '../orders/order-lifecycle.write.ts'
import type { Site } from '../sites/sites.service.ts'
import { writeAudit, type Actor as AuditActor } from './staff.audit.ts'
import { staffAudit } from './staff.tables.ts'

export type OrderAction =
  | { intent: 'hold'; reason: string }
  | { intent: 'release' }
  | {
      intent: 'ship'
      carrier: string
      trackingNumber: string
      trackingUrl: string | null
      lines?: { lineId: number; quantity: number }[]
    }
  | { intent: 'cancel'; reason: string }
  | { intent: 'refund'; reason: string; amountMinor?: number; lines?: { lineId: number; quantity: number }[] }
  | { intent: 'resend' }
  | { intent: 'invoice'; invoiceNumber?: number; invoiceDate: Date; amountMinor: number; pdfBase64?: string }
  | { intent: 'note'; note: string }

interface StaffOrderDeps {
  db: Db
  lifecycle: OrderLifecycle
  mail: OrderLifecycleDeps['mail']
}

interface ActionRequest {
  orderNumber: number
  /** The order's version the page showed (not needed by a note, which changes nothing of the order) */
  version: number
  /** The form's key: the same key again is the same submit */
  submission: string
  /** The shop's address for a site, for links in a resent e-mail (orders placed before it was kept) */
  baseUrl: (site: Site) => string
  action: OrderAction
}

/** What the page says after an action. */
const DONE: Record<OrderAction['intent'], string> = {
  hold: 'The order is on hold.',
  release: 'The order was released.',
  ship: 'The shipment was recorded and the customer e-mailed the tracking.',
  cancel: 'The order was cancelled and its payment given back.',
  refund: 'The refund was sent.',
  resend: 'The acknowledgement e-mail was queued again.',
  invoice: 'The invoice was recorded.',
  note: 'The note was added.',
}

export const STALE_MESSAGE =
  'This order changed since you opened it, so nothing was done. Here it is as it is now: check it and try again.'
const REPEATED_MESSAGE = 'That was already done (the form was sent twice); nothing was done again.'

const snapshot = (o: OrderRow) => ({
  status: o.status,
  version: o.version,
  paymentStatus: o.paymentStatus,
  fulfilmentStatus: o.fulfilmentStatus,
  refundedMinor: o.refundedMinor,
})

async function findOrder(db: Db | Tx, orderNumber: number, lock = false): Promise<OrderRow> {
  const q = db.select().from(orders).where(eq(orders.orderNumber, orderNumber))
  const [order] = lock ? await q.for('update') : await q
  if (!order) throw orderNotFound(orderNumber)
  return order
}

/** Whether this form was already sent (its audit row exists). */
async function alreadyDone(db: Db | Tx, orderNumber: number, submission: string): Promise<boolean> {
  const [row] = await db
    .select({ id: staffAudit.id })
    .from(staffAudit)
    .where(
      and(
        eq(staffAudit.targetType, 'order'),
        eq(staffAudit.targetId, String(orderNumber)),
        sql`${staffAudit.after} ->> 'submission' = ${submission}`,
      ),
    )
    .limit(1)
  return row !== undefined
}

/** What the audit row keeps of an action (never a PDF's bytes). */
function auditDetails(action: OrderAction): Record<string, unknown> {
  if (action.intent === 'invoice') {
    const { pdfBase64, invoiceDate, ...rest } = action
    return {
      ...rest,
      invoiceDate: invoiceDate.toISOString().slice(0, 10),
      pdf: pdfBase64 ? 'uploaded' : 'generated',
    }
  }
  return { ...action }
}

async function nextInvoiceNumber(db: Db): Promise<number> {
  const result = await db.execute<{ n: string }>(sql`select nextval('invoice_number_seq')::text as n`)
  const rows = (Array.isArray(result) ? result : (result as { rows: { n: string }[] }).rows) as {
    n: string
  }[]
  return Number(rows[0]!.n)
}

export class StaffOrders {
  constructor(private readonly deps: StaffOrderDeps) {}

  /**
   * Runs one action; answers the page's message. Stale version: `order_version_mismatch` (the
   * caller shows STALE_MESSAGE and the fresh order); a repeat of the same form: REPEATED_MESSAGE.
   */
  async act(
    actor: AuditActor & { name: string },
    req: ActionRequest,
  ): Promise<{ message: string; repeated: boolean }> {
    const { db, lifecycle } = this.deps
    const before = await findOrder(db, req.orderNumber)
    const a = req.action
    // A repeat of a refund or a cancel is sent on: the lifecycle's keys make it ask the provider
    // again only if the first answer never came (and never give back twice).
    const seen = await alreadyDone(db, req.orderNumber, req.submission)
    const retried = a.intent === 'refund' || a.intent === 'cancel'
    if (seen && !retried) return { message: REPEATED_MESSAGE, repeated: true }
    let audited = false
    const audit = async (tx: Tx, extra: Record<string, unknown> = {}) => {
      if (audited || (await alreadyDone(tx, req.orderNumber, req.submission))) return
      audited = true
      const after = await findOrder(tx, req.orderNumber)
      await writeAudit(tx, actor, {
        action: `order.${a.intent}`,
        targetType: 'order',
        targetId: req.orderNumber,
        before: snapshot(before),
        after: { ...snapshot(after), ...auditDetails(a), ...extra, submission: req.submission },
      })
    }
    const scope = {
      orderNumber: req.orderNumber,
      expectVersion: req.version,
      actor: { kind: 'staff' as const, name: actor.email },
      alsoInTransaction: (tx: Tx) => audit(tx),
    }
    try {
      switch (a.intent) {
        case 'hold':
          await lifecycle.holdOrder(db, { ...scope, reason: a.reason })
          break
        case 'release':
          await lifecycle.releaseOrder(db, scope)
          break
        case 'ship':
          await lifecycle.shipOrder(db, {
            ...scope,
            // One parcel per submitted form: its reference is the form's key, so a replay changes nothing.
            shipmentRef: `staff-${req.submission}`,
            carrier: a.carrier,
            trackingNumber: a.trackingNumber,
            trackingUrl: a.trackingUrl,
            ...(a.lines ? { lines: a.lines } : {}),
          })
          break
        case 'cancel':
          await lifecycle.cancelOrder(db, { ...scope, reason: a.reason })
          break
        case 'refund': {
          const summary = await lifecycle.refundOrder(db, {
            ...scope,
            reason: a.reason,
            // The refund's own key with the provider: a repeat of this form never refunds twice.
            idempotencyKey: `staff:${actor.id ?? 0}:${req.submission}`,
            ...(a.amountMinor !== undefined ? { amountMinor: a.amountMinor } : {}),
            ...(a.lines ? { lines: a.lines } : {}),
          })
          if (seen) return { message: REPEATED_MESSAGE, repeated: true }
          return { message: await this.refundMessage(before, summary.version), repeated: false }
        }
        case 'invoice':
          return { message: await this.invoice(req, a, audit), repeated: false }
        case 'resend':
        case 'note':
          await this.timelineOnly(actor, req, a, audit)
          break
      }
    } catch (error) {
      // Two submits at once: the second waited for the first's lock and saw its new version.
      if (
        error instanceof DomainError &&
        error.code === 'order_version_mismatch' &&
        (await alreadyDone(db, req.orderNumber, req.submission))
      )
        return { message: REPEATED_MESSAGE, repeated: true }
      throw error
    }
    return seen ? { message: REPEATED_MESSAGE, repeated: true } : { message: DONE[a.intent], repeated: false }
  }

  /** What a refund would give back and what may still be refunded; changes nothing. */
  async quote(orderNumber: number, a: Extract<OrderAction, { intent: 'refund' }>) {
    return this.deps.lifecycle.quoteRefund(this.deps.db, {
      orderNumber,
      ...(a.amountMinor !== undefined ? { amountMinor: a.amountMinor } : {}),
      ...(a.lines ? { lines: a.lines } : {}),
    })
  }

  /** What the refund's outcome was, from the order's timeline (the ledger's answer). */
  private async refundMessage(before: OrderRow, version: number): Promise<string> {
    const [row] = await this.deps.db
      .select({ data: orderEvents.data })
      .from(orderEvents)
      .where(and(eq(orderEvents.orderId, before.id), eq(orderEvents.type, 'refund')))
      .orderBy(sql`${orderEvents.id} desc`)
      .limit(1)
    const d = (row?.data ?? {}) as { status?: string; message?: string; version?: number }
    if (d.version !== version) return DONE.refund
    if (d.status === 'succeeded') return 'The refund succeeded.'
    if (d.status === 'pending') return 'The refund was accepted by the provider and is pending.'
    return `The refund failed${d.message ? `: ${d.message}` : '.'} Nothing was given back.`
  }

  private async invoice(
    req: ActionRequest,
    a: Extract<OrderAction, { intent: 'invoice' }>,
    audit: (tx: Tx, extra?: Record<string, unknown>) => Promise<void>,
  ): Promise<string> {
    const order = await findOrder(this.deps.db, req.orderNumber)
    // No number given: the shop's next invoice number, as `invoice create` gives.
    const invoiceNumber = a.invoiceNumber ?? (await nextInvoiceNumber(this.deps.db))
    const result = await putErpInvoice(this.deps.db, {
      siteId: order.siteId,
      orderNumber: req.orderNumber,
      invoiceNumber,
      invoiceDate: a.invoiceDate,
      amountMinor: a.amountMinor,
      ...(a.pdfBase64 ? { pdfBase64: a.pdfBase64 } : {}),
      expectVersion: req.version,
      alsoInTransaction: (tx) => audit(tx, { invoiceNumber }),
    })
    return `Invoice ${result.invoiceNumber} was ${result.created ? 'created' : 'updated'}${
      result.pdf === 'stored' ? ' with its PDF' : '; the shop draws its PDF'
    }.`
  }

  /** A note or a resent acknowledgement: a timeline row (and the e-mail), no change of state. */
  private async timelineOnly(
    actor: AuditActor,
    req: ActionRequest,
    a: Extract<OrderAction, { intent: 'resend' | 'note' }>,
    audit: (tx: Tx) => Promise<void>,
  ): Promise<void> {
    const [found] = await this.deps.db
      .select({ siteId: orders.siteId })
      .from(orders)
      .where(eq(orders.orderNumber, req.orderNumber))
    const site = found && a.intent === 'resend' ? await this.deps.mail.site(found.siteId) : null
    await this.deps.db.transaction(async (tx) => {
      const order = await findOrder(tx, req.orderNumber, true)
      if (await alreadyDone(tx, req.orderNumber, req.submission)) return
      if (a.intent === 'note') {
        await tx.insert(orderEvents).values({
          orderId: order.id,
          type: 'note',
          actorKind: 'staff',
          actorName: actor.email,
          data: { note: a.note },
        })
        return audit(tx)
      }
      checkVersion(order, req.version)
      if (order.status === 'pending_payment' || order.status === 'payment_failed')
        throw new DomainError(
          'order_transition_refused',
          'An order that is not paid has no acknowledgement to send again.',
        )
      if (!site) throw new DomainError('order_transition_refused', "The order's site is not available.")
      const key = `order:${order.id}:acknowledgement:again:${randomUUID()}`
      const data = await this.deps.mail.present(tx, order)
      await enqueueMail(tx, [
        {
          dedupeKey: key,
          message: acknowledgementMail(site, data, order.siteOrigin || req.baseUrl(site), {}),
        },
      ])
      await tx.insert(orderEvents).values({
        orderId: order.id,
        type: 'acknowledgement_resent',
        actorKind: 'staff',
        actorName: actor.email,
        data: { mailKey: key, to: order.contact.email },
      })
      await audit(tx)
    })
  }
}
