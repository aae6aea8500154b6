/** The back office's order list (filters, search, keyset pages) and the read-only order page. */
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { orders } from '../../src/server/modules/orders/orders.tables.ts'
import { buildTestApp, type TestApp } from '../helpers/app.ts'
import { makeStaff, signIn, type StaffBrowser } from './staff.fixture.ts'

let t: TestApp
let viewer: StaffBrowser
/** The demo customer's seeded orders are delivered to this postcode (db/seed/account.ts). */
const DEMO_POSTCODE = 'BS1 4DJ'

beforeAll(async () => {
  t = await buildTestApp({ trustProxy: true })
  viewer = await signIn(t.app, await makeStaff(t.app, 'viewer'))
})
afterAll(() => t?.close())

interface Row {
  number: number
  date: string
  postcode: string
  email: string
  status: string
  poNumber: string | null
  customer: string
}
const list = async (query: string) => {
  const res = await viewer.visit(`/admin/orders${query}`)
  expect(res.statusCode).toBe(200)
  return res.json().props as { orders: Row[]; next: string | null; errors: Record<string, string> }
}

describe('the order list', () => {
  it('lists the orders of every site newest first', async () => {
    const { orders: rows } = await list('')
    expect(rows.length).toBeGreaterThan(0)
    const dates = rows.map((r) => r.date)
    expect([...dates].sort().reverse()).toEqual(dates)
  })

  it('finds orders by the delivery postcode, with or without its space and in any case', async () => {
    for (const q of [DEMO_POSTCODE, 'bs14dj', 'BS1']) {
      const { orders: rows } = await list(`?q=${encodeURIComponent(q)}`)
      expect(rows.length, q).toBeGreaterThan(0)
      for (const r of rows) expect(r.postcode.replace(/\s/g, '').toUpperCase()).toMatch(/^BS1/)
    }
  })

  it('finds an order by its number, its e-mail and its customer’s name', async () => {
    const { orders: all } = await list('')
    const one = all[0]!
    expect((await list(`?q=${one.number}`)).orders.map((r) => r.number)).toEqual([one.number])
    const byEmail = (await list(`?q=${encodeURIComponent(one.email.toUpperCase())}`)).orders
    expect(byEmail.every((r) => r.email.toLowerCase() === one.email.toLowerCase())).toBe(true)
    const last = one.customer.split(' ').at(-1)!
    const byName = (await list(`?q=${encodeURIComponent(last.toLowerCase())}&kind=name`)).orders
    expect(byName.length).toBeGreaterThan(0)
    expect(byName.every((r) => r.customer.toLowerCase().includes(last.toLowerCase()))).toBe(true)
  })

  it('treats % and _ in a search as plain characters', async () => {
    expect((await list('?q=%25&kind=email')).orders).toEqual([])
    expect((await list('?q=_&kind=po')).orders).toEqual([])
  })

  it('filters by status, and names a bad date instead of listing', async () => {
    const placed = (await list('?status=placed')).orders
    expect(placed.every((r) => r.status === 'placed')).toBe(true)
    const bad = await list('?from=2026-13-45')
    expect(bad.orders).toEqual([])
    expect(bad.errors.from).toBe('Please enter a real date.')
    const backwards = await list('?from=2026-02-01&to=2026-01-01')
    expect(backwards.errors.to).toBe('The start date must be on or before the end date.')
  })

  it('lists orders awaiting payment for over an hour as needing attention', async () => {
    const [stuck] = await t.app.db
      .update(orders)
      .set({ status: 'pending_payment', orderDate: sql`now() - interval '2 hours'` })
      .where(sql`${orders.id} = (select min(id) from orders)`)
      .returning({ number: orders.orderNumber })
    const rows = (await list('?attention=1')).orders
    expect(rows.map((r) => r.number)).toContain(stuck!.number)
    expect(rows.every((r) => r.status === 'pending_payment')).toBe(true)
  })

  it('pages with a cursor: the next page starts after the last row and repeats none', async () => {
    // Enough orders for two pages: copies of a demo order, a minute apart.
    await t.app.db.execute(sql`
      insert into orders (site_id, cart_ref, status, currency, payment_method, contact, shipping_address,
        billing_address, goods_net, shipping_net, shipping_vat, vat, discount, total_inc_vat, order_date)
      select site_id, gen_random_uuid(), status, currency, payment_method, contact, shipping_address,
        billing_address, goods_net, shipping_net, shipping_vat, vat, discount, total_inc_vat,
        now() - (g * interval '1 minute')
      from orders, generate_series(1, 60) as g
      where id = (select max(id) from orders)`)
    const first = await list('')
    expect(first.orders).toHaveLength(50)
    expect(first.next).toMatch(/^\d+\.\d+$/)
    const second = await list(`?after=${first.next}`)
    const seen = new Set(first.orders.map((r) => r.number))
    expect(second.orders.some((r) => seen.has(r.number))).toBe(false)
    expect(second.orders[0]!.date <= first.orders.at(-1)!.date).toBe(true)
  })
})

describe('the order page', () => {
  it('shows the lines, totals, addresses and e-mails of an order, read only', async () => {
    // A seeded demo order (the copies made above have no lines).
    const [seeded] = await t.app.db
      .select({ number: orders.orderNumber })
      .from(orders)
      .where(sql`exists (select 1 from order_items i where i.order_id = ${orders.id})`)
      .limit(1)
    const res = await viewer.visit(`/admin/orders/${seeded!.number}`)
    const { order } = res.json().props
    expect(res.json().component).toBe('admin/Order')
    expect(order.number).toBe(seeded!.number)
    expect(order.lines.length).toBeGreaterThan(0)
    expect(order.shippingAddress.postcode).toBe(DEMO_POSTCODE)
    expect(order.totals.total).toBe(order.totals.goodsNet + order.totals.shippingNet + order.totals.vat)
    expect(Array.isArray(order.mails)).toBe(true)
    expect(Array.isArray(order.attempts)).toBe(true)
  })

  it('answers an unknown or malformed order number with a 404 page', async () => {
    expect((await viewer.visit('/admin/orders/999999999')).statusCode).toBe(404)
    expect((await viewer.visit('/admin/orders/abc')).statusCode).toBe(404)
  })
})
