/**
 * The customers feed of the back-office API (ADR 0220): pages in change order that never miss or
 * repeat a customer, a customer again after a change to it or its addresses, another site's
 * customers never, and (on PostgreSQL) a change whose transaction commits late still delivered.
 */
import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { customers } from '../../src/server/db/schema.ts'
import { AdminTokens } from '../../src/server/modules/admin/admin.tokens.ts'
import { buildTestApp, type TestApp } from '../helpers/app.ts'
import { settled } from '../helpers/feed.ts'
import { siteIdFor } from '../factories/product.ts'

let t: TestApp
let token: string
let siteId: number
let otherSiteId: number
beforeAll(async () => {
  t = await buildTestApp()
  ;({ token } = await new AdminTokens(t.app.db).create('localhost', 'feed'))
  siteId = await siteIdFor(t.app.db)
  otherSiteId = await siteIdFor(t.app.db, '127.0.0.1')
})
afterAll(async () => {
  await t?.close()
})

type Customer = { id: number; email: string; firstName: string; addresses: { town: string }[] }
type Page = { customers: Customer[]; next_cursor: string | null; has_more: boolean }

const feed = async (query: string) => {
  const res = await t.app.inject({
    url: `/api/admin/v1/customers${query}`,
    headers: { host: 'localhost', authorization: `Bearer ${token}` },
  })
  return res
}

/**
 * Every page from `after` on; returns the customers in order and the last cursor. It first waits
 * for the feed's horizon to pass the test's writes (`settled`), unless a transaction the test
 * holds open on purpose keeps it back.
 */
async function readAll(after: string | null, limit = 3, settle = true) {
  if (settle) await settled(t.app.db)
  const seen: Customer[] = []
  let cursor = after
  for (let i = 0; i < 1000; i++) {
    const res = await feed(`?limit=${limit}${cursor ? `&after=${cursor}` : ''}`)
    expect(res.statusCode, res.body).toBe(200)
    const page = res.json() as Page
    seen.push(...page.customers)
    cursor = page.next_cursor
    if (!page.has_more) break
  }
  return { seen, cursor }
}

let n = 0
async function addCustomer(site = siteId, firstName = 'Feed') {
  n++
  const [row] = await t.app.db
    .insert(customers)
    .values({ siteId: site, email: `feed${n}-${site}@example.com`, firstName, lastName: 'Reader' })
    .returning({ id: customers.id })
  return row!.id
}

describe('the customers feed', () => {
  it("serves every customer of the token's site once, in pages, and none of another site", async () => {
    const mine = [await addCustomer(), await addCustomer(), await addCustomer(), await addCustomer()]
    const theirs = await addCustomer(otherSiteId)
    const { seen, cursor } = await readAll(null)
    const ids = seen.map((c) => c.id)
    expect(new Set(ids).size).toBe(ids.length)
    expect(ids).toEqual(expect.arrayContaining(mine))
    expect(ids).not.toContain(theirs)
    const [{ count }] = (await t.app.db
      .select({ count: sql<number>`count(*)::int` })
      .from(customers)
      .where(eq(customers.siteId, siteId))) as [{ count: number }]
    expect(ids).toHaveLength(count)

    // Nothing new: the same cursor again, and no customer twice.
    const idle = await feed(`?after=${cursor}`)
    expect(idle.json()).toEqual({ customers: [], next_cursor: cursor, has_more: false })
  })

  it('serves a customer again after a change to it or to its addresses, and only the changed ones', async () => {
    const a = await addCustomer()
    const b = await addCustomer()
    const { cursor } = await readAll(null, 200)

    await t.app.db.update(customers).set({ firstName: 'Renamed' }).where(eq(customers.id, a))
    await t.app.customers.addAddress(
      b,
      'shipping',
      {
        company: '',
        address1: '1 Quay',
        address2: '',
        town: 'Harbourtown',
        county: '',
        postcode: 'AB1 2CD',
        country: 'GB',
      },
      true,
    )
    const { seen } = await readAll(cursor)
    expect(seen.map((c) => c.id)).toEqual([a, b])
    expect(seen[0]!.firstName).toBe('Renamed')
    expect(seen[1]!.addresses.map((x) => x.town)).toEqual(['Harbourtown'])
  })

  it('refuses a cursor it did not give and a limit above 200 (422), naming the parameter', async () => {
    for (const [query, field] of [
      ['?after=not-a-cursor', 'after'],
      [`?after=${Buffer.from('1.x').toString('base64url')}`, 'after'],
      ['?limit=201', 'limit'],
      ['?limit=0', 'limit'],
      ['?limit=ten', 'limit'],
    ] as const) {
      const res = await feed(query)
      expect(res.statusCode, query).toBe(422)
      expect(res.json().errors).toContainEqual(expect.objectContaining({ field }))
    }
  })

  it('needs a token of this site', async () => {
    const res = await t.app.inject({ url: '/api/admin/v1/customers', headers: { host: 'localhost' } })
    expect(res.statusCode).toBe(401)
    const { token: other } = await new AdminTokens(t.app.db).create('127.0.0.1', 'other')
    const cross = await t.app.inject({
      url: '/api/admin/v1/customers',
      headers: { host: 'localhost', authorization: `Bearer ${other}` },
    })
    expect(cross.statusCode).toBe(403)
  })
})

function deferred() {
  let resolve!: () => void
  const promise = new Promise<void>((r) => (resolve = r))
  return { promise, resolve }
}

describe.skipIf(!process.env.DATABASE_URL)('the customers feed on PostgreSQL', () => {
  it('delivers a change whose transaction took its sequence number first but commits last', async () => {
    const x = await addCustomer()
    const y = await addCustomer()
    const z = await addCustomer()
    const { cursor } = await readAll(null, 200)

    const aUpdated = deferred()
    const releaseA = deferred()
    const bHasXid = deferred()
    const bUpdated = deferred()
    // B holds an older transaction id than A, yet takes its change number after A's and commits
    // first: ordering by the change number alone would serve B and then skip A for ever.
    const b = t.app.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_current_xact_id()`)
      bHasXid.resolve()
      await aUpdated.promise
      await tx.update(customers).set({ firstName: 'B' }).where(eq(customers.id, y))
      bUpdated.resolve()
    })
    const a = t.app.db.transaction(async (tx) => {
      await bHasXid.promise
      await tx.update(customers).set({ firstName: 'A' }).where(eq(customers.id, x))
      aUpdated.resolve()
      await releaseA.promise
    })
    await bUpdated.promise
    await b
    // C: an ordinary change committed while A still runs.
    await t.app.db.update(customers).set({ firstName: 'C' }).where(eq(customers.id, z))

    const during = await readAll(cursor, 3, false)
    expect(during.seen.map((c) => c.id)).not.toContain(x)
    releaseA.resolve()
    await a
    const after = await readAll(during.cursor)
    const delivered = [...during.seen, ...after.seen].map((c) => c.id)
    expect(delivered.sort()).toEqual([x, y, z].sort())
    expect(after.seen.map((c) => c.id)).toContain(x)
  })
})
