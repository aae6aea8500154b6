/**
 * The back office's catalogue pages over HTTP: finding SKUs on both sites a page at a time, a
 * SKU's price breaks, 'was' price and publication changed through the API's own import (the shop
 * shows the change at once, the audit log records it), bad input and stale edits changing
 * nothing, a viewer refused on the server, and the CSV import with its errors per row.
 */
import { and, desc, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { productGroups, products } from '../../src/server/modules/catalog/catalog.tables.ts'
import { staffAudit } from '../../src/server/modules/staff/staff.tables.ts'
import type { ProductPageProps } from '../../src/shared/product.ts'
import { buildTestApp, inertiaHeaders, type TestApp } from '../helpers/app.ts'
import { createProduct, siteIdFor, type ProductFixture } from '../factories/product.ts'
import { makeStaff, signIn, type StaffBrowser } from './staff.fixture.ts'

let t: TestApp
let viewer: StaffBrowser
let editor: StaffBrowser
let f: ProductFixture

beforeAll(async () => {
  t = await buildTestApp({ trustProxy: true })
  viewer = await signIn(t.app, await makeStaff(t.app, 'viewer'))
  editor = await signIn(t.app, await makeStaff(t.app, 'staff'))
  f = await createProduct(t.app.db, { group: { name: 'Catalogue page test sign' } })
})
afterAll(() => t?.close())

interface SkuPage {
  sku: {
    id: number
    version: string
    priceList: { price: number }[]
    wasPrice: number | null
    published: boolean
    group: { version: string; published: boolean }
  }
  errors: Record<string, string>
  notice: string | null
}

const skuPage = async (b: StaffBrowser, id: number) => {
  const res = await b.visit(`/admin/catalogue/skus/${id}`)
  expect(res.statusCode).toBe(200)
  return res.json().props as SkuPage
}

const stored = async (id: number) => (await t.app.db.select().from(products).where(eq(products.id, id)))[0]!

const auditRows = (action: string) =>
  t.app.db.select().from(staffAudit).where(eq(staffAudit.action, action)).orderBy(desc(staffAudit.id))

const shownPrices = async (url: string) => {
  const res = await t.app.inject({ url, headers: { host: 'localhost', ...inertiaHeaders() } })
  expect(res.statusCode).toBe(200)
  return (res.json().props as ProductPageProps).product.grids[0]!.rows[0]!.options[0]!.prices
}

const grid = [
  { lowerQty: '1', higherQty: '9', price: '14.00' },
  { lowerQty: '10', higherQty: '', price: '12.50' },
]

describe('finding SKUs', () => {
  it('finds a SKU by its code and by its product group’s name, on every site', async () => {
    const sku = f.skus[0]!
    const byCode = await viewer.visit(`/admin/catalogue?q=${encodeURIComponent(sku.sku.toLowerCase())}`)
    expect(byCode.statusCode).toBe(200)
    const rows = byCode.json().props.skus as { id: number; sku: string }[]
    expect(rows.map((r) => r.id)).toContain(sku.id)
    const byGroup = (await viewer.visit('/admin/catalogue?q=catalogue+page+test')).json().props.skus as {
      id: number
    }[]
    expect(byGroup.map((r) => r.id).sort()).toEqual(f.skus.map((s) => s.id).sort())
    const sites = new Set(
      ((await viewer.visit('/admin/catalogue')).json().props.skus as { site: string }[]).map((r) => r.site),
    )
    const other = await siteIdFor(t.app.db, '127.0.0.1')
    const onOther = (await viewer.visit(`/admin/catalogue?site=${other}`)).json().props.skus as {
      site: string
    }[]
    expect(onOther.length).toBeGreaterThan(0)
    expect(sites.size + new Set(onOther.map((r) => r.site)).size).toBeGreaterThanOrEqual(2)
  })

  it('pages with a cursor: the next page starts after the last row, without repeats', async () => {
    const first = (await viewer.visit('/admin/catalogue')).json().props as {
      skus: { id: number }[]
      next: number
    }
    expect(first.next).toBe(first.skus.at(-1)!.id)
    const second = (await viewer.visit(`/admin/catalogue?after=${first.next}`)).json().props.skus as {
      id: number
    }[]
    expect(second.length).toBeGreaterThan(0)
    expect(second[0]!.id).toBeGreaterThan(first.next)
  })

  it('treats % and _ in a search as plain characters', async () => {
    expect((await viewer.visit('/admin/catalogue?q=%25%25%25')).json().props.skus).toEqual([])
  })
})

describe('changing a SKU', () => {
  it('refuses a viewer on the server, even with a valid session and token, and changes nothing', async () => {
    const sku = f.skus[0]!
    const { sku: shown } = await skuPage(viewer, sku.id)
    const res = await viewer.post(`/admin/catalogue/skus/${sku.id}`, {
      intent: 'prices',
      version: shown.version,
      priceList: grid,
      wasPrice: '',
    })
    expect(res.statusCode).toBe(403)
    expect((await stored(sku.id)).priceList).toEqual(sku.priceList)
    expect(await auditRows('catalogue.sku')).toHaveLength(0)
  })

  it('refuses a change without the back office’s CSRF token', async () => {
    const sku = f.skus[0]!
    const res = await editor.post(
      `/admin/catalogue/skus/${sku.id}`,
      { intent: 'publish', version: 'x', published: false },
      { 'x-admin-csrf': '' },
    )
    expect(res.statusCode).toBe(419)
    expect((await stored(sku.id)).published).toBe(true)
  })

  it('saves new price breaks and a was price, which the shop shows at once and the audit log records', async () => {
    const sku = f.skus[0]!
    expect((await shownPrices(f.group.url))[0]).toBe(1000)
    const { sku: shown } = await skuPage(editor, sku.id)
    const res = await editor.post(`/admin/catalogue/skus/${sku.id}`, {
      intent: 'prices',
      version: shown.version,
      priceList: grid,
      wasPrice: '15',
    })
    expect(res.statusCode).toBe(200)
    expect(res.json().props.notice).toBe('The prices were saved. The shop shows them now.')
    const row = await stored(sku.id)
    expect(row.priceList).toEqual([
      { lowerQty: 1, higherQty: 9, price: 1400, name: '1-9' },
      { lowerQty: 10, higherQty: null, price: 1250, name: '10+' },
    ])
    expect(row.wasPrice).toBe(1500)
    expect((await shownPrices(f.group.url))[0]).toBe(1400)
    const [audit] = await auditRows('catalogue.sku')
    expect(audit!.targetId).toBe(`${f.siteId}:${sku.sku}`)
    expect((audit!.before as { priceList: { price: number }[] }).priceList[0]!.price).toBe(1000)
    expect((audit!.after as { wasPrice: number }).wasPrice).toBe(1500)
  })

  it('names each bad field under its field and changes nothing', async () => {
    const sku = f.skus[1]!
    const { sku: shown } = await skuPage(editor, sku.id)
    const before = await stored(sku.id)
    const unreadable = await editor.post(`/admin/catalogue/skus/${sku.id}`, {
      intent: 'prices',
      version: shown.version,
      priceList: [{ lowerQty: 'one', higherQty: '', price: '£12' }],
      wasPrice: 'lots',
    })
    expect(unreadable.statusCode).toBe(422)
    expect(unreadable.json().props.errors).toEqual({
      'priceList.0.lowerQty': 'Enter a whole number.',
      'priceList.0.price': 'Enter an amount like 12.50.',
      wasPrice: 'Enter an amount like 12.50, or leave it empty.',
    })
    // The API's own rule (skuRow): brackets rise.
    const falling = await editor.post(`/admin/catalogue/skus/${sku.id}`, {
      intent: 'prices',
      version: shown.version,
      priceList: [
        { lowerQty: '10', higherQty: '', price: '9' },
        { lowerQty: '1', higherQty: '9', price: '10' },
      ],
      wasPrice: '',
    })
    expect(falling.statusCode).toBe(422)
    expect(falling.json().props.errors.priceList).toBe('Brackets must be in rising lowerQty order.')
    const empty = await editor.post(`/admin/catalogue/skus/${sku.id}`, {
      intent: 'prices',
      version: shown.version,
      priceList: [],
      wasPrice: '',
    })
    expect(empty.statusCode).toBe(422)
    expect(empty.json().props.errors.priceList).toBeDefined()
    expect(await stored(sku.id)).toEqual(before)
  })

  it('refuses a stale edit (the SKU changed since the page was opened) and keeps the other change', async () => {
    const sku = f.skus[1]!
    const { sku: shown } = await skuPage(editor, sku.id)
    const other = await signIn(t.app, await makeStaff(t.app, 'owner'))
    const first = await other.post(`/admin/catalogue/skus/${sku.id}`, {
      intent: 'publish',
      version: shown.version,
      published: false,
    })
    expect(first.statusCode).toBe(200)
    const stale = await editor.post(`/admin/catalogue/skus/${sku.id}`, {
      intent: 'prices',
      version: shown.version,
      priceList: grid,
      wasPrice: '',
    })
    expect(stale.statusCode).toBe(409)
    expect(stale.json().props.errors.form).toMatch(/Someone else changed this/)
    const row = await stored(sku.id)
    expect(row.published).toBe(false)
    expect(row.priceList[0]!.price).toBe(2500)
  })

  it('takes one of two changes sent at once from the same page and refuses the other as stale', async () => {
    const own = await createProduct(t.app.db, { group: { name: 'Concurrent edit sign' } })
    const sku = own.skus[0]!
    const { sku: shown } = await skuPage(editor, sku.id)
    const other = await signIn(t.app, await makeStaff(t.app, 'owner'))
    const audited = async () =>
      (await auditRows('catalogue.sku')).filter((a) => a.targetId === `${own.siteId}:${sku.sku}`).length
    const answers = await Promise.all([
      editor.post(`/admin/catalogue/skus/${sku.id}`, {
        intent: 'prices',
        version: shown.version,
        priceList: grid,
        wasPrice: '',
      }),
      other.post(`/admin/catalogue/skus/${sku.id}`, {
        intent: 'publish',
        version: shown.version,
        published: false,
      }),
    ])
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409])
    const row = await stored(sku.id)
    const pricesWon = answers[0]!.statusCode === 200
    expect(row.published).toBe(pricesWon)
    expect(row.priceList).toEqual(
      pricesWon ? expect.arrayContaining([expect.objectContaining({ price: 1400 })]) : sku.priceList,
    )
    expect(await audited()).toBe(1)
  })

  it('unpublishes a product group (the shop no longer finds it) and publishes it again', async () => {
    const sku = f.skus[0]!
    let page = await skuPage(editor, sku.id)
    const off = await editor.post(`/admin/catalogue/skus/${sku.id}`, {
      intent: 'group',
      version: page.sku.group.version,
      published: false,
    })
    expect(off.statusCode).toBe(200)
    expect(
      (await t.app.db.select().from(productGroups).where(eq(productGroups.id, f.group.id)))[0]!.published,
    ).toBe(false)
    expect((await t.app.inject({ url: f.group.url, headers: { host: 'localhost' } })).statusCode).toBe(404)
    page = await skuPage(editor, sku.id)
    const on = await editor.post(`/admin/catalogue/skus/${sku.id}`, {
      intent: 'group',
      version: page.sku.group.version,
      published: true,
    })
    expect(on.statusCode).toBe(200)
    expect((await t.app.inject({ url: f.group.url, headers: { host: 'localhost' } })).statusCode).toBe(200)
    const [audit] = await auditRows('catalogue.group')
    expect(audit!.after).toEqual({ published: true })
  })
})

