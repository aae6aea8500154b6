/**
 * The back-office API's catalogue-structure, promotion, delivery-rate and content operations over
 * HTTP: idempotent upserts by external key, row-level 422 with nothing written, 401/403 for a
 * wrong, revoked or other-site token, and the storefront showing the change at once.
 */
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  categories,
  categoryProducts,
  contentStories,
  deliveryRates,
  productGroups,
  promotions,
} from '../../src/server/db/schema.ts'
import { AdminTokens } from '../../src/server/modules/admin/admin.tokens.ts'
import { buildTestApp, inertiaHeaders, type TestApp } from '../helpers/app.ts'
import { createProduct, siteIdFor, type ProductFixture } from '../factories/product.ts'

let t: TestApp
let token: string
let revokedToken: string
let otherSiteToken: string
let siteId: number
let f: ProductFixture

beforeAll(async () => {
  t = await buildTestApp()
  const tokens = new AdminTokens(t.app.db)
  ;({ token } = await tokens.create('localhost', 'operations test'))
  ;({ token: otherSiteToken } = await tokens.create('127.0.0.1', 'other brand'))
  const revoked = await tokens.create('localhost', 'leaver')
  await tokens.revoke(revoked.id)
  revokedToken = revoked.token
  siteId = await siteIdFor(t.app.db)
  f = await createProduct(t.app.db)
})
afterAll(async () => {
  await t?.close()
})

const api = (
  method: 'GET' | 'PUT' | 'POST' | 'DELETE',
  path: string,
  payload?: unknown,
  opts: { token?: string | null; host?: string } = {},
) =>
  t.app.inject({
    method,
    url: `/api/admin/v1${path}`,
    headers: {
      host: opts.host ?? 'localhost',
      ...(opts.token === null ? {} : { authorization: `Bearer ${opts.token ?? token}` }),
    },
    ...(payload === undefined ? {} : { payload: payload as string }),
  })

const page = (url: string) => t.app.inject({ url, headers: { host: 'localhost', ...inertiaHeaders() } })

const NEW_ROUTES: [method: 'PUT' | 'POST' | 'DELETE', path: string, body: unknown][] = [
  ['PUT', '/catalog/categories', { items: [{ url: '/auth-check', name: 'Auth check' }] }],
  ['PUT', '/catalog/groups', { items: [] }],
  ['PUT', '/promotions', { items: [{ code: 'AUTHCHECK', kind: 'free_delivery' }] }],
  ['DELETE', '/promotions/AUTHCHECK', undefined],
  ['PUT', '/delivery-rates', { items: [] }],
  ['DELETE', '/delivery-rates', { zone: 'x', despatchType: 'y' }],
  ['PUT', '/content/stories', { items: [] }],
  ['POST', '/content/publish', { slugs: ['about-us'] }],
]

describe('the new back-office operations refuse', () => {
  it.each(NEW_ROUTES)(
    '%s %s without a token, with an unknown or a revoked one (401), and change nothing',
    async (method, path, body) => {
      for (const tok of [null, 'shop_adm_not-a-token', revokedToken]) {
        const res = await api(method, path, body, { token: tok })
        expect(res.statusCode, String(tok)).toBe(401)
      }
      const [cat] = await t.app.db.select().from(categories).where(eq(categories.url, '/auth-check'))
      expect(cat).toBeUndefined()
    },
  )

  it.each(NEW_ROUTES)("%s %s with another site's token on this host (403)", async (method, path, body) => {
    const res = await api(method, path, body, { token: otherSiteToken })
    expect(res.statusCode).toBe(403)
    expect(res.json().message).toBe('This token is for another site.')
  })

  it('are all in the OpenAPI description', async () => {
    const served = await t.app.inject({ url: '/api/admin/v1/openapi.json', headers: { host: 'localhost' } })
    const paths = served.json().paths as Record<string, Record<string, unknown>>
    for (const [method, path] of NEW_ROUTES) {
      const documented = path.replace(/^\/promotions\/[^/]+$/, '/promotions/{code}')
      expect(paths[documented]?.[method.toLowerCase()], `${method} ${path}`).toBeDefined()
    }
  })
})

