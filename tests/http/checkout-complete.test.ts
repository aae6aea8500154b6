import { solveChallenge } from 'altcha-lib/v1'
import { and, eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  carts,
  customerAddresses,
  customerContacts,
  customers,
  mailJobs,
  mailOutbox,
  orderItems,
  orders,
  products,
  productGroups,
  promotionRedemptions,
  promotions,
  promotionUses,
  sites,
} from '../../src/server/db/schema.ts'
import type { Cart } from '../../src/shared/cart.ts'
import { orderTotal, type OrderData } from '../../src/shared/checkout.ts'
import type { CustomerData } from '../../src/shared/customer.ts'
import { buildTestApp, type TestApp } from '../helpers/app.ts'
import { Visitor } from '../helpers/visitor.ts'
import { brackets, insertCategory, insertGroup, insertSku, siteIdFor } from '../factories/product.ts'

const DEMO = { email: 'demo@harbour-safety.example', password: 'Harbour-demo-2026' }

let t: TestApp
let siteId: number
let categoryId: number
let groupId: number
let skuId: number
let n = 0

beforeAll(async () => {
  t = await buildTestApp()
  siteId = await siteIdFor(t.app.db)
  categoryId = (await insertCategory(t.app.db, { siteId })).id
  groupId = (await insertGroup(t.app.db, { siteId, categoryId })).id
  skuId = (await insertSku(t.app.db, { siteId, groupId })).id
})
afterAll(() => t?.close())

async function shopper(quantity = 3, sku = skuId, host = 'localhost') {
  const v = await new Visitor(t.app, host).start()
  const res = await v.post('/cart/add', { items: [{ listing_id: sku, quantity, category_id: categoryId }] })
  expect(res.statusCode).toBe(200)
  return { v, cart: res.json() as Cart }
}

const contact = (email = `guest${++n}@example.com`) => ({
  firstName: 'Gina',
  lastName: 'Guest',
  email,
  phone: '01632 960 901',
  company: 'Guest Ltd',
})
const shipping = {
  company: 'Guest Ltd',
  address1: '5 Harbour Way',
  address2: '',
  town: 'Plymouth',
  county: 'Devon',
  postcode: 'PL1 2AA',
  country: 'GB',
}

function form(cart: Cart, extra: Record<string, unknown> = {}) {
  return {
    cart_id: cart.id,
    payment_method: 'purchase_order',
    contact: contact(),
    shipping_address: shipping,
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
    Notes: 'Leave at reception',
    ...extra,
  }
}

async function counts() {
  const [o] = await t.app.db.select({ n: sql<number>`count(*)::int` }).from(orders)
  const [c] = await t.app.db.select({ n: sql<number>`count(*)::int` }).from(customers)
  const [j] = await t.app.db.select({ n: sql<number>`count(*)::int` }).from(mailJobs)
  return { orders: o!.n, customers: c!.n, jobs: j!.n }
}

