/**
 * The order search's rules at scale (ADR 0284): postcodes by district and sector, and prefix and
 * name searches that find the same orders whether they read their matches from their own index
 * or walk the list's date order (the way taken when matches are many).
 */
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listOrders, type OrderListPage } from '../../src/server/modules/staff/order-search.ts'
import { orderListQuerySchema } from '../../src/shared/staff.ts'
import { buildTestApp, type TestApp } from '../helpers/app.ts'
import { makeStaff, signIn, type StaffBrowser } from './staff.fixture.ts'

let t: TestApp
let viewer: StaffBrowser

/** Copies of the newest demo order, a minute apart, with these postcodes, e-mails and names. */
async function copies(n: number, postcode: string, email: string, last: string, po: string) {
  await t.app.db.execute(sql`
    insert into orders (site_id, cart_ref, status, currency, payment_method, po_number, contact,
      shipping_address, billing_address, goods_net, shipping_net, shipping_vat, vat, discount,
      total_inc_vat, order_date)
    select site_id, gen_random_uuid(), case when g % 2 = 0 then 'placed' else 'payment_failed' end,
      currency, payment_method, ${po}::text || g,
      contact || jsonb_build_object('email', ${email}::text || g || '@example.com', 'last_name', ${last}::text),
      shipping_address || jsonb_build_object('postcode', ${postcode}::text), billing_address, goods_net,
      shipping_net, shipping_vat, vat, discount, total_inc_vat,
      now() - (g * interval '1 minute') - ${`${n} minutes`}::interval
    from orders, generate_series(1, ${n}) as g
    where id = (select max(id) from orders)`)
}

beforeAll(async () => {
  t = await buildTestApp({ trustProxy: true })
  viewer = await signIn(t.app, await makeStaff(t.app, 'viewer'))
  await copies(3, 'BS10 1AA', 'tenth.buyer', 'Tenthwick', 'TEN-')
  await copies(2, 'SW1A 2BB', 'sector.two', 'Sectorson', 'SEC-')
  await copies(70, 'sw1a 1aa', 'bulk.buyer', 'Bulkington', 'BULK-')
})
afterAll(() => t?.close())

const visit = async (query: string) => {
  const res = await viewer.visit(`/admin/orders${query}`)
  expect(res.statusCode).toBe(200)
  return res.json().props as {
    orders: { number: number; postcode: string }[]
    errors: Record<string, string>
  }
}
const postcodes = async (q: string) =>
  new Set((await visit(`?q=${encodeURIComponent(q)}`)).orders.map((r) => r.postcode.toUpperCase()))

describe('a postcode search', () => {
  it('finds a district by its outward code, not the districts whose codes start with it', async () => {
    expect([...(await postcodes('BS1'))]).not.toContain('BS10 1AA')
    expect(await postcodes('BS10')).toEqual(new Set(['BS10 1AA']))
    expect(await postcodes('bs10 1aa')).toEqual(new Set(['BS10 1AA']))
  })

  it('narrows an outward code to a sector when the start of the inward code follows', async () => {
    expect(await postcodes('SW1A 2')).toEqual(new Set(['SW1A 2BB']))
    expect(await postcodes('SW1A')).toEqual(new Set(['SW1A 2BB', 'SW1A 1AA']))
  })
})

describe('a prefix or name search', () => {
  /** Both pages of a search, its matches read from their index (default) or by the date walk (1). */
  async function pages(input: Record<string, string>, candidates?: number) {
    const seen: OrderListPage['rows'][] = []
    let after: string | undefined
    do {
      const q = orderListQuerySchema.parse(after ? { ...input, after } : input)
      const page = await listOrders(t.app.db, q, { candidates })
      seen.push(page.rows)
      after = page.next ?? undefined
    } while (after)
    return seen.map((rows) => rows.map((r) => r.number))
  }

  it('lists the same orders, in the same pages, whichever way it finds them', async () => {
    for (const input of <Record<string, string>[]>[
      { q: 'bulk.buy', kind: 'email' },
      { q: 'lkingt', kind: 'name' },
      { q: 'BULK-', kind: 'po' },
      { q: 'bulk', kind: 'email', status: 'payment_failed' },
    ]) {
      const fromIndex = await pages(input)
      expect(fromIndex.flat().length, input.q).toBeGreaterThan(0)
      expect(await pages(input, 1), input.q).toEqual(fromIndex)
    }
    const all = await pages({ q: 'bulk.buyer', kind: 'email' })
    expect(all.map((p) => p.length)).toEqual([50, 20])
  })

  it('finds nothing, without an error, when nothing matches', async () => {
    expect(await pages({ q: 'nobody.here', kind: 'email' })).toEqual([[]])
    expect(await pages({ q: 'nobody.here', kind: 'email' }, 1)).toEqual([[]])
  })

  it('asks for at least 3 letters of a name and lists nothing meanwhile', async () => {
    const short = await visit('?q=bu&kind=name')
    expect(short.errors.q).toBe('Please enter at least 3 letters of the name.')
    expect(short.orders).toEqual([])
  })
})
