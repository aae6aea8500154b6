import { and, asc, eq, ne } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  carts,
  customerAddresses,
  customerContacts,
  customers,
  invoices,
  marketingConsents,
  orderItems,
  orders,
  products,
  savedCards,
} from '../../src/server/db/schema.ts'
import { hashPassword } from '../../src/server/modules/auth/auth.crypto.ts'
import { createInvoiceFromOrder } from '../../src/server/modules/orders/orders.queries.ts'
import { MISSING_PRODUCT_ID } from '../../src/server/db/seed/account.ts'
import type { AccountOrder, OrderSummary, SavedBasket } from '../../src/shared/account.ts'
import { buildTestApp, type TestApp } from '../helpers/app.ts'
import { Visitor } from '../helpers/visitor.ts'

const DEMO = { email: 'demo@harbour-safety.example', password: 'Harbour-demo-2026' }
const OTHER = { email: 'other.buyer@example.com', password: 'Other-buyer-2026!' }
const UNVERIFIED = { email: 'unverified@example.com', password: 'Unverified-2026!' }

let t: TestApp
let demoId: number

beforeAll(async () => {
  t = await buildTestApp()
  const db = t.app.db
  const [demo] = await db.select().from(customers).where(eq(customers.email, DEMO.email))
  demoId = demo!.id
  for (const [who, verified] of [
    [OTHER, true],
    [UNVERIFIED, false],
  ] as const) {
    await db.insert(customers).values({
      siteId: demo!.siteId,
      email: who.email,
      username: who.email,
      firstName: 'Olive',
      lastName: 'Other',
      passwordHash: await hashPassword(who.password),
      emailVerifiedAt: verified ? new Date() : null,
      registerDate: new Date(),
    })
  }
})
afterAll(() => t?.close())

async function login(who: { email: string; password: string }): Promise<Visitor> {
  const v = await new Visitor(t.app).start()
  const res = await v.post('/login', { ...who, remember: '', redirect: false })
  expect(res.statusCode).toBe(303)
  return v
}

async function demoOrders() {
  return t.app.db.select().from(orders).where(eq(orders.customerId, demoId)).orderBy(asc(orders.orderDate))
}

async function demoObjects() {
  const db = t.app.db
  const [order] = (await demoOrders()).slice(-1)
  const [invoice] = await db.select().from(invoices).where(eq(invoices.customerId, demoId))
  const baskets = await db
    .select()
    .from(carts)
    .where(and(eq(carts.customerId, demoId), eq(carts.kind, 'saved')))
    .orderBy(asc(carts.createdAt))
  const [card] = await db.select().from(savedCards).where(eq(savedCards.customerId, demoId))
  const [contact] = await db
    .insert(customerContacts)
    .values({
      customerId: demoId,
      firstName: 'Matrix',
      lastName: 'Row',
      email: 'matrix@example.com',
      phone: '01632960999',
    })
    .returning()
  const [address] = await db
    .select()
    .from(customerAddresses)
    .where(and(eq(customerAddresses.customerId, demoId), eq(customerAddresses.type, 'shipping')))
  return { order: order!, invoice: invoice!, baskets, card: card!, contact: contact!, address: address! }
}

describe('the seeded demo account', () => {
  it('has placed orders in every maginus_status, two invoices, two saved baskets and a saved card', async () => {
    const list = await demoOrders()
    expect(new Set(list.map((o) => o.maginusStatus))).toEqual(new Set([null, 1, 2, 3]))
    expect(await t.app.db.select().from(invoices).where(eq(invoices.customerId, demoId))).toHaveLength(2)
    const v = await login(DEMO)
    const page = (await v.visit('/customer/carts')).json()
    expect((page.props.baskets as SavedBasket[]).map((b) => b.basketName).sort()).toEqual([
      'Monthly restock',
      'Site refit',
    ])
    expect(await t.app.db.select().from(savedCards).where(eq(savedCards.customerId, demoId))).toHaveLength(1)
  })
})