describe('POST /checkout/complete with a purchase order, as a guest', () => {
  it('places the order once: re-priced total, PO number from the names, lines with VAT, basket forgotten', async () => {
    const { v, cart } = await shopper(3)
    // Shown twice before the order: this instance keeps the Cart page's read (ADR 0115).
    await v.post('/cart/init')
    expect(((await v.post('/cart/init')).json() as Cart).items).toHaveLength(1)
    const email = `placer${++n}@example.com`
    const res = await v.post('/checkout/complete', form(cart, { contact: contact(email) }))
    expect(res.statusCode).toBe(200)
    const body = res.json() as { order: OrderData; redirect: string; force_logout: boolean }
    const order = body.order
    expect(body.force_logout).toBe(true)
    expect(body.redirect).toBe(`/checkout/complete/${order.OrderNumber}`)
    expect(order.OrderNumber).toBeGreaterThanOrEqual(100001)
    expect(order).toMatchObject({
      OrderSource: 'Desktop',
      maginus_status: null,
      status: 'placed',
      Notes: 'Leave at reception',
      contactDetails: { first_name: 'Gina', last_name: 'Guest', email, phone: '01632 960 901' },
      shippingAddress: { address1: '5 Harbour Way', country: 'GB' },
      billingAddress: { address1: '5 Harbour Way' },
    })
    expect(order.transactions).toEqual([
      {
        paymentProvider: 'purchase_order',
        paymentDetails: { PONumber: 'Gina Guest' },
        amount: cart.cart_total_price_inc_tax,
        message: '',
        authCode: 'empty',
      },
    ])
    // What is shown as the order total is what was charged, and each line carries the engine's VAT.
    expect(orderTotal(order)).toBe(order.transactions[0]!.amount)
    expect(order.totalCost).toBe(cart.cart_total_price - cart.cart_total_shipping)
    expect(order.items).toHaveLength(1)
    expect(order.items[0]).toMatchObject({ quantity: 3, line_total: 3000, line_vat: 600 })

    // The basket is frozen and forgotten; the visitor is not logged in.
    const after = (await v.post('/cart/init')).json() as Cart
    expect(after.items).toHaveLength(0)
    // Nor does the read kept before the order show it to anyone holding its id.
    const site = (await t.app.sites.forHost('localhost'))!
    const kept = await t.app.carts.show({ site, cartId: String(cart.id), baseUrl: 'http://localhost' })
    expect(kept.items).toHaveLength(0)
    const [row] = await t.app.db
      .select()
      .from(carts)
      .where(eq(carts.id, String(cart.id)))
    expect(row!.kind).toBe('ordered')
    expect((await v.visit('/')).json().props.auth.customer).toBeNull()

    // A guest customer without a password, its details as the primary entries.
    const [guest] = await t.app.db.select().from(customers).where(eq(customers.email, email))
    expect(guest!.passwordHash).toBeNull()
    const [dbOrder] = await t.app.db.select().from(orders).where(eq(orders.id, order.id))
    expect(dbOrder!.customerId).toBe(guest!.id)
    const book = await t.app.customers.data(guest!.id)
    expect(book!.primaryContact).toMatchObject({ email, phone: '01632 960 901' })
    expect(book!.shippingAddress).toMatchObject({ postcode: 'PL1 2AA' })

    // The acknowledgement and the notification are queued in the same transaction, then sent.
    const jobs = await t.app.db
      .select()
      .from(mailJobs)
      .where(sql`${mailJobs.dedupeKey} like ${`order:${order.id}:%`}`)
    expect(jobs.map((j) => j.dedupeKey).sort()).toEqual([
      `order:${order.id}:acknowledgement`,
      `order:${order.id}:notification`,
    ])
    await t.app.mailQueue.kick()
    const sent = await t.app.db
      .select()
      .from(mailOutbox)
      .where(sql`${mailOutbox.to} @> ${JSON.stringify([email])}::jsonb`)
    expect(sent).toHaveLength(1)
    expect(sent[0]!.subject).toContain(String(order.OrderNumber))
    expect(sent[0]!.text).toContain('Purchase order number: Gina Guest')
  })

  it('answers a second submit of the same basket (another tab) with the same order and writes nothing', async () => {
    const { v, cart } = await shopper(2)
    const first = await v.post('/checkout/complete', form(cart))
    expect(first.statusCode).toBe(200)
    const before = await counts()
    const second = await v.post('/checkout/complete', form(cart, { Notes: 'different' }))
    expect(second.statusCode).toBe(200)
    expect(second.json().order.OrderNumber).toBe(first.json().order.OrderNumber)
    expect(await counts()).toEqual(before)
  })

  it('keeps an entered PO number and a separate billing address', async () => {
    const { v, cart } = await shopper(3)
    const res = await v.post(
      '/checkout/complete',
      form(cart, {
        PONumber: ' PO-7781 ',
        showingBillingAddress: true,
        billing_address: { address1: '1 Accounts Road', town: 'Exeter', postcode: 'EX1 1AA', country: '' },
      }),
    )
    expect(res.statusCode).toBe(200)
    const order = res.json().order as OrderData
    expect(order.transactions[0]!.paymentDetails).toEqual({ PONumber: 'PO-7781' })
    expect(order.billingAddress).toMatchObject({ address1: '1 Accounts Road', town: 'Exeter', country: '' })
  })

  it('links an order to the existing account of its e-mail without logging in or changing that account', async () => {
    const [demo] = await t.app.db.select().from(customers).where(eq(customers.email, DEMO.email))
    const bookBefore = await t.app.customers.data(demo!.id)
    const known = await shopper(3)
    const knownRes = await known.v.post(
      '/checkout/complete',
      form(known.cart, { contact: contact(DEMO.email) }),
    )
    const fresh = await shopper(3)
    const freshRes = await fresh.v.post('/checkout/complete', form(fresh.cart))
    expect(knownRes.statusCode).toBe(freshRes.statusCode)
    // The same answer for a registered and a new e-mail: same keys, same flags.
    const strip = (b: { order: OrderData; force_logout: boolean; redirect: string }) => ({
      keys: Object.keys(b).sort(),
      orderKeys: Object.keys(b.order).sort(),
      force_logout: b.force_logout,
    })
    expect(strip(knownRes.json())).toEqual(strip(freshRes.json()))
    const [linked] = await t.app.db.select().from(orders).where(eq(orders.id, knownRes.json().order.id))
    expect(linked!.customerId).toBe(demo!.id)
    expect(linked!.placedAsGuest).toBe(true)
    expect(await t.app.customers.data(demo!.id)).toEqual(bookBefore)
    expect((await known.v.visit('/')).json().props.auth.customer).toBeNull()
  })

  it('refuses bad input with the §5 messages and writes nothing', async () => {
    const { v, cart } = await shopper(3)
    const before = await counts()
    const res = await v.post(
      '/checkout/complete',
      form(cart, {
        contact: { firstName: '', lastName: 'Guest', email: 'not-an-email', phone: '0163296' },
        shipping_address: { address1: '', town: '', postcode: '', country: '' },
        Notes: 'x'.repeat(36),
      }),
    )
    expect(res.statusCode).toBe(422)
    const errors = res.json().errors as Record<string, string[]>
    expect(errors.Notes).toEqual(['Please enter no more than 35 characters.'])
    const details = await v.post(
      '/checkout/complete',
      form(cart, {
        contact: { firstName: '', lastName: 'Guest', email: 'not-an-email', phone: '0163296' },
        shipping_address: { address1: '', town: 'Plymouth', postcode: 'PL1', country: 'ZZ' },
      }),
    )
    const e = details.json().errors as Record<string, string[]>
    expect(e['contact.firstName']).toEqual(['This field is required.'])
    expect(e['contact.email']).toEqual(['This email provided is invalid.'])
    expect(e['contact.phone']).toEqual(['Please enter at least 10 characters.'])
    expect(e['shipping_address.address1']).toEqual(['This field is required.'])
    expect(e['shipping_address.country']).toEqual(['Please choose a country from the list.'])
    const long = await v.post(
      '/checkout/complete',
      form(cart, { contact: { ...contact(), phone: '01632 960 901 234' } }),
    )
    expect(long.json().errors['contact.phone']).toEqual(['Please enter no more than 16 characters.'])
    const missing = await v.post('/checkout/complete', { ...form(cart), delivery_option: undefined })
    expect(missing.json().errors.delivery_option).toEqual(['This field is required.'])
    expect(await counts()).toEqual(before)
  })

  it('refuses a payment method the site does not offer', async () => {
    const { v, cart } = await shopper(3)
    const res = await v.post('/checkout/complete', form(cart, { payment_method: 'sagepay' }))
    expect(res.statusCode).toBe(422)
    expect(res.json().errors.payment_method).toEqual([
      'This payment method is not available. Please choose another one.',
    ])
  })

  it('sends an empty basket back to /cart', async () => {
    const v = await new Visitor(t.app).start()
    const empty = (await v.post('/cart/init')).json() as Cart
    const res = await v.post('/checkout/complete', {
      ...form({ ...empty, shippingRates: [] }, {}),
      delivery_option: 1,
    })
    expect(res.statusCode).toBe(422)
    expect(res.json()).toMatchObject({ message: 'Your basket is empty.', redirect: '/cart' })
  })

  it('refuses a basket below the minimum order value', async () => {
    const { v, cart } = await shopper(1)
    const res = await v.post('/checkout/complete', form(cart))
    expect(res.statusCode).toBe(422)
    expect(res.json().message).toBe(
      'The minimum order value is £20.00 (excluding VAT). Please add £10.00 more to your basket.',
    )
  })
})

