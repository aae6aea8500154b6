/**
 * Issue 29 defect 8 (ADR 0066, 0145): a guest who types a registered customer's e-mail places an
 * order that is linked to that account for the back office only. The account shows it (history,
 * order page, reorder, invoices, the home page's tiles) once its owner, logged in as themselves,
 * follows the signed link from the order's acknowledgement e-mail; nobody else can, and the link
 * cannot be made up or moved to another order.
 */
import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { customers, mailJobs, orderOwnerConfirmations, orders } from '../../src/server/db/schema.ts'
import { createInvoiceFromOrder } from '../../src/server/modules/orders/orders.queries.ts'
import { OrderOwnerLinks } from '../../src/server/modules/orders/order-owner.ts'
import { hashPassword } from '../../src/server/modules/auth/auth.crypto.ts'
import type { OrderRow } from '../../src/server/modules/orders/orders.tables.ts'
import type { OrderSummary } from '../../src/shared/account.ts'
import type { Cart } from '../../src/shared/cart.ts'
import type { OrderData } from '../../src/shared/checkout.ts'
import { buildTestApp, type TestApp } from '../helpers/app.ts'
import { Visitor } from '../helpers/visitor.ts'
import { insertCategory, insertGroup, insertSku, siteIdFor } from '../factories/product.ts'

const OWNER = { email: 'owner.of.address@example.com', password: 'Owner-address-2026!' }
const OTHER = { email: 'someone.else@example.com', password: 'Someone-else-2026!' }

let t: TestApp
let siteId: number
let categoryId: number
let skuId: number
let ownerId: number
let links: OrderOwnerLinks

beforeAll(async () => {
  t = await buildTestApp()
  siteId = await siteIdFor(t.app.db)
  categoryId = (await insertCategory(t.app.db, { siteId })).id
  const groupId = (await insertGroup(t.app.db, { siteId, categoryId })).id
  skuId = (await insertSku(t.app.db, { siteId, groupId })).id
  for (const who of [OWNER, OTHER]) {
    const [row] = await t.app.db
      .insert(customers)
      .values({
        siteId,
        email: who.email,
        username: who.email,
        firstName: 'Reg',
        lastName: 'Istered',
        passwordHash: await hashPassword(who.password),
        emailVerifiedAt: new Date(),
        registerDate: new Date(),
      })
      .returning()
    if (who === OWNER) ownerId = row!.id
  }
  links = new OrderOwnerLinks(t.app.config.session.secret)
})
afterAll(() => t?.close())

async function login(who: { email: string; password: string }): Promise<Visitor> {
  const v = await new Visitor(t.app).start()
  const res = await v.post('/login', { ...who, remember: '', redirect: false })
  expect(res.statusCode).toBe(303)
  return v
}

/** A stranger checks out as a guest, typing the owner's e-mail with their own name and address. */
async function strangerOrders(): Promise<OrderRow> {
  const v = await new Visitor(t.app).start()
  const added = await v.post('/cart/add', {
    items: [{ listing_id: skuId, quantity: 2, category_id: categoryId }],
  })
  const cart = added.json() as Cart
  const res = await v.post('/checkout/complete', {
    cart_id: cart.id,
    payment_method: 'purchase_order',
    contact: {
      firstName: 'Stranger',
      lastName: 'Danger',
      email: OWNER.email,
      phone: '01632 960 111',
      company: '',
    },
    shipping_address: {
      company: '',
      address1: '1 Unknown Road',
      address2: '',
      town: 'Elsewhere',
      county: '',
      postcode: 'EX1 1AA',
      country: 'GB',
    },
    showingBillingAddress: false,
    transactions: [
      {
        amount: cart.cart_total_price_inc_tax,
        paymentDetails: { PONumber: '' },
        paymentProvider: 'purchase_order',
        message: '',
        authCode: 'empty',
      },
    ],
    delivery_option: cart.shippingRates.find((r) => r.selected)?.id ?? 1,
    Notes: '',
  })
  expect(res.statusCode).toBe(200)
  const placed = res.json().order as OrderData
  const [row] = await t.app.db.select().from(orders).where(eq(orders.id, placed.id))
  return row!
}