describe('every account route answers the owner, 404s another customer and turns a guest away', () => {
  it('holds for every route × (owner, other customer, guest)', async () => {
    const o = await demoObjects()
    const [refit, restock] = [o.baskets[0]!, o.baskets[1]!]
    type Who = 'owner' | 'other' | 'guest'
    const routes: {
      name: string
      method: 'GET' | 'POST' | 'PATCH'
      url: string
      body?: unknown
      page?: boolean
      owner: number
    }[] = [
      {
        name: 'order detail',
        method: 'GET',
        url: `/customer/orders/${o.order.orderNumber}`,
        page: true,
        owner: 200,
      },
      {
        name: 'invoice view',
        method: 'GET',
        url: `/customer/invoices/${o.invoice.invoiceNumber}`,
        page: true,
        owner: 200,
      },
      {
        name: 'invoice PDF',
        method: 'GET',
        url: `/customer/invoices/${o.invoice.invoiceNumber}/pdf`,
        owner: 200,
      },
      {
        name: 'reorder',
        method: 'POST',
        url: `/customer/orders/${o.order.orderNumber}/reorder`,
        body: {},
        owner: 200,
      },
      {
        name: 'load basket',
        method: 'POST',
        url: '/customer/load-cart',
        body: { cart: refit.id },
        owner: 200,
      },
      {
        name: 'rename basket',
        method: 'POST',
        url: '/cart/save',
        body: { id: refit.id, basketName: 'Renamed' },
        owner: 200,
      },
      {
        name: 'delete basket',
        method: 'POST',
        url: '/customer/destroy-cart',
        body: { id: restock.id },
        owner: 200,
      },
      {
        name: 'remove card',
        method: 'POST',
        url: '/customer/destroy-card',
        body: { id: o.card.id },
        owner: 200,
      },
      {
        name: 'edit contact',
        method: 'PATCH',
        url: '/customer/update-contact',
        body: {
          section: 'contact',
          id: o.contact.id,
          data: {
            firstName: 'Matrix',
            lastName: 'Edited',
            email: 'matrix@example.com',
            phone: '01632960999',
          },
        },
        owner: 200,
      },
      {
        name: 'select address',
        method: 'POST',
        url: '/customer/update-contact',
        body: { section: 'shipping', id: o.address.id },
        owner: 200,
      },
      {
        name: 'delete contact',
        method: 'POST',
        url: '/customer/update-contact',
        body: { type: 'delete', section: 'contact', data: [{ id: o.contact.id, delete: true }] },
        owner: 200,
      },
    ]
    const visitors: Record<Who, Visitor> = {
      guest: await new Visitor(t.app).start(),
      other: await login(OTHER),
      owner: await login(DEMO),
    }
    const seen: string[] = []
    for (const route of routes) {
      // The owner goes last: some calls delete what they name.
      for (const who of ['guest', 'other', 'owner'] as const) {
        const res = await visitors[who].request(route.method, route.url, route.body)
        const expected = who === 'owner' ? route.owner : who === 'other' ? 404 : route.page ? 302 : 401
        seen.push(`${route.name} ${who} ${res.statusCode}`)
        expect(`${route.name} ${who} ${res.statusCode}`).toBe(`${route.name} ${who} ${expected}`)
        if (who === 'guest' && route.page) expect(res.headers.location).toBe('/login')
      }
    }
    expect(seen).toHaveLength(routes.length * 3)
    // What the other customer and the guest tried changed nothing; the owner's calls took effect.
    const left = await t.app.db.select().from(carts).where(eq(carts.id, restock.id))
    expect(left).toHaveLength(0)
    const [renamed] = await t.app.db.select().from(carts).where(eq(carts.id, refit.id))
    expect(renamed!.basketName).toBe('Renamed')
  })
})

