/**
 * Issue 29 defect 11 on the account's pages: an order's and an invoice's totals are shown in one
 * convention (ex VAT, then VAT, then the total) and the lines add up to what was charged. Before,
 * the order page showed goods ex VAT beside delivery inc VAT, lines that did not add up.
 */
import { and, eq, gt, ne } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { customers, orderItems, orders } from '../../src/server/db/schema.ts'
import { createInvoiceFromOrder } from '../../src/server/modules/orders/orders.queries.ts'
import type { AccountOrder, InvoiceView } from '../../src/shared/account.ts'
import type { OrderTotals } from '../../src/shared/order-totals.ts'
import { buildTestApp, type TestApp } from '../helpers/app.ts'
import { Visitor } from '../helpers/visitor.ts'

const DEMO = { email: 'demo@harbour-safety.example', password: 'Harbour-demo-2026' }

let t: TestApp
let demoId: number

beforeAll(async () => {
  t = await buildTestApp()
  const [demo] = await t.app.db.select().from(customers).where(eq(customers.email, DEMO.email))
  demoId = demo!.id
})
afterAll(() => t?.close())

async function login(): Promise<Visitor> {
  const v = await new Visitor(t.app).start()
  expect((await v.post('/login', { ...DEMO, remember: '', redirect: false })).statusCode).toBe(303)
  return v
}

const sum = (totals: OrderTotals) => totals.lines.reduce((s, l) => s + l.amount, 0)
const shown = (totals: OrderTotals) => [...totals.lines, totals.total].map((l) => [l.label, l.amount])

describe("the account's order page and invoice", () => {
  it('show goods, delivery and VAT lines that add up to the total charged', async () => {
    const [order] = await t.app.db
      .select()
      .from(orders)
      // Not a cancelled one: it is never invoiced (ADR 0200).
      .where(and(eq(orders.customerId, demoId), gt(orders.shippingNet, 0), ne(orders.status, 'cancelled')))
      .limit(1)
    expect(order).toBeTruthy()
    const v = await login()
    const page = (await v.visit(`/customer/orders/${order!.orderNumber}`)).json().props.order as AccountOrder
    expect(shown(page.totals)).toEqual([
      ['Goods (ex VAT)', order!.goodsNet],
      [`Delivery (${order!.deliveryName}, ex VAT)`, order!.shippingNet],
      ['VAT', order!.vat],
      ['Total', order!.totalIncVat],
    ])
    expect(sum(page.totals)).toBe(page.totals.total.amount)
    expect(page.totals.total.amount).toBe(page.total)

    const invoice = await createInvoiceFromOrder(t.app.db, order!.orderNumber)
    const view = (await v.visit(`/customer/invoices/${invoice.invoiceNumber}`)).json().props
      .invoice as InvoiceView
    expect(shown(view.totals)).toEqual([
      ['Goods (ex VAT)', order!.goodsNet],
      ['Delivery (ex VAT)', order!.shippingNet],
      ['VAT', order!.vat],
      ['Total', order!.totalIncVat],
    ])
    expect(sum(view.totals)).toBe(view.Invoice_Amount)
  })

  it('show a discount as its own ex-VAT line, the lines before discount adding up to the goods line', async () => {
    const [order] = await t.app.db.select().from(orders).where(eq(orders.customerId, demoId)).limit(1)
    const items = await t.app.db.select().from(orderItems).where(eq(orderItems.orderId, order!.id))
    // £5.00 off the first line: the stored goods (after discount) stay, the line before it grows.
    await t.app.db
      .update(orderItems)
      .set({ lineTotalExDiscountExTax: items[0]!.lineTotal + 500 })
      .where(eq(orderItems.id, items[0]!.id))
    await t.app.db.update(orders).set({ discount: 500 }).where(eq(orders.id, order!.id))
    const v = await login()
    const page = (await v.visit(`/customer/orders/${order!.orderNumber}`)).json().props.order as AccountOrder
    const goods = page.totals.lines.find((l) => l.kind === 'goods')!
    expect(goods).toMatchObject({ label: 'Goods (ex VAT)', amount: order!.goodsNet + 500 })
    expect(page.totals.lines.find((l) => l.kind === 'discount')).toMatchObject({
      label: 'Discount (ex VAT)',
      amount: -500,
    })
    expect(page.lines.reduce((s, l) => s + l.line_total_ex_discount, 0)).toBe(goods.amount)
    expect(sum(page.totals)).toBe(order!.totalIncVat)
    expect(page.totals.total.amount).toBe(order!.totalIncVat)
  })
})