async function shown(v: Visitor, order: OrderRow, invoiceNumber: number) {
  const list = (await v.visit('/customer/orders')).json().props.orders as OrderSummary[]
  const home = (await v.visit('/customer')).json().props
  const invoices = (await v.visit('/customer/invoices')).json().props.invoices as { Invoice_Number: number }[]
  return {
    inHistory: list.some((o) => o.OrderNumber === order.orderNumber),
    onHome: home.lastOrder?.OrderNumber === order.orderNumber,
    page: (await v.visit(`/customer/orders/${order.orderNumber}`)).statusCode,
    reorder: (await v.post(`/customer/orders/${order.orderNumber}/reorder`, {})).statusCode,
    invoiceListed: invoices.some((i) => i.Invoice_Number === invoiceNumber),
    invoicePage: (await v.visit(`/customer/invoices/${invoiceNumber}`)).statusCode,
    invoicePdf: (await v.request('GET', `/customer/invoices/${invoiceNumber}/pdf`)).statusCode,
    counts: home.counts as { orders: number; invoices: number },
  }
}

const hidden = {
  inHistory: false,
  onHome: false,
  page: 404,
  reorder: 404,
  invoiceListed: false,
  invoicePage: 404,
  invoicePdf: 404,
}

async function confirmations(orderId: number) {
  return t.app.db.select().from(orderOwnerConfirmations).where(eq(orderOwnerConfirmations.orderId, orderId))
}

