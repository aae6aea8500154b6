/**
 * Issue 11, storefront spec gaps (storefront-and-basket.md §2, §3, §5, §7, §9): empty JSON bodies
 * on the payload-less basket calls, the price grid's list of entries, the product layout from the
 * products story, the Shelters layout's reviews widget, and the ad pixel and tag manager.
 */
import { and, eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { contentStories, sites } from '../../src/server/db/schema.ts'
import { clearProductCache } from '../../src/server/modules/catalog/product.routes.ts'
import type { Cart } from '../../src/shared/cart.ts'
import { buildTestApp, type TestApp } from '../helpers/app.ts'
import { Visitor } from '../helpers/visitor.ts'
import { createProduct, insertCategory, insertGroup, insertSku, siteIdFor } from '../factories/product.ts'
import type { ProductRow } from '../../src/server/modules/catalog/catalog.tables.ts'

let t: TestApp
let categoryId: number
let sign: ProductRow
let cheap: ProductRow

beforeAll(async () => {
  t = await buildTestApp()
  const db = t.app.db
  const siteId = await siteIdFor(db)
  categoryId = (await insertCategory(db, { siteId })).id
  const group = await insertGroup(db, { siteId, categoryId })
  sign = await insertSku(db, { siteId, groupId: group.id })
  cheap = await insertSku(db, {
    siteId,
    groupId: group.id,
    priceList: [{ lowerQty: 1, higherQty: null, price: 250, name: '1+' }],
  })
})
afterAll(() => t?.close())

const visitor = () => new Visitor(t.app).start()
const line = (listing_id: number, quantity: number) => ({ listing_id, quantity, category_id: categoryId })

/** A JSON call with an empty body, as a client sends a payload-less call. */
const emptyJson = (v: Visitor, method: 'POST' | 'DELETE', url: string) =>
  v.request(method, url, undefined, { 'content-type': 'application/json' })

describe('basket calls without a payload', () => {
  it('accepts an empty JSON body on /cart/init, /cart/clear and the sign-sequence delete', async () => {
    const v = await visitor()
    const init = await emptyJson(v, 'POST', '/cart/init')
    expect(init.statusCode).toBe(200)
    expect((init.json() as Cart).items).toEqual([])
    await v.post('/cart/add', {
      items: [
        { ...line(sign.id, 1), sequence_id: 'seq-9', printable_sign: { url: '/design-a-sign' } },
        line(cheap.id, 2),
      ],
    })
    const removed = await emptyJson(v, 'DELETE', '/cart/sign-sequence/seq-9')
    expect(removed.statusCode).toBe(200)
    expect((removed.json() as Cart).items.map((i) => i.product.sku)).toEqual([cheap.sku])
    const cleared = await emptyJson(v, 'POST', '/cart/clear')
    expect(cleared.statusCode).toBe(200)
    expect((cleared.json() as Cart).items).toEqual([])
  })

  it('still refuses a malformed JSON body with a 400, and a body poisoning the prototype', async () => {
    const v = await visitor()
    const bad = await v.request('POST', '/cart/init', '{"a":', { 'content-type': 'application/json' })
    expect(bad.statusCode).toBe(400)
    const poisoned = await v.request('POST', '/cart/add', '{"__proto__":{"x":1},"items":[]}', {
      'content-type': 'application/json',
    })
    expect(poisoned.statusCode).toBe(400)
  })
})

describe('adding from a price grid', () => {
  it('adds every item of a list of entries, as the price grid sends them', async () => {
    const v = await visitor()
    const res = await v.post('/cart/add', [{ items: [line(sign.id, 10)] }, { items: [line(cheap.id, 3)] }])
    expect(res.statusCode).toBe(200)
    const cart = res.json() as Cart
    expect(cart.items.map((i) => [i.product.sku, i.quantity])).toEqual([
      [sign.sku, 10],
      [cheap.sku, 3],
    ])
  })

  it('refuses an entry without its items with a field message', async () => {
    const v = await visitor()
    const res = await v.post('/cart/add', [{ items: [line(sign.id, 1)] }, { listing_id: cheap.id }])
    expect(res.statusCode).toBe(422)
    expect((await v.post('/cart/init')).json().items).toEqual([])
  })
})

/** Replaces fields of a published settings story of the Harbour site; returns a function that undoes it. */
async function patchStory(slug: string, fields: Record<string, unknown>): Promise<() => Promise<void>> {
  const siteId = await siteIdFor(t.app.db)
  const [row] = await t.app.db
    .select()
    .from(contentStories)
    .where(and(eq(contentStories.siteId, siteId), eq(contentStories.fullSlug, slug)))
  const before = row!.publishedContent
  const set = async (content: unknown) => {
    await t.app.db
      .update(contentStories)
      .set({ publishedContent: content as typeof before })
      .where(eq(contentStories.id, row!.id))
    t.app.content.invalidate()
    t.app.sites.invalidate()
    clearProductCache(t.app)
  }
  await set({ ...before!, ...fields })
  return () => set(before)
}

describe('product layout and reviews widget (spec §2)', () => {
  it('takes the layout from the products story, and the product’s own page_layout overrides it', async () => {
    const plain = await createProduct(t.app.db)
    const own = await createProduct(t.app.db, {
      group: { attributes: { story_blok: { page_layout: 'MediaLeft' } } },
    })
    const undo = await patchStory('settings/products', { pageLayout: 'DefaultPGUnderLD' })
    try {
      const v = await visitor()
      expect((await v.visit(plain.group.url)).json().props.product.layout).toBe('DefaultPGUnderLD')
      expect((await v.visit(own.group.url)).json().props.product.layout).toBe('MediaLeft')
    } finally {
      await undo()
    }
  })

  it('gives the Shelters layout the site’s reviews script, and other layouts none', async () => {
    const shelter = await createProduct(t.app.db, { group: { layout: 'SheltersLayout' } })
    const other = await createProduct(t.app.db)
    const undo = await patchStory('settings/site', {
      reviews_script_url: 'https://reviews.example/widget.js',
      reviews_global: 'ReviewsWidget',
    })
    try {
      const v = await visitor()
      expect((await v.visit(shelter.group.url)).json().props.reviews).toEqual({
        scriptUrl: 'https://reviews.example/widget.js',
        global: 'ReviewsWidget',
      })
      expect((await v.visit(other.group.url)).json().props.reviews).toBeNull()
    } finally {
      await undo()
    }
    expect((await (await visitor()).visit(shelter.group.url)).json().props.reviews).toBeNull()
  })
})

describe('ad pixel and tag manager (spec §7)', () => {
  const page = () => t.app.inject({ url: '/', headers: { host: 'localhost', accept: 'text/html' } })

  it('loads neither, and keeps the policy strict, on a site that does not turn them on', async () => {
    const res = await page()
    expect(res.body).not.toContain('data-marketing')
    expect(res.headers['content-security-policy']).not.toContain('facebook')
    expect(res.headers['content-security-policy']).not.toContain('googletagmanager')
  })

  it("loads both with the page's CSP nonce and allows their origins, when the site turns them on", async () => {
    const siteId = await siteIdFor(t.app.db)
    const on = { adPixel: true, adPixelId: '1234567890', tagManagerId: 'GTM-AB12CD' }
    await t.app.db
      .update(sites)
      .set({ settings: sql`${sites.settings} || ${JSON.stringify(on)}::jsonb` })
      .where(eq(sites.id, siteId))
    t.app.sites.invalidate()
    try {
      const res = await page()
      const csp = String(res.headers['content-security-policy'])
      const nonce = /'nonce-([^']+)'/.exec(csp)![1]!
      for (const tag of ['ad-pixel', 'tag-manager'])
        expect(res.body).toContain(`<script nonce="${nonce}" data-marketing="${tag}">`)
      expect(csp).toMatch(/script-src [^;]*https:\/\/connect\.facebook\.net/)
      expect(csp).toMatch(/script-src [^;]*https:\/\/www\.googletagmanager\.com/)
      expect(csp).toMatch(/connect-src [^;]*https:\/\/www\.facebook\.com/)
      // The other brand is untouched.
      const other = await t.app.inject({ url: '/', headers: { host: '127.0.0.1', accept: 'text/html' } })
      expect(other.body).not.toContain('data-marketing')
    } finally {
      await t.app.db
        .update(sites)
        .set({
          settings: sql`${sites.settings} - 'adPixelId' - 'tagManagerId' || '{"adPixel":false}'::jsonb`,
        })
        .where(eq(sites.id, siteId))
      t.app.sites.invalidate()
    }
  })
})
