import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ProductPageProps } from '../../src/shared/product.ts'
import { productGroups, products } from '../../src/server/modules/catalog/catalog.tables.ts'
import { buildTestApp, inertiaHeaders, type TestApp } from '../helpers/app.ts'
import { brackets, createProduct, insertGroup, insertSku, linkAlternative } from '../factories/product.ts'

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp()
})
afterAll(async () => {
  await t?.close()
})

const visit = (url: string, host = 'localhost') =>
  t.app.inject({ url, headers: { host, ...inertiaHeaders() } })

async function props(url: string): Promise<ProductPageProps> {
  const res = await visit(url)
  expect(res.statusCode, url).toBe(200)
  const page = res.json()
  expect(page.component).toBe('Product')
  return page.props as ProductPageProps
}

/** The Product JSON-LD of a first load: only in the HTML document's head, never a page prop. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function jsonLdOf(url: string, host = 'localhost'): Promise<Record<string, any>> {
  const res = await t.app.inject({ url, headers: { host, accept: 'text/html' } })
  expect(res.statusCode, url).toBe(200)
  const head = res.body.slice(0, res.body.indexOf('</head>'))
  const scripts = [
    ...head.matchAll(/<script type="application\/ld\+json" data-product-json-ld>(.*?)<\/script>/gs),
  ]
  expect(scripts).toHaveLength(1)
  return JSON.parse(scripts[0]![1]!) as Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any
}

describe('product page', () => {
  it('renders the Product component with breadcrumbs, canonical, meta description and grids', async () => {
    const f = await createProduct(t.app.db, {
      group: {
        name: 'Fire Exit Sign',
        shortDescription: '<p>Photoluminescent <b>rigid</b> sign</p>',
        attributes: { pricing: { grid_descriptions: { '1': 'Single signs' } } },
      },
    })
    const p = await props(f.group.url)
    expect(p.product.name).toBe('Fire Exit Sign')
    expect(p.product.layout).toBe('Default')
    expect(p.breadcrumbs.map((b) => b.name)).toEqual(['Home', f.root.name, f.category.name, 'Fire Exit Sign'])
    expect(p.canonical).toBe(`http://localhost${f.group.url}`)
    expect(p.metaDescription).toBe('Photoluminescent rigid sign')
    expect(p.category.id).toBe(f.category.id)
    expect(p.product.asLowAs).toBe(800)
    const [grid] = p.product.grids
    expect(grid!.description).toBe('Single signs')
    expect(grid!.columns.map((c) => c.name)).toEqual(['1-9', '10-24', '25+'])
    expect(grid!.columns.at(-1)!.higherQty).toBe(9999)
    expect(grid!.rows.map((r) => r.options[0]!.sku)).toEqual(f.skus.map((s) => s.sku))
    expect(grid!.rows[0]!.options[0]!.prices).toEqual([1000, 900, 800])
    expect(p.selectedSku).toBeNull()
  })

  it('sends a first load as HTML that embeds the same page', async () => {
    const f = await createProduct(t.app.db)
    const res = await t.app.inject({ url: f.group.url, headers: { host: 'localhost', accept: 'text/html' } })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toMatch(/text\/html/)
    expect(res.body).toContain('"component":"Product"')
  })

  it.each(['Default', 'DefaultPGUnderLD', 'MediaLeft', 'SheltersLayout'] as const)(
    'uses the %s layout from the group',
    async (layout) => {
      const f = await createProduct(t.app.db, { group: { layout } })
      expect((await props(f.group.url)).product.layout).toBe(layout)
    },
  )

  it('puts SKUs sharing a row key into one row with options keyed by product id, across three grids', async () => {
    const f = await createProduct(t.app.db, {
      skus: [
        { rowKey: 'size-a', optionLabel: 'Red', priceList: brackets(1200) },
        { rowKey: 'size-a', optionLabel: 'Blue', position: 1, priceList: brackets(1300) },
        { grid: 2, priceList: [{ lowerQty: 1, higherQty: null, price: 5000, name: '1+' }] },
        { grid: 3, wasPrice: 9000, minimumOrder: 5 },
      ],
    })
    const { grids } = (await props(f.group.url)).product
    expect(grids.map((g) => g.number)).toEqual([1, 2, 3])
    const row = grids[0]!.rows[0]!
    expect(grids[0]!.rows).toHaveLength(1)
    expect(row.options.map((o) => [o.productId, o.label])).toEqual([
      [f.skus[0]!.id, 'Red'],
      [f.skus[1]!.id, 'Blue'],
    ])
    expect(grids[1]!.columns.map((c) => c.name)).toEqual(['1+'])
    expect(grids[2]!.rows[0]!.options[0]).toMatchObject({ wasPrice: 9000, minimumOrder: 5 })
  })

  it('leaves out unpublished SKUs and answers 404 for an unpublished product', async () => {
    const f = await createProduct(t.app.db, { skus: [{}, { published: false }] })
    const p = await props(f.group.url)
    expect(p.product.grids[0]!.rows).toHaveLength(1)

    const hidden = await createProduct(t.app.db, { group: { published: false } })
    const res = await visit(hidden.group.url)
    expect(res.statusCode).toBe(404)
    expect(res.json().component).toBe('NotFound')
  })

  it('answers 404 once a cached product is unpublished and the catalogue invalidated', async () => {
    const f = await createProduct(t.app.db)
    await props(f.group.url)
    await t.app.db.update(productGroups).set({ published: false }).where(eq(productGroups.id, f.group.id))
    t.app.catalog.invalidate()
    expect((await visit(f.group.url)).statusCode).toBe(404)
  })

  it('serves the presented product from the cache until the catalogue version changes', async () => {
    const f = await createProduct(t.app.db, { group: { name: 'Before' } })
    expect((await props(f.group.url)).product.name).toBe('Before')
    await t.app.db.update(productGroups).set({ name: 'After' }).where(eq(productGroups.id, f.group.id))
    expect((await props(f.group.url)).product.name).toBe('Before')
    t.app.catalog.invalidate()
    expect((await props(f.group.url)).product.name).toBe('After')
  })

  it('pre-selects the SKU named by ?sku= (any case), and ignores unknown ones', async () => {
    const f = await createProduct(t.app.db, { skus: [{ sku: 'T-PICK-ME-1' }, { sku: 'T-OTHER-1' }] })
    expect((await props(`${f.group.url}?sku=t-pick-me-1`)).selectedSku).toBe('T-PICK-ME-1')
    expect((await props(`${f.group.url}?sku=NOPE`)).selectedSku).toBeNull()
    expect((await props(`${f.group.url}?sku[]=x`)).selectedSku).toBeNull()
  })

  it('emits valid Product JSON-LD that survives serialisation for a script element', async () => {
    const f = await createProduct(t.app.db, {
      group: {
        name: 'Sign 1 < 2 & "3" <b>bold</b>',
        imageSku: null,
        attributes: { google: { product_brand: 'Harbour' } },
        media: [{ file_location: '/media/catalog/a.png', type: 'image' }],
      },
    })
    const p = await props(f.group.url)
    expect(p).not.toHaveProperty('jsonLd')
    const res = await t.app.inject({ url: f.group.url, headers: { host: 'localhost', accept: 'text/html' } })
    const script = /<script type="application\/ld\+json" data-product-json-ld>(.*?)<\/script>/s.exec(
      res.body,
    )![1]!
    expect(script).not.toMatch(/[<>&]/)
    const ld = JSON.parse(script)
    expect(ld['@context']).toBe('https://schema.org')
    expect(ld['@type']).toBe('Product')
    expect(ld.name).toBe('Sign 1 < 2 & "3" bold')
    expect(ld.sku).toBe(f.skus[0]!.sku)
    expect(ld.brand).toEqual({ '@type': 'Brand', name: 'Harbour' })
    expect(ld.image).toEqual(['http://localhost/img/media/catalog/a.png?w=300&h=300&q=50&fit=contain'])
    expect(ld.offers['@type']).toBe('AggregateOffer')
    expect(ld.offers.priceCurrency).toBe('GBP')
    expect(ld.offers.offerCount).toBe(f.skus.length)
    expect(ld.offers.availability).toBe('https://schema.org/InStock')
    expect(ld.offers).not.toHaveProperty('offers')
    expect(ld.offers.lowPrice).toMatch(/^\d+\.\d{2}$/)
    expect(Number(ld.offers.lowPrice)).toBeLessThanOrEqual(Number(ld.offers.highPrice))
  })

  it('prices USD sites in USD', async () => {
    const f = await createProduct(t.app.db, { host: '127.0.0.1' })
    expect((await jsonLdOf(f.group.url, '127.0.0.1')).offers.priceCurrency).toBe('USD')
  })

  it('shows the primary category builder and the zone pricing', async () => {
    const f = await createProduct(t.app.db, {
      category: {
        builder: {
          selectors: [{ name: 'Size', items: [{ id: 1, name: 'A4', cost: 700, product_id: null }] }],
          options: [{ name: 'Fixings', items: [{ id: 2, name: 'Screws', cost: 50, product_id: null }] }],
        },
      },
      group: {
        zonePricing: [
          {
            builder_customisation_type: { customer_label: 'Logo print' },
            prices: [{ quantity_break: '1-49', price: 250 }],
          },
        ],
      },
    })
    const p = await props(f.group.url)
    expect(p.product.builder?.selectors[0]?.items[0]).toMatchObject({ id: 1, cost: 700 })
    expect(p.product.zonePricing).toEqual([
      { label: 'Logo print', prices: [{ quantityBreak: '1-49', price: 250 }] },
    ])
  })

  it('shows up to four published alternatives in their order', async () => {
    const f = await createProduct(t.app.db)
    const alternatives = []
    for (let i = 0; i < 6; i++) {
      const g = await insertGroup(t.app.db, {
        siteId: f.siteId,
        categoryId: f.category.id,
        name: `Alternative ${i}`,
        minPrice: 100 + i,
        published: i !== 1,
      })
      await insertSku(t.app.db, { siteId: f.siteId, groupId: g.id })
      await linkAlternative(t.app.db, f.group.id, g.id, i)
      alternatives.push(g)
    }
    const p = await props(f.group.url)
    expect(p.alternatives.map((a) => a.name)).toEqual([
      'Alternative 0',
      'Alternative 2',
      'Alternative 3',
      'Alternative 4',
    ])
    expect(p.alternatives[0]).toMatchObject({
      kind: 'product',
      url: alternatives[0]!.url,
      prices: { min_price: 100 },
    })
  })

  it('keeps a product with media that is not a list on the page without a gallery', async () => {
    const f = await createProduct(t.app.db, { group: { media: { file_location: '/x.png' } as never } })
    expect((await props(f.group.url)).product.gallery).toBeNull()
  })

  it('does not show another site’s product', async () => {
    const f = await createProduct(t.app.db, { host: '127.0.0.1' })
    expect((await visit(f.group.url, 'localhost')).statusCode).toBe(404)
  })

  it('reads only the published SKUs of the group', async () => {
    const f = await createProduct(t.app.db)
    await t.app.db.update(products).set({ published: false }).where(eq(products.groupId, f.group.id))
    t.app.catalog.invalidate()
    const p = await props(f.group.url)
    expect(p.product.grids).toEqual([])
    expect(await jsonLdOf(f.group.url)).not.toHaveProperty('offers')
  })
})