describe('categories and product groups', () => {
  it('creates a category tree and a group in one batch each, idempotently, and the storefront shows them', async () => {
    const tree = {
      items: [
        { url: '/ops-signs/exit', name: 'Exit signs', parent: '/ops-signs', display: 'grid' },
        { url: '/ops-signs', name: 'Ops signs', position: 3 },
      ],
    }
    const first = await api('PUT', '/catalog/categories', tree)
    expect(first.statusCode).toBe(200)
    expect(first.json()).toMatchObject({ created: 2, updated: 0 })
    const again = await api('PUT', '/catalog/categories', tree)
    expect(again.json()).toMatchObject({ created: 0, updated: 2 })
    const [parent] = await t.app.db.select().from(categories).where(eq(categories.url, '/ops-signs'))
    const [child] = await t.app.db.select().from(categories).where(eq(categories.url, '/ops-signs/exit'))
    expect(child!.parentId).toBe(parent!.id)

    const groups = await api('PUT', '/catalog/groups', {
      items: [
        { url: '/ops-signs/exit/running-man', name: 'Running man exit sign', category: '/ops-signs/exit' },
      ],
    })
    expect(groups.json()).toMatchObject({ created: 1, updated: 0 })
    const [group] = await t.app.db
      .select()
      .from(productGroups)
      .where(eq(productGroups.url, '/ops-signs/exit/running-man'))
    const links = await t.app.db
      .select()
      .from(categoryProducts)
      .where(eq(categoryProducts.groupId, group!.id))
    expect(links.map((l) => l.categoryId)).toEqual([child!.id])

    const shown = await page('/ops-signs/exit')
    expect(shown.statusCode).toBe(200)
    expect(shown.json().component).toBe('Category')
    expect(JSON.stringify(shown.json().props)).toContain('Exit signs')

    // Renamed through the API: the (cached) page shows the new name on the next request.
    await api('PUT', '/catalog/categories', { items: [{ url: '/ops-signs/exit', name: 'Fire exit signs' }] })
    expect(JSON.stringify((await page('/ops-signs/exit')).json().props)).toContain('Fire exit signs')
  })

  it('rejects a batch with bad rows with every row error and writes none of it (422)', async () => {
    const res = await api('PUT', '/catalog/categories', {
      items: [
        { url: '/ops-good', name: 'Good' },
        { url: 'no-slash', name: 'Bad path' },
        { url: '/ops-orphan', name: 'Orphan', parent: '/no-such-parent' },
      ],
    })
    expect(res.statusCode).toBe(422)
    expect(res.json().errors).toEqual([
      { row: 1, field: 'url', message: 'must be a path like /safety-signs/fire-signs' },
    ])
    const orphan = await api('PUT', '/catalog/categories', {
      items: [
        { url: '/ops-good', name: 'Good' },
        { url: '/ops-orphan', name: 'Orphan', parent: '/no-such-parent' },
      ],
    })
    expect(orphan.json().errors).toEqual([{ row: 1, field: 'parent', message: 'no category has this path' }])
    expect(await t.app.db.select().from(categories).where(eq(categories.url, '/ops-good'))).toEqual([])
    const group = await api('PUT', '/catalog/groups', {
      items: [{ url: '/ops-new-group', name: 'No category' }],
    })
    expect(group.json().errors).toEqual([
      { row: 0, field: 'category', message: 'required for a new product group' },
    ])
  })
})

describe('promotions', () => {
  it('creates, changes and retires a promotion by code, case-insensitively', async () => {
    const created = await api('PUT', '/promotions', {
      items: [
        { code: 'spring10', kind: 'percentage', value: 10, description: 'Spring sale' },
        { code: 'GIFT', kind: 'free_gift', giftSku: f.skus[0]!.sku, minimumSpend: 5000 },
      ],
    })
    expect(created.statusCode).toBe(200)
    expect(created.json()).toEqual({ created: 2, updated: 0 })
    const changed = await api('PUT', '/promotions', {
      items: [{ code: 'Spring10', kind: 'percentage', value: 15 }],
    })
    expect(changed.json()).toEqual({ created: 0, updated: 1 })
    const [row] = await t.app.db
      .select()
      .from(promotions)
      .where(and(eq(promotions.siteId, siteId), eq(promotions.code, 'SPRING10')))
    expect(row).toMatchObject({ value: 15, description: 'Spring sale', active: true })

    expect((await api('DELETE', '/promotions/spring10')).statusCode).toBe(200)
    const [retired] = await t.app.db.select().from(promotions).where(eq(promotions.id, row!.id))
    expect(retired!.active).toBe(false)
    const missing = await api('DELETE', '/promotions/NOPE')
    expect(missing.statusCode).toBe(404)
    expect(missing.json().message).toBe('No promotion has this code.')
  })

  it('rejects impossible promotions row by row and writes none (422)', async () => {
    const res = await api('PUT', '/promotions', {
      items: [
        { code: 'OK5', kind: 'fixed', value: 500 },
        { code: 'BIG', kind: 'percentage', value: 150 },
        { code: 'NOGIFT', kind: 'free_gift' },
        { code: 'x', kind: 'free_delivery' },
        {
          code: 'LATE',
          kind: 'free_delivery',
          startsAt: '2026-05-01T00:00:00Z',
          endsAt: '2026-04-01T00:00:00Z',
        },
      ],
    })
    expect(res.statusCode).toBe(422)
    expect(res.json().errors).toEqual([
      { row: 1, field: 'value', message: 'a percentage must be 1 to 100' },
      { row: 2, field: 'giftSku', message: 'required for a free gift' },
      { row: 3, field: 'code', message: 'must be 2 to 40 letters, digits, - or _' },
      { row: 4, field: 'endsAt', message: 'must be after startsAt' },
    ])
    const unknownGift = await api('PUT', '/promotions', {
      items: [
        { code: 'OK5', kind: 'fixed', value: 500 },
        { code: 'G2', kind: 'free_gift', giftSku: 'NO-SUCH' },
      ],
    })
    expect(unknownGift.json().errors).toEqual([{ row: 1, field: 'giftSku', message: 'no SKU has this code' }])
    expect(await t.app.db.select().from(promotions).where(eq(promotions.code, 'OK5'))).toEqual([])
  })
})