describe('account pages', () => {
  const pages = [
    ['/customer', 'Customer/MyAccount'],
    ['/customer/orders', 'Customer/Orders'],
    ['/customer/invoices', 'Customer/Invoices'],
    ['/customer/carts', 'Customer/Carts'],
    ['/customer/update', 'Customer/EditYourDetails'],
    ['/customer/password/change', 'Customer/ChangeYourPassword'],
    ['/customer/marketing-preferences', 'Customer/MarketingPreferences'],
  ] as const

  it('render for the customer with a greeting, private no-store caching and history encryption', async () => {
    const v = await login(DEMO)
    for (const [url, component] of pages) {
      const res = await v.visit(url)
      expect(res.statusCode, url).toBe(200)
      expect(res.headers['cache-control']).toBe('private, no-store')
      const page = res.json()
      expect(page.component).toBe(component)
      expect(page.props.greeting).toBe('Hello, Dana')
      expect(page.encryptHistory).toBe(true)
    }
  })

  it('send a guest to /login and back to the page after logging in', async () => {
    const v = await new Visitor(t.app).start()
    const res = await v.visit('/customer/invoices')
    expect(res.statusCode).toBe(302)
    expect(res.headers.location).toBe('/login')
    const after = await v.post('/login', { ...DEMO, remember: '' })
    expect(after.headers.location).toBe('/customer/invoices')
  })

  it('send a customer who has not verified the e-mail to the verification notice; calls answer 403', async () => {
    const v = await login(UNVERIFIED)
    const res = await v.visit('/customer')
    expect(res.headers.location).toBe('/email/verify')
    const call = await v.post('/customer/marketing-update', {
      preferences: [{ name: 'email', status: true }],
    })
    expect(call.statusCode).toBe(403)
    expect(await t.app.db.select().from(marketingConsents)).toHaveLength(0)
  })
})