describe("a guest order placed with a registered customer's e-mail", () => {
  it('is linked to that customer for the back office but does not appear anywhere in their account', async () => {
    const order = await strangerOrders()
    expect(order).toMatchObject({ customerId: ownerId, placedAsGuest: true, status: 'placed' })
    const invoice = await createInvoiceFromOrder(t.app.db, order.orderNumber)
    const v = await login(OWNER)
    const before = await shown(v, order, invoice.invoiceNumber)
    expect(before).toMatchObject(hidden)
    expect(before.counts).toEqual(expect.objectContaining({ orders: 0, invoices: 0 }))
  })

  it("appears in the owner's account once they follow the acknowledgement's link logged in as themselves", async () => {
    const order = await strangerOrders()
    const invoice = await createInvoiceFromOrder(t.app.db, order.orderNumber)
    const url = links.url('http://localhost', order)!
    expect(url).toMatch(
      new RegExp(`^http://localhost/customer/orders/${order.orderNumber}/confirm\\?sig=[\\w-]{43}$`),
    )
    const path = url.slice('http://localhost'.length)

    // Not logged in: sent to log in first, nothing confirmed.
    const visitor = await new Visitor(t.app).start()
    const away = await visitor.visit(path)
    expect(away.statusCode).toBe(302)
    expect(away.headers.location).toBe('/login')
    expect(await confirmations(order.id)).toHaveLength(0)

    const v = await login(OWNER)
    const res = await v.visit(path)
    expect([302, 303]).toContain(res.statusCode)
    expect(res.headers.location).toBe(`/customer/orders/${order.orderNumber}`)
    const page = (await v.visit(`/customer/orders/${order.orderNumber}`)).json()
    expect(page.flash?.status?.message).toBe('Thank you: the order is now in your order history.')
    const after = await shown(v, order, invoice.invoiceNumber)
    expect(after).toMatchObject({
      inHistory: true,
      onHome: true,
      page: 200,
      reorder: 200,
      invoiceListed: true,
      invoicePage: 200,
      invoicePdf: 200,
    })
    // Following it again changes nothing.
    expect((await v.visit(path)).headers.location).toBe(`/customer/orders/${order.orderNumber}`)
    expect(await confirmations(order.id)).toHaveLength(1)
  })

  it('sends the confirmation link in the order acknowledgement, and it works for the owner', async () => {
    const order = await strangerOrders()
    const [job] = await t.app.db
      .select()
      .from(mailJobs)
      .where(eq(mailJobs.dedupeKey, `order:${order.id}:acknowledgement`))
    const found = /https?:\/\/[^\s]+\/customer\/orders\/\d+\/confirm\?sig=[\w-]{43}/.exec(job!.message.text)
    expect(found, 'the acknowledgement carries the link').not.toBeNull()
    const link = new URL(found![0])
    expect(link.pathname).toBe(`/customer/orders/${order.orderNumber}/confirm`)
    const v = await login(OWNER)
    expect((await v.visit(`${link.pathname}${link.search}`)).headers.location).toBe(
      `/customer/orders/${order.orderNumber}`,
    )
    expect(await confirmations(order.id)).toHaveLength(1)
  })

  it('gives another logged-in customer following the link nothing', async () => {
    const order = await strangerOrders()
    const path = links.url('', order)!
    const other = await login(OTHER)
    expect((await other.visit(path)).statusCode).toBe(404)
    expect(await confirmations(order.id)).toHaveLength(0)
    const list = (await other.visit('/customer/orders')).json().props.orders as OrderSummary[]
    expect(list.some((o) => o.OrderNumber === order.orderNumber)).toBe(false)
    expect((await other.visit(`/customer/orders/${order.orderNumber}`)).statusCode).toBe(404)
  })

  it('cannot be confirmed with a made-up, altered or missing signature, or with another order’s link', async () => {
    const first = await strangerOrders()
    const second = await strangerOrders()
    const v = await login(OWNER)
    const firstSig = new URL(links.url('http://x', first)!).searchParams.get('sig')!
    const flipped = `${firstSig[0] === 'A' ? 'B' : 'A'}${firstSig.slice(1)}`
    const attempts = [
      `/customer/orders/${second.orderNumber}/confirm?sig=${firstSig}`,
      `/customer/orders/${first.orderNumber}/confirm?sig=${flipped}`,
      `/customer/orders/${first.orderNumber}/confirm`,
      `/customer/orders/${first.orderNumber}/confirm?sig=`,
      `/customer/orders/${first.orderNumber}/confirm?sig=${'A'.repeat(43)}`,
      `/customer/orders/${first.orderNumber}/confirm?sig[]=x`,
      `/customer/orders/abc/confirm?sig=${firstSig}`,
      // A link made with another secret (someone guessing the scheme).
      new OrderOwnerLinks('not-the-shop-secret'.padEnd(40, 'x')).url('', first)!,
    ]
    for (const url of attempts) expect(`${url} ${(await v.visit(url)).statusCode}`).toBe(`${url} 404`)
    expect(await confirmations(first.id)).toHaveLength(0)
    expect(await confirmations(second.id)).toHaveLength(0)

    // Confirming the first order leaves the second one hidden.
    await v.visit(links.url('', first)!)
    const list = (await v.visit('/customer/orders')).json().props.orders as OrderSummary[]
    expect(list.map((o) => o.OrderNumber)).toContain(first.orderNumber)
    expect(list.map((o) => o.OrderNumber)).not.toContain(second.orderNumber)
  })

  it('stops working when the back office moves the order to another account', async () => {
    const order = await strangerOrders()
    const path = links.url('', order)!
    const [other] = await t.app.db.select().from(customers).where(eq(customers.email, OTHER.email))
    await t.app.db.update(orders).set({ customerId: other!.id }).where(eq(orders.id, order.id))
    expect((await (await login(OWNER)).visit(path)).statusCode).toBe(404)
    expect((await (await login(OTHER)).visit(path)).statusCode).toBe(404)
    const [n] = await t.app.db
      .select({ n: sql<number>`count(*)::int` })
      .from(orderOwnerConfirmations)
      .where(eq(orderOwnerConfirmations.orderId, order.id))
    expect(n!.n).toBe(0)
  })

  it('needs no link for an order the customer placed logged in', () => {
    const row = { siteId, id: 1, orderNumber: 1, customerId: ownerId, placedAsGuest: false }
    expect(links.url('', row)).toBeNull()
  })
})