describe('the server re-prices before ordering', () => {
  it('answers 409 with the fresh basket and a warning when a price changed, and orders nothing', async () => {
    const group = await insertGroup(t.app.db, { siteId, categoryId })
    const sku = await insertSku(t.app.db, { siteId, groupId: group.id })
    const { v, cart } = await shopper(3, sku.id)
    await t.app.db
      .update(products)
      .set({ priceList: brackets(1200) })
      .where(eq(products.id, sku.id))
    const before = await counts()
    const res = await v.post('/checkout/complete', form(cart))
    expect(res.statusCode).toBe(409)
    const body = res.json() as { warning: string; cart: Cart }
    expect(body.warning).toBe(
      'The prices in your basket have changed since you started checking out. Nothing has been ordered: please check your basket and place your order again.',
    )
    expect(body.cart.cart_total_price_inc_tax).not.toBe(cart.cart_total_price_inc_tax)
    expect(await counts()).toEqual(before)
    // With the fresh total, it goes through.
    const again = await v.post('/checkout/complete', form(body.cart))
    expect(again.statusCode).toBe(200)
  })

  it('never takes the amount from the browser: a lower amount is refused', async () => {
    const { v, cart } = await shopper(3)
    const res = await v.post('/checkout/complete', {
      ...form(cart),
      transactions: [{ amount: 1, paymentDetails: {}, paymentProvider: 'purchase_order' }],
    })
    expect(res.statusCode).toBe(409)
  })

  it('refuses unpublished lines and lines priced at 0', async () => {
    const group = await insertGroup(t.app.db, { siteId, categoryId })
    const sku = await insertSku(t.app.db, { siteId, groupId: group.id, name: 'Vanishing Sign' })
    const a = await shopper(3, sku.id)
    await t.app.db.update(products).set({ published: false }).where(eq(products.id, sku.id))
    const res = await a.v.post('/checkout/complete', form(a.cart))
    expect(res.statusCode).toBe(422)
    expect(res.json().message).toBe(
      'Vanishing Sign is no longer available. Please remove it from your basket.',
    )

    const group2 = await insertGroup(t.app.db, { siteId, categoryId })
    const sku2 = await insertSku(t.app.db, { siteId, groupId: group2.id, name: 'Free Sample' })
    const b = await shopper(3, sku2.id)
    await t.app.db
      .update(products)
      .set({ priceList: brackets(0) })
      .where(eq(products.id, sku2.id))
    await t.app.db.update(productGroups).set({ published: true }).where(eq(productGroups.id, group2.id))
    const fresh = (await b.v.post('/cart/init')).json() as Cart
    const res2 = await b.v.post('/checkout/complete', form(fresh))
    expect(res2.statusCode).toBe(422)
    expect(res2.json().message).toBe(
      'Free Sample cannot be ordered at the moment. Please remove it from your basket.',
    )
  })

  it('turns a limited code’s use into a redemption that the basket sweep cannot give back', async () => {
    const { v } = await shopper(3)
    const applied = await v.post('/cart/update-cart', { promotionCodes: ['LIMITED15'] })
    const cart = applied.json() as Cart
    expect(cart.cart_total_discount).toBeGreaterThan(0)
    const [promo] = await t.app.db
      .select()
      .from(promotions)
      .where(and(eq(promotions.siteId, siteId), eq(promotions.code, 'LIMITED15')))
    const res = await v.post('/checkout/complete', form(cart))
    expect(res.statusCode).toBe(200)
    const order = res.json().order as OrderData
    expect(order.promotionCodes).toEqual(['LIMITED15'])
    expect(order.totalDiscountCost).toBe(cart.cart_total_discount)
    const redemptions = await t.app.db
      .select()
      .from(promotionRedemptions)
      .where(eq(promotionRedemptions.orderId, order.id))
    expect(redemptions).toHaveLength(1)
    const uses = await t.app.db
      .select()
      .from(promotionUses)
      .where(eq(promotionUses.cartId, String(cart.id)))
    expect(uses).toHaveLength(0)
    await t.app.db
      .update(carts)
      .set({ updatedAt: new Date('2000-01-01') })
      .where(eq(carts.id, String(cart.id)))
    await t.app.carts.sweep(60)
    const [after] = await t.app.db.select().from(promotions).where(eq(promotions.id, promo!.id))
    expect(after!.timesUsed).toBe(promo!.timesUsed)
    const [stillThere] = await t.app.db.select().from(orders).where(eq(orders.id, order.id))
    expect(stillThere).toBeDefined()
  })
})

