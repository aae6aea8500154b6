import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { adminCalls, productGroups, products } from '../../src/server/db/schema.ts'
import { AdminTokens } from '../../src/server/modules/admin/admin.tokens.ts'
import type { ProductPageProps } from '../../src/shared/product.ts'
import { buildTestApp, inertiaHeaders, type TestApp } from '../helpers/app.ts'
import { createProduct, type ProductFixture } from '../factories/product.ts'

let t: TestApp
let token: string
let tokenId: number
let otherSiteToken: string
let f: ProductFixture
beforeAll(async () => {
  t = await buildTestApp()
  const tokens = new AdminTokens(t.app.db)
  ;({ token, id: tokenId } = await tokens.create('localhost', 'test sync'))
  ;({ token: otherSiteToken } = await tokens.create('127.0.0.1', 'other brand'))
  f = await createProduct(t.app.db)
})
afterAll(async () => {
  await t?.close()
})

const api = (
  method: 'GET' | 'PUT' | 'POST' | 'DELETE',
  path: string,
  payload?: unknown,
  opts: { token?: string | null; host?: string; contentType?: string } = {},
) =>
  t.app.inject({
    method,
    url: `/api/admin/v1${path}`,
    headers: {
      host: opts.host ?? 'localhost',
      ...(opts.token === null ? {} : { authorization: `Bearer ${opts.token ?? token}` }),
      ...(opts.contentType ? { 'content-type': opts.contentType } : {}),
    },
    ...(payload === undefined ? {} : { payload: payload as string }),
  })

const brackets = (p: number) => [
  { lowerQty: 1, higherQty: 9, price: p, name: '1-9' },
  { lowerQty: 10, higherQty: null, price: p - 100, name: '10+' },
]

async function shownPrices(url: string): Promise<(number | null)[]> {
  const res = await t.app.inject({ url, headers: { host: 'localhost', ...inertiaHeaders() } })
  expect(res.statusCode).toBe(200)
  return (res.json().props as ProductPageProps).product.grids[0]!.rows[0]!.options[0]!.prices
}

describe('back-office tokens', () => {
  it('refuses a call without a token, with an unknown token and with a revoked one (401)', async () => {
    const none = await api('POST', '/search/reindex', undefined, { token: null })
    expect(none.statusCode).toBe(401)
    expect(none.json().message).toBe('A back-office token is required (Authorization: Bearer <token>).')
    const wrong = await api('POST', '/search/reindex', undefined, { token: 'shop_adm_not-a-token' })
    expect(wrong.statusCode).toBe(401)
    expect(wrong.json().message).toBe('This token is not valid.')

    const tokens = new AdminTokens(t.app.db)
    const revoked = await tokens.create('localhost', 'leaver')
    expect((await api('POST', '/search/reindex', undefined, { token: revoked.token })).statusCode).toBe(200)
    expect(await tokens.revoke(revoked.id)).toBe(true)
    const after = await api('POST', '/search/reindex', undefined, { token: revoked.token })
    expect(after.statusCode).toBe(401)
    expect(after.json().message).toBe('This token has been revoked.')
  })

  it("refuses a token on another site's host (403) and changes nothing there", async () => {
    const res = await api(
      'PUT',
      '/catalog/skus',
      { items: [{ sku: f.skus[0]!.sku, priceList: brackets(1) }] },
      {
        token: otherSiteToken,
      },
    )
    expect(res.statusCode).toBe(403)
    expect(res.json().message).toBe('This token is for another site.')
    const [row] = await t.app.db.select().from(products).where(eq(products.id, f.skus[0]!.id))
    expect(row!.priceList[0]!.price).toBe(1000)
  })

  it('logs every call with its token, path and status', async () => {
    await api('POST', '/search/reindex')
    await api('POST', '/search/reindex', undefined, { token: 'shop_adm_bad' })
    // The call is logged once the answer has gone (onResponse), so a moment after inject returns.
    const rows = () => t.app.db.select().from(adminCalls)
    await expect.poll(rows, { timeout: 10_000 }).toContainEqual(
      expect.objectContaining({
        tokenId,
        method: 'POST',
        path: '/api/admin/v1/search/reindex',
        status: 200,
      }),
    )
    await expect
      .poll(rows, { timeout: 10_000 })
      .toContainEqual(
        expect.objectContaining({ tokenId: null, path: '/api/admin/v1/search/reindex', status: 401 }),
      )
  })
})

