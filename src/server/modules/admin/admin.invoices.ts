/**
 * An invoice from the ERP (ADR 0220): PUT /orders/{number}/invoices/{invoiceNumber} with its date
 * and amount, and optionally its PDF. The invoice number is the natural key, so a repeat is safe:
 * the same number on the same order updates its date, amount and PDF; another number on an order
 * that has an invoice, or a number another order holds, is refused. Lines and totals are copied
 * from the order as the CLI's `invoice create` does; without a PDF the shop draws one as today.
 */
import { and, eq } from 'drizzle-orm'
import type { Db, Tx } from '../../db/client.ts'
import { DomainError } from '../../lib/domain-error.ts'
import { checkVersion } from '../orders/order-lifecycle.write.ts'
import { INVOICEABLE_STATES } from '../orders/order.state.ts'
import { invoiceOf } from '../orders/orders.queries.ts'
import { invoices, orders } from '../orders/orders.tables.ts'
import { adminInvoiceDocuments } from './admin.tables.ts'

export const MAX_INVOICE_PDF_BYTES = 5 * 1024 * 1024

const refused = (message: string) => new DomainError('order_transition_refused', message)
const invalidField = (field: string, message: string) =>
  new DomainError('invalid', message, { [field]: [message] })

/** The PDF in a base64 string, or a refusal naming the field. */
export function decodePdf(base64: string): Buffer {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(base64)) throw invalidField('pdfBase64', 'must be base64')
  const pdf = Buffer.from(base64, 'base64')
  if (pdf.length > MAX_INVOICE_PDF_BYTES) throw invalidField('pdfBase64', 'must be at most 5 MB')
  if (pdf.subarray(0, 5).toString('latin1') !== '%PDF-') throw invalidField('pdfBase64', 'must be a PDF file')
  return pdf
}

export async function putErpInvoice(
  db: Db,
  input: {
    siteId: number
    orderNumber: number
    invoiceNumber: number
    invoiceDate: Date
    amountMinor: number
    pdfBase64?: string
    expectVersion?: number
    /** Runs in the invoice's transaction after it is written (the back office's audit row). */
    alsoInTransaction?: (tx: Tx) => Promise<void>
  },
): Promise<{ invoiceNumber: number; created: boolean; pdf: 'stored' | 'generated' }> {
  const pdf = input.pdfBase64 === undefined ? null : decodePdf(input.pdfBase64)
  return db.transaction(async (tx) => {
    const [order] = await tx
      .select()
      .from(orders)
      .where(and(eq(orders.siteId, input.siteId), eq(orders.orderNumber, input.orderNumber)))
      .for('update')
    if (!order) throw new DomainError('order_not_found', `There is no order ${input.orderNumber}.`)
    checkVersion(order, input.expectVersion)
    if (!INVOICEABLE_STATES.includes(order.status))
      throw refused(`An order that is ${order.status.replace('_', ' ')} cannot be invoiced.`)
    if (order.customerId === null) throw refused('An order without a customer cannot be invoiced.')
    const [mine] = await tx.select().from(invoices).where(eq(invoices.orderId, order.id))
    if (mine && mine.invoiceNumber !== input.invoiceNumber)
      throw refused(`Order ${input.orderNumber} already has invoice ${mine.invoiceNumber}.`)
    const [taken] = await tx
      .select({ orderId: invoices.orderId })
      .from(invoices)
      .where(eq(invoices.invoiceNumber, input.invoiceNumber))
    if (taken && taken.orderId !== order.id)
      throw refused(`Invoice number ${input.invoiceNumber} belongs to another order.`)
    let invoiceId: number
    if (mine) {
      await tx
        .update(invoices)
        .set({ invoiceDate: input.invoiceDate, amount: input.amountMinor })
        .where(eq(invoices.id, mine.id))
      invoiceId = mine.id
    } else {
      const [row] = await tx
        .insert(invoices)
        .values({
          ...(await invoiceOf(tx, { ...order, customerId: order.customerId })),
          invoiceNumber: input.invoiceNumber,
          invoiceDate: input.invoiceDate,
          amount: input.amountMinor,
        })
        .returning({ id: invoices.id })
      invoiceId = row!.id
    }
    if (pdf)
      await tx
        .insert(adminInvoiceDocuments)
        .values({ invoiceId, pdf })
        .onConflictDoUpdate({ target: adminInvoiceDocuments.invoiceId, set: { pdf } })
    const [stored] = await tx
      .select({ id: adminInvoiceDocuments.invoiceId })
      .from(adminInvoiceDocuments)
      .where(eq(adminInvoiceDocuments.invoiceId, invoiceId))
    if (input.alsoInTransaction) await input.alsoInTransaction(tx)
    return { invoiceNumber: input.invoiceNumber, created: !mine, pdf: stored ? 'stored' : 'generated' }
  })
}

/** The PDF the ERP sent for this invoice of the site, if it sent one (the account serves it). */
export async function storedInvoicePdf(
  db: Db,
  siteId: number,
  invoiceNumber: number,
): Promise<Buffer | null> {
  const [row] = await db
    .select({ pdf: adminInvoiceDocuments.pdf })
    .from(adminInvoiceDocuments)
    .innerJoin(invoices, eq(invoices.id, adminInvoiceDocuments.invoiceId))
    .where(and(eq(invoices.siteId, siteId), eq(invoices.invoiceNumber, invoiceNumber)))
  return row?.pdf ?? null
}