describe('importing a CSV', () => {
  it('imports with the API’s rules and reports the counts', async () => {
    const csv = `sku,group,name,price_list,published\n${f.skus[0]!.sku},,,1-9:1100;10+:1000,true\nPAGE-NEW-1,${f.group.url},Imported on the page,1+:700,true\n`
    const res = await editor.post('/admin/catalogue/import', { site: f.siteId, csv })
    expect(res.statusCode).toBe(200)
    expect(res.json().props.result).toEqual({ ok: true, created: 1, updated: 1 })
    expect((await stored(f.skus[0]!.id)).priceList[0]!.price).toBe(1100)
    const [audit] = await auditRows('catalogue.import')
    expect(audit!.after).toMatchObject({ created: 1, updated: 1 })
  })

  it('shows every bad row’s errors and writes nothing', async () => {
    const before = await stored(f.skus[0]!.id)
    const csv = `sku,price_list,qty\n${f.skus[0]!.sku},1-9:900,3\nNOT-THERE,cheap,lots\n`
    const res = await editor.post('/admin/catalogue/import', { site: f.siteId, csv })
    expect(res.statusCode).toBe(422)
    const result = res.json().props.result as { ok: false; errors: { row: number; field: string }[] }
    expect(result.ok).toBe(false)
    expect(result.errors.map((e) => `${e.row}:${e.field}`)).toEqual(
      expect.arrayContaining(['1:qty', '1:price_list']),
    )
    expect(await stored(f.skus[0]!.id)).toEqual(before)
    const none = await editor.post('/admin/catalogue/import', { site: f.siteId, csv: '' })
    expect(none.statusCode).toBe(422)
    expect(none.json().props.errors.csv).toBe('Choose a CSV file to import.')
  })

  it('refuses a viewer', async () => {
    const res = await viewer.post('/admin/catalogue/import', { site: f.siteId, csv: 'sku,qty\nX,1\n' })
    expect(res.statusCode).toBe(403)
    expect(
      await t.app.db
        .select()
        .from(products)
        .where(and(eq(products.sku, 'X'), eq(products.siteId, f.siteId))),
    ).toHaveLength(0)
  })
})