describe('catalogue import', () => {
  it('updates prices by SKU code, creates new SKUs, and the product page shows them at once', async () => {
    expect(await shownPrices(f.group.url)).toEqual([1000, 900, 800])
    const items = [
      { sku: f.skus[0]!.sku, priceList: brackets(1500) },
      { sku: `NEW-${f.group.id}`, group: f.group.url, name: 'Added by import', priceList: brackets(700) },
    ]
    const res = await api('PUT', '/catalog/skus', { items })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toEqual({ created: 1, updated: 1 })
    const shown = await shownPrices(f.group.url)
    expect(shown[0]).toBe(1500)
    expect(shown).toContain(1400)
    const [group] = await t.app.db.select().from(productGroups).where(eq(productGroups.id, f.group.id))
    expect(group!.minPrice).toBe(600)

    // The same batch again changes nothing and creates nothing (idempotent by SKU code).
    const again = await api('PUT', '/catalog/skus', { items })
    expect(again.json()).toEqual({ created: 0, updated: 2 })
    const rows = await t.app.db
      .select()
      .from(products)
      .where(and(eq(products.groupId, f.group.id)))
    expect(rows.filter((r) => r.sku === `NEW-${f.group.id}`)).toHaveLength(1)
  })

  it('rejects a batch with a bad row with every row error and writes none of it (422)', async () => {
    const g = await createProduct(t.app.db)
    const res = await api('PUT', '/catalog/skus', {
      items: [
        { sku: g.skus[0]!.sku, priceList: brackets(5000) },
        { sku: g.skus[1]!.sku, priceList: [{ lowerQty: 1, higherQty: null, price: 12.5, name: '1+' }] },
        { sku: 'BRAND-NEW', name: 'No group' },
        { sku: g.skus[0]!.sku, colour: 'red' },
      ],
    })
    expect(res.statusCode).toBe(422)
    const errors = res.json().errors as { row: number; field: string; message: string }[]
    expect(errors).toContainEqual({
      row: 1,
      field: 'priceList.0.price',
      message: 'must be whole minor units (pence or cents)',
    })
    expect(errors).toContainEqual(expect.objectContaining({ row: 3, field: 'row' }))
    const [row] = await t.app.db.select().from(products).where(eq(products.id, g.skus[0]!.id))
    expect(row!.priceList[0]!.price).toBe(1000)

    // Rows valid on their own but wrong against the catalogue: still nothing written.
    const late = await api('PUT', '/catalog/skus', {
      items: [
        { sku: g.skus[0]!.sku, priceList: brackets(5000) },
        { sku: 'BRAND-NEW-2', name: 'No group', priceList: brackets(100) },
      ],
    })
    expect(late.statusCode).toBe(422)
    expect(late.json().errors).toEqual([{ row: 1, field: 'group', message: 'required for a new SKU' }])
    const [still] = await t.app.db.select().from(products).where(eq(products.id, g.skus[0]!.id))
    expect(still!.priceList[0]!.price).toBe(1000)
  })

  it('imports the same rows from CSV and reports bad CSV cells by row', async () => {
    const g = await createProduct(t.app.db)
    const csv = `sku,price_list,qty,published\n${g.skus[0]!.sku},1-9:1100;10-24:1000;25+:900,12,true\n`
    const res = await api('PUT', '/catalog/skus', csv, { contentType: 'text/csv' })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toEqual({ created: 0, updated: 1 })
    expect(await shownPrices(g.group.url)).toEqual([1100, 1000, 900])

    const bad = `sku,price_list,qty\n${g.skus[0]!.sku},cheap,lots\n`
    const refused = await api('PUT', '/catalog/skus', bad, { contentType: 'text/csv' })
    expect(refused.statusCode).toBe(422)
    expect(refused.json().errors).toEqual([
      { row: 0, field: 'price_list', message: "'cheap' is not like 10-24:900 or 25+:800" },
      { row: 0, field: 'qty', message: 'must be a whole number' },
    ])
  })

  it('refuses a body that is not a batch (422)', async () => {
    const res = await api('PUT', '/catalog/skus', { skus: [] })
    expect(res.statusCode).toBe(422)
    const empty = await api('PUT', '/catalog/skus', { items: [] })
    expect(empty.json().errors).toEqual([{ row: 0, field: 'items', message: 'the batch is empty' }])
  })
})

describe('search operations', () => {
  it('sets and retires a redirect rule, and refuses a bad URL', async () => {
    const set = await api('PUT', '/search/redirects', { query: 'Returns', url: '/pages/returns' })
    expect(set.statusCode).toBe(200)
    expect(t.app.searchService.redirectFor(f.siteId, 'returns')).toBe('/pages/returns')
    const bad = await api('PUT', '/search/redirects', { query: 'x', url: 'javascript:alert(1)' })
    expect(bad.statusCode).toBe(422)
    expect(bad.json().errors).toEqual([{ row: 0, field: 'url', message: 'must be a path or an http(s) URL' }])
    const gone = await api('DELETE', '/search/redirects', { query: 'returns' })
    expect(gone.statusCode).toBe(200)
    expect(t.app.searchService.redirectFor(f.siteId, 'returns')).toBeNull()
  })

  it('re-indexes the site on demand', async () => {
    await t.app.db
      .update(productGroups)
      .set({ name: 'Renamed Behind The Back' })
      .where(eq(productGroups.id, f.group.id))
    const res = await api('POST', '/search/reindex')
    expect(res.statusCode).toBe(200)
    const found = await t.app.searchService.engine.search(f.siteId, [
      { index: 'products', query: 'renamed behind' } as never,
    ])
    expect(JSON.stringify(found)).toContain('Renamed Behind The Back')
  })
})

describe('OpenAPI description', () => {
  it('is served and describes exactly the routes the app has', async () => {
    const res = await t.app.inject({ url: '/api/admin/v1/openapi.json' })
    expect(res.statusCode).toBe(200)
    const doc = res.json()
    expect(doc.openapi).toBe('3.1.0')
    expect(doc.components.securitySchemes.bearer).toEqual({ type: 'http', scheme: 'bearer' })
    for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, unknown>>)) {
      for (const method of Object.keys(ops)) {
        expect(
          t.app.hasRoute({
            method: method.toUpperCase() as 'GET',
            url: `/api/admin/v1${path.replace(/\{(\w+)\}/g, ':$1')}`,
          }),
          `${method} ${path}`,
        ).toBe(true)
        const op = ops[method] as { responses: Record<string, unknown>; security: unknown }
        expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['401', '403']))
        expect(op.security, `${method} ${path}`).toEqual([{ bearer: [] }])
      }
    }
  })
})