describe('orders and reorder', () => {
  it('lists orders newest first with the maginus_status wording word for word', async () => {
    const v = await login(DEMO)
    const list = (await v.visit('/customer/orders')).json().props.orders as OrderSummary[]
    const dates = list.map((o) => o.orderDate)
    expect([...dates].sort().reverse()).toEqual(dates)
    const words = Object.fromEntries(list.map((o) => [String(o.maginus_status), o.statusText]))
    expect(words).toMatchObject({
      null: 'BEING PROCESSED',
      '1': "ORDER HELD (we're checking a few things)",
      '2': 'COMPLETED/SHIPPED',
      '3': 'ORDER CANCELLED/REJECTED (check email)',
    })
  })

  it('shows the missing product as unavailable and an unpublished one with a link to its category', async () => {
    const db = t.app.db
    const [withMissing] = await db
      .select({ orderId: orderItems.orderId })
      .from(orderItems)
      .where(eq(orderItems.sku, 'DISC-0001'))
    const [order] = await db.select().from(orders).where(eq(orders.id, withMissing!.orderId))
    const lines = await db
      .select()
      .from(orderItems)
      .where(eq(orderItems.orderId, order!.id))
      .orderBy(asc(orderItems.id))
    const published = lines.find((l) => l.product.id !== MISSING_PRODUCT_ID)!
    await db.update(products).set({ published: false }).where(eq(products.id, published.product.id))
    try {
      const v = await login(DEMO)
      const detail = (await v.visit(`/customer/orders/${order!.orderNumber}`)).json().props
        .order as AccountOrder
      const byId = new Map(detail.lines.map((l) => [l.id, l]))
      expect(byId.get(published.id)).toMatchObject({ reorder: 'unpublished' })
      expect(byId.get(published.id)!.url).toMatch(/^\//)
      expect(byId.get(lines.find((l) => l.sku === 'DISC-0001')!.id)).toMatchObject({
        reorder: 'missing',
        url: null,
      })
      const refused = await v.post(`/customer/orders/${order!.orderNumber}/reorder`, {
        items: [{ id: published.id, quantity: 1 }],
      })
      expect(refused.statusCode).toBe(422)
      expect(refused.json().message).toBe('Currently Unavailable For ReOrder')
    } finally {
      await db.update(products).set({ published: true }).where(eq(products.id, published.product.id))
    }
  })

  it('reorders a whole order into a new basket at today’s prices, skipping what cannot be reordered', async () => {
    const v = await login(DEMO)
    await v.post('/cart/add', {
      items: [{ listing_id: (await t.app.db.select().from(products).limit(1))[0]!.id, quantity: 1 }],
    })
    const db = t.app.db
    const [missing] = await db
      .select({ orderId: orderItems.orderId })
      .from(orderItems)
      .where(eq(orderItems.sku, 'DISC-0001'))
    const [order] = await db.select().from(orders).where(eq(orders.id, missing!.orderId))
    const [line] = await db
      .select()
      .from(orderItems)
      .where(and(eq(orderItems.orderId, order!.id), ne(orderItems.sku, 'DISC-0001')))
    await db
      .update(products)
      .set({ priceList: [{ name: '1-9999', price: 4321 }] as never })
      .where(eq(products.id, line!.product.id))
    const res = await v.post(`/customer/orders/${order!.orderNumber}/reorder`, {})
    expect(res.statusCode).toBe(200)
    const cart = res.json().cart as {
      items: { product: { sku: string }; unit_price: number; quantity: number }[]
    }
    expect(cart.items.map((i) => i.product.sku)).not.toContain('DISC-0001')
    expect(cart.items.find((i) => i.product.sku === line!.sku)!.unit_price).toBe(4321)
    expect(cart.items).toHaveLength(2)
    // The basket before is kept and offered back on the Cart page.
    const page = (await v.visit('/cart')).json()
    expect(page.props.restorePrevious).toBe('/cart/previous/restore')
  })

  it('sends the header’s hidden Buy Again link (/orders) to the order history', async () => {
    const v = await login(DEMO)
    const res = await v.visit('/orders')
    expect(res.statusCode).toBe(302)
    expect(res.headers.location).toBe('/customer/orders')
  })

  it('adds one line with the chosen quantity and refuses a quantity under 1 with nothing changed', async () => {
    const v = await login(DEMO)
    const [order] = (await demoOrders()).slice(-1)
    const [line] = await t.app.db.select().from(orderItems).where(eq(orderItems.orderId, order!.id))
    const zero = await v.post(`/customer/orders/${order!.orderNumber}/reorder`, {
      items: [{ id: line!.id, quantity: 0 }],
    })
    expect(zero.statusCode).toBe(422)
    expect(zero.json().errors['items.0.quantity']).toEqual(['The quantity must be at least 1.'])
    const before = (await v.post('/cart/init')).json()
    expect(before.items ?? []).toHaveLength(0)
    const ok = await v.post(`/customer/orders/${order!.orderNumber}/reorder`, {
      items: [{ id: line!.id, quantity: 3 }],
    })
    expect(ok.statusCode).toBe(200)
    expect(ok.json().cart.items).toEqual([expect.objectContaining({ quantity: 3 })])
  })
})

describe('invoices', () => {
  it('are made once per placed order by the back office and listed with number, date and amount', async () => {
    const [order] = await demoOrders()
    const first = await createInvoiceFromOrder(t.app.db, order!.orderNumber)
    const again = await createInvoiceFromOrder(t.app.db, order!.orderNumber)
    expect(again).toEqual({ invoiceNumber: first.invoiceNumber, created: false })
    const v = await login(DEMO)
    const page = (await v.visit(`/customer/invoices/${first.invoiceNumber}`)).json()
    expect(page.props.invoice).toMatchObject({
      Invoice_Number: first.invoiceNumber,
      Invoice_Amount: order!.totalIncVat,
      OrderNumber: order!.orderNumber,
    })
    expect(page.props.invoice.lines.length).toBeGreaterThan(0)
    expect(page.props.invoices.map((i: { Invoice_Number: number }) => i.Invoice_Number)).toContain(
      first.invoiceNumber,
    )
  })

  it('makes one invoice however many back-office calls for an order arrive at once', async () => {
    const invoiced = new Set(
      (await t.app.db.select({ orderId: invoices.orderId }).from(invoices)).map((r) => r.orderId),
    )
    // A cancelled order is never invoiced (ADR 0200): an open one that has no invoice yet.
    const order = (await demoOrders()).find((o) => !invoiced.has(o.id) && o.status !== 'cancelled')!
    const results = await Promise.all(
      Array.from({ length: 4 }, () => createInvoiceFromOrder(t.app.db, order.orderNumber)),
    )
    expect(new Set(results.map((r) => r.invoiceNumber)).size).toBe(1)
    expect(results.filter((r) => r.created)).toHaveLength(1)
    expect(await t.app.db.select().from(invoices).where(eq(invoices.orderId, order.id))).toHaveLength(1)
  })

  it('download as a PDF generated on the server', async () => {
    const v = await login(DEMO)
    const [inv] = await t.app.db.select().from(invoices).where(eq(invoices.customerId, demoId))
    const res = await v.request('GET', `/customer/invoices/${inv!.invoiceNumber}/pdf`)
    expect(res.headers['content-type']).toBe('application/pdf')
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="invoice-${inv!.invoiceNumber}.pdf"`,
    )
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-')
    expect(res.headers['cache-control']).toBe('private, no-store')
  })

  it('answer 404 for a number that is not an invoice', async () => {
    const v = await login(DEMO)
    expect((await v.visit('/customer/invoices/abc')).statusCode).toBe(404)
    expect((await v.request('GET', '/customer/invoices/1/pdf')).statusCode).toBe(404)
  })
})

describe('saved baskets', () => {
  it('load a copy into the session basket and keep the saved one', async () => {
    const v = await login(DEMO)
    const list = (await v.visit('/customer/carts')).json().props.baskets as SavedBasket[]
    const basket = list[0]!
    const res = await v.post('/customer/load-cart', { cart: basket.id })
    expect(res.statusCode).toBe(200)
    const cart = res.json()
    expect(cart.id).not.toBe(basket.id)
    expect(cart.cart_total_items).toBe(basket.itemCount)
    expect((await v.post('/cart/init')).json().id).toBe(cart.id)
    expect((await v.visit('/customer/carts')).json().props.baskets).toHaveLength(list.length)
  })

  it('rename with "Cart updated!" and refuse a bad name with nothing changed', async () => {
    const v = await login(DEMO)
    const [basket] = (await v.visit('/customer/carts')).json().props.baskets as SavedBasket[]
    const bad = await v.post('/cart/save', { id: basket!.id, basketName: '' })
    expect(bad.statusCode).toBe(422)
    const [row] = await t.app.db.select().from(carts).where(eq(carts.id, basket!.id))
    expect(row!.basketName).toBe(basket!.basketName)
    const ok = await v.post('/cart/save', { id: basket!.id, basketName: 'Winter kit' })
    expect(ok.json()).toMatchObject({ message: 'Cart updated!', basketName: 'Winter kit' })
  })

  it('refuse a malformed basket id with 422', async () => {
    const v = await login(DEMO)
    const res = await v.post('/customer/load-cart', { cart: 'not-a-basket' })
    expect(res.statusCode).toBe(422)
    expect((await v.post('/customer/destroy-cart', {})).statusCode).toBe(422)
  })
})

describe('details, cards, marketing and password', () => {
  it('refuses to delete the primary contact or address and names the club company Club', async () => {
    const v = await login(DEMO)
    const [primary] = await t.app.db
      .select()
      .from(customerContacts)
      .where(and(eq(customerContacts.customerId, demoId), eq(customerContacts.primary, true)))
    const res = await v.post('/customer/update-contact', {
      type: 'delete',
      section: 'contact',
      data: [{ id: primary!.id, delete: true }],
    })
    expect(res.statusCode).toBe(422)
    expect(res.json().message).toBe('The primary contact cannot be deleted.')
    await t.app.db.update(customers).set({ kind: 'club' }).where(eq(customers.id, demoId))
    try {
      const club = await v.post('/customer/update-contact', {
        section: 'shipping',
        data: { address1: '1 Pitch Lane', town: 'Leeds', postcode: 'LS1 1AA', country: 'GB' },
      })
      expect(club.json().errors['data.company']).toEqual(['Club is required'])
    } finally {
      await t.app.db.update(customers).set({ kind: 'standard' }).where(eq(customers.id, demoId))
    }
  })

  it('removes a saved card with "Card removed successfully"; a bad id is 422', async () => {
    const v = await login(DEMO)
    const [card] = await t.app.db
      .insert(savedCards)
      .values({
        customerId: demoId,
        provider: 'sagepay',
        token: 'tok-x',
        last4Digits: '1111',
        cardType: 'Visa',
      })
      .returning()
    expect((await v.post('/customer/destroy-card', { id: 'x' })).statusCode).toBe(422)
    const res = await v.post('/customer/destroy-card', { id: card!.id })
    expect(res.json().message).toBe('Card removed successfully')
    expect((await v.post('/customer/destroy-card', { id: card!.id })).statusCode).toBe(404)
  })

  it('stores each marketing change with its time and wording, and nothing for an unchanged or bad choice', async () => {
    const v = await login(DEMO)
    const ok = await v.post('/customer/marketing-update', {
      preferences: [
        { name: 'email', status: true },
        { name: 'post', status: false },
      ],
    })
    expect(ok.json().message).toBe('Preferences updated!')
    const rows = await t.app.db
      .select()
      .from(marketingConsents)
      .where(eq(marketingConsents.customerId, demoId))
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ preference: 'email', status: true, source: 'account' })
    expect(rows[0]!.wording).toContain('Offers, new products and safety news by email')
    expect(rows[0]!.createdAt).toBeInstanceOf(Date)
    await v.post('/customer/marketing-update', { preferences: [{ name: 'email', status: true }] })
    const bad = await v.post('/customer/marketing-update', { preferences: [{ name: 'fax', status: true }] })
    expect(bad.statusCode).toBe(422)
    expect(
      await t.app.db.select().from(marketingConsents).where(eq(marketingConsents.customerId, demoId)),
    ).toHaveLength(1)
    const page = (await v.visit('/customer/marketing-preferences')).json()
    expect(page.props.preferences.find((p: { name: string }) => p.name === 'email').status).toBe(true)
  })

  it('changes the password under the shared rule and ends the account’s other sessions', async () => {
    const elsewhere = await login(DEMO)
    const v = await login(DEMO)
    const weak = await v.post('/customer/password/update', {
      current_password: DEMO.password,
      password: 'short',
      password_confirmation: 'short',
    })
    expect(weak.statusCode).toBe(303)
    let page = (await v.visit('/customer/password/change')).json()
    expect(page.props.errors.password).toBe(
      'Password must be at least 10 characters and include a number, letter, and symbol.',
    )
    await v.post('/customer/password/update', {
      current_password: DEMO.password,
      password: 'New-password-2026',
      password_confirmation: 'Other-password-2026',
    })
    page = (await v.visit('/customer/password/change')).json()
    expect(page.props.errors.password_confirmation).toBe('Passwords do not match.')
    await v.post('/customer/password/update', {
      current_password: 'wrong-one-1!',
      password: 'New-password-2026',
      password_confirmation: 'New-password-2026',
    })
    page = (await v.visit('/customer/password/change')).json()
    expect(page.props.errors.current_password).toBe(
      'The provided password does not match your current password.',
    )
    const done = await v.post('/customer/password/update', {
      id: demoId,
      email: DEMO.email,
      current_password: DEMO.password,
      password: 'New-password-2026',
      password_confirmation: 'New-password-2026',
    })
    expect(done.headers.location).toBe('/customer/password/change')
    expect((await v.visit('/customer')).statusCode).toBe(200)
    expect((await elsewhere.visit('/customer')).headers.location).toBe('/login')
    await login({ email: DEMO.email, password: 'New-password-2026' })
    // Put the documented password back for the other tests.
    const [row] = await t.app.db.select().from(customers).where(eq(customers.id, demoId))
    await t.app.db
      .update(customers)
      .set({ passwordHash: await hashPassword(DEMO.password) })
      .where(eq(customers.id, row!.id))
  })
})