describe('a logged-in customer', () => {
  async function customerShopper() {
    const { v } = await shopper(3)
    const login = await v.post('/login', { ...DEMO, remember: '', redirect: false })
    expect(login.statusCode).toBe(303)
    const user = (await v.request('GET', '/customer/data')).json().user as CustomerData
    const fresh = (await v.post('/cart/init')).json() as Cart
    return { v, cart: fresh, user }
  }

  it('orders with saved contact and addresses by id, stays logged in, and gets no force_logout', async () => {
    const { v, cart, user } = await customerShopper()
    const res = await v.post(
      '/checkout/complete',
      form(cart, {
        contact: null,
        shipping_address: null,
        customer_contact_id: user.primaryContact!.id,
        customer_shipping_address_id: user.shippingAddress!.id,
        customer_billing_address_id: user.billingAddress!.id,
        showingBillingAddress: true,
      }),
    )
    expect(res.statusCode).toBe(200)
    expect(res.json().force_logout).toBe(false)
    const order = res.json().order as OrderData
    expect(order.contactDetails.email).toBe(DEMO.email)
    expect(order.transactions[0]!.paymentDetails).toEqual({ PONumber: 'Dana Demo' })
    const [row] = await t.app.db.select().from(orders).where(eq(orders.id, order.id))
    expect(row!.customerId).toBe(user.id)
    expect(row!.placedAsGuest).toBe(false)
    expect((await v.visit('/')).json().props.auth.customer).not.toBeNull()
  })

  it('gets a 404 for another customer’s contact or address id, and nothing is ordered', async () => {
    const { v, cart } = await customerShopper()
    const [other] = await t.app.db
      .select()
      .from(customers)
      .where(eq(customers.email, 'twofactor@harbour-safety.example'))
    const [c] = await t.app.db
      .select()
      .from(customerContacts)
      .where(eq(customerContacts.customerId, other!.id))
    const [a] = await t.app.db
      .select()
      .from(customerAddresses)
      .where(eq(customerAddresses.customerId, other!.id))
    const before = await counts()
    const res = await v.post('/checkout/complete', form(cart, { customer_contact_id: c!.id }))
    expect(res.statusCode).toBe(404)
    const res2 = await v.post('/checkout/complete', form(cart, { customer_shipping_address_id: a!.id }))
    expect(res2.statusCode).toBe(404)
    expect(await counts()).toEqual(before)
  })

  it('a guest sending any saved id gets a 404', async () => {
    const { v, cart } = await shopper(3)
    const res = await v.post('/checkout/complete', form(cart, { customer_contact_id: 1 }))
    expect(res.statusCode).toBe(404)
  })
})