describe('delivery rates', () => {
  it('creates and changes a rate by zone and despatch type, then removes it', async () => {
    const rate = { zone: 'Highlands', despatchType: 'Pallet', name: 'Pallet to the Highlands', price: 9500 }
    expect((await api('PUT', '/delivery-rates', { items: [rate] })).json()).toEqual({
      created: 1,
      updated: 0,
    })
    const again = await api('PUT', '/delivery-rates', { items: [{ ...rate, price: 9900, freeOver: 100000 }] })
    expect(again.json()).toEqual({ created: 0, updated: 1 })
    const rates = await t.app.carts.rates(t.app.db, siteId)
    expect(rates.find((r) => r.zone === 'Highlands')).toMatchObject({ price: 9900, freeOver: 100000 })
    const gone = await api('DELETE', '/delivery-rates', { zone: 'Highlands', despatchType: 'Pallet' })
    expect(gone.statusCode).toBe(200)
    expect((await t.app.carts.rates(t.app.db, siteId)).find((r) => r.zone === 'Highlands')).toBeUndefined()
    expect(
      (await api('DELETE', '/delivery-rates', { zone: 'Highlands', despatchType: 'Pallet' })).statusCode,
    ).toBe(404)
  })

  it('rejects a rate in decimals or without a name (422) and writes none of the batch', async () => {
    const res = await api('PUT', '/delivery-rates', {
      items: [
        { zone: 'Islands', despatchType: 'Courier', name: 'Courier', price: 1200 },
        { zone: 'Islands', despatchType: 'Post', name: '', price: 9.99 },
      ],
    })
    expect(res.statusCode).toBe(422)
    expect(res.json().errors).toEqual([
      { row: 1, field: 'name', message: expect.any(String) },
      { row: 1, field: 'price', message: 'must be whole minor units' },
    ])
    expect(await t.app.db.select().from(deliveryRates).where(eq(deliveryRates.zone, 'Islands'))).toEqual([])
  })
})

describe('content', () => {
  const story = (title: string) => ({
    fullSlug: 'ops-news',
    name: 'Ops news',
    content: {
      component: 'page',
      body: [
        {
          component: 'text',
          text: { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: title }] }] },
        },
      ],
    },
  })

  it('imports a draft that only publishing shows, and a published story at once', async () => {
    const draft = await api('PUT', '/content/stories', { items: [story('First words')] })
    expect(draft.statusCode).toBe(200)
    expect(draft.json()).toMatchObject({ stories: 1, published: 0 })
    expect((await page('/ops-news')).statusCode).toBe(404)

    const published = await api('POST', '/content/publish', { slugs: ['ops-news'] })
    expect(published.json()).toMatchObject({ published: 1 })
    const shown = await page('/ops-news')
    expect(shown.statusCode).toBe(200)
    expect(JSON.stringify(shown.json().props)).toContain('First words')

    await api('PUT', '/content/stories', { items: [{ ...story('Second words'), publish: true }] })
    expect(JSON.stringify((await page('/ops-news')).json().props)).toContain('Second words')
  })

  it('publishes all of the slugs or none, naming the missing ones (422)', async () => {
    await api('PUT', '/content/stories', { items: [{ ...story('Draft only'), fullSlug: 'ops-draft' }] })
    const res = await api('POST', '/content/publish', { slugs: ['ops-draft', 'no-such-story'] })
    expect(res.statusCode).toBe(422)
    expect(res.json().errors).toEqual([{ row: 1, field: 'slugs', message: 'no story has this slug' }])
    const [row] = await t.app.db.select().from(contentStories).where(eq(contentStories.fullSlug, 'ops-draft'))
    expect(row!.publishedContent).toBeNull()
  })

  it('refuses a story with a bad slug or no block name (422)', async () => {
    const res = await api('PUT', '/content/stories', {
      items: [
        { fullSlug: 'Bad Slug', name: 'x', content: { component: 'page' } },
        { fullSlug: 'ok-slug', name: 'x', content: { body: [] } },
      ],
    })
    expect(res.statusCode).toBe(422)
    expect(res.json().errors.map((e: { row: number; field: string }) => `${e.row}:${e.field}`)).toEqual([
      '0:fullSlug',
      '1:content.component',
    ])
    expect(
      await t.app.db.select().from(contentStories).where(eq(contentStories.fullSlug, 'ok-slug')),
    ).toEqual([])
  })
})