describe('the bot check at checkout (setting 1)', () => {
  it('checks a new order’s token, but answers a replay of a placed order without one', async () => {
    await t.app.db
      .update(sites)
      .set({ settings: sql`${sites.settings} || '{"botCheck":"1"}'::jsonb` })
      .where(eq(sites.id, siteId))
    t.app.sites.invalidate()
    try {
      const { v, cart } = await shopper(3)
      const refused = await v.post('/checkout/complete', form(cart))
      expect(refused.statusCode).toBe(422)
      expect(refused.json().errors['g-recaptcha-response']).toBeDefined()
      const c = (await v.request('GET', '/auth/bot-challenge')).json()
      const solution = await solveChallenge(c.challenge, c.salt, c.algorithm, c.maxnumber).promise
      const token = Buffer.from(JSON.stringify({ ...c, number: solution!.number })).toString('base64')
      const placed = await v.post('/checkout/complete', form(cart, { 'g-recaptcha-response': token }))
      expect(placed.statusCode).toBe(200)
      // The retry carries the same, now used, token: recognised as a replay first.
      const retry = await v.post('/checkout/complete', form(cart, { 'g-recaptcha-response': token }))
      expect(retry.statusCode).toBe(200)
      expect(retry.json().order.OrderNumber).toBe(placed.json().order.OrderNumber)
    } finally {
      await t.app.db
        .update(sites)
        .set({ settings: sql`${sites.settings} || '{"botCheck":"0"}'::jsonb` })
        .where(eq(sites.id, siteId))
      t.app.sites.invalidate()
    }
  })
})

describe('order items', () => {
  it('keeps the product as it was ordered', async () => {
    const { v, cart } = await shopper(3)
    const res = await v.post('/checkout/complete', form(cart))
    const [item] = await t.app.db.select().from(orderItems).where(eq(orderItems.orderId, res.json().order.id))
    expect(item!.product).toMatchObject({ id: skuId, status: 'published', category_id: categoryId })
  })
})
