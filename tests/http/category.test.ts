/**
 * Category pages through the real app: storefront.routes.ts dispatches a category path to
 * renderCategoryPage, which picks `Category` or `CategoryPaginated`. Rows come from the factories
 * (URLs prefixed zz-), so the tests do not depend on the demo catalogue.
 */
import { createInertiaApp } from '@inertiajs/react'
import { eq } from 'drizzle-orm'
import { createElement, type ComponentType } from 'react'
import { renderToString } from 'react-dom/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import CategoryPage from '../../src/client/pages/Category.tsx'
import CategoryPaginatedPage from '../../src/client/pages/CategoryPaginated.tsx'
import { categories, productGroups } from '../../src/server/db/schema.ts'
import type { CategoryRow } from '../../src/server/modules/catalog/catalog.tables.ts'
import type { ProductTileData } from '../../src/shared/listing.ts'
import { buildTestApp, inertiaHeaders, type TestApp } from '../helpers/app.ts'
import { addToCategory, createCategory, createListedProduct, siteIdFor } from '../factories/catalog.ts'

let t: TestApp
let siteId: number
let usSiteId: number
let range: CategoryRow
let signs: CategoryRow
let sorting: CategoryRow
let trade: CategoryRow
let hidden: CategoryRow
let empty: CategoryRow

const visit = (url: string, host = 'localhost') =>
  t.app.inject({ url, headers: { host, ...inertiaHeaders() } })

async function page(url: string) {
  const res = await visit(url)
  expect(res.statusCode, url).toBe(200)
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the assertions check the shape
  return res.json() as { component: string; props: Record<string, any>; url: string }
}

const names = (tiles: ProductTileData[]) => tiles.map((p) => p.cat_name_override ?? p.name)

beforeAll(async () => {
  t = await buildTestApp()
  const db = t.app.db
  siteId = await siteIdFor(db)
  usSiteId = await siteIdFor(db, '127.0.0.1')

  // A grid category with a paginated child (and an unpublished child that must not show).
  range = await createCategory(db, {
    siteId,
    name: 'Safety <em>Range</em>',
    display: 'grid',
    shortDescription: '<p>Everything for a <b>safe</b> site &amp; more.</p>',
    longDescription: '<p>Our range.</p><script>alert(1)</script><img src="x" onerror="alert(2)">',
    longDescriptionStructured: { above: '<p>Above text</p>', below: '<p onclick="x()">Below text</p>' },
  })
  signs = await createCategory(
    db,
    {
      siteId,
      name: 'Exit Signs',
      display: 'paginated',
      position: 1,
      shortDescription: 'Short text',
      attributes: { meta: { meta_description: '<b>Exit signs</b> for every door' } },
      media: [{ file_location: '/media/test/exit-signs.png', type: 'image' }],
    },
    range,
  )
  await createCategory(db, { siteId, name: 'Hidden Child', published: false, position: 0 }, range)
  // Products on the grid page: one with every override, one nameless and imageless, one with swatches.
  await createListedProduct(
    db,
    {
      siteId,
      categoryId: range.id,
      name: 'Plain Name',
      shortDescription: 'Plain description',
      minPrice: 1250,
    },
    {
      position: 1,
      nameOverride: 'Override <i>Name</i>',
      descriptionOverride: 'Override description',
      imageOverride: '/media/test/override.png',
    },
  )
  await createListedProduct(
    db,
    { siteId, categoryId: range.id, name: '', media: [], minPrice: 0 },
    { position: 2 },
  )
  await createListedProduct(
    db,
    {
      siteId,
      categoryId: range.id,
      name: 'Hi-vis Vest',
      minPrice: 399,
      attributes: { features: { flash: 'Summer Sale' } },
      colourSwatches: {
        Yellow: { Hex: '#ffff00', TextColour: '#000000' },
        'Orange/Navy': { Hex: '#ff8800', Hex2: '#000080' },
        Evil: { Hex: 'red;background:url(//x)' },
      },
    },
    { position: 3 },
  )
  await createListedProduct(
    db,
    { siteId, categoryId: range.id, name: 'Draft', published: false },
    { position: 0 },
  )

  // 23 published products in the paginated category (+1 unpublished).
  for (let i = 1; i <= 23; i++) {
    await createListedProduct(
      db,
      { siteId, categoryId: signs.id, name: `Exit Sign ${String(i).padStart(2, '0')}` },
      { position: i },
    )
  }
  await createListedProduct(db, { siteId, categoryId: signs.id, name: 'Unpublished Sign', published: false })

  // Known names, prices, positions and ages for the sort orders.
  sorting = await createCategory(db, { siteId, name: 'Sorting', display: 'paginated' })
  const rows: [string, number, number, string][] = [
    ['banana', 500, 3, '2024-01-03'],
    ['Apple', 0, 1, '2024-01-05'],
    ['cherry', 300, 5, '2024-01-01'],
    ['Date', 900, 2, '2024-01-02'],
    ['Elder', 100, 4, '2024-01-04'],
  ]
  for (const [name, minPrice, position, created] of rows) {
    await createListedProduct(
      db,
      { siteId, categoryId: sorting.id, name, minPrice, createdAt: new Date(`${created}T12:00:00Z`) },
      { position },
    )
  }

  trade = await createCategory(db, {
    siteId,
    name: 'Trade Counter',
    display: 'paginated',
    referrerRequired: true,
  })
  hidden = await createCategory(db, { siteId, name: 'Hidden', published: false })
  empty = await createCategory(db, { siteId, name: 'Empty', display: 'paginated' })
  t.app.catalog.invalidate()
})

afterAll(async () => {
  await t?.close()
})

describe('page choice', () => {
  it('renders Category for a grid category and CategoryPaginated for a paginated one', async () => {
    expect((await page(range.url)).component).toBe('Category')
    expect((await page(signs.url)).component).toBe('CategoryPaginated')
  })

  it('answers Not Found for an unpublished category, also after it was cached', async () => {
    expect((await visit(hidden.url)).statusCode).toBe(404)
    await page(empty.url)
    await t.app.db.update(categories).set({ published: false }).where(eq(categories.id, empty.id))
    t.app.catalog.invalidate()
    expect((await visit(empty.url)).statusCode).toBe(404)
    await t.app.db.update(categories).set({ published: true }).where(eq(categories.id, empty.id))
    t.app.catalog.invalidate()
  })

  it('does not show one site’s category on another', async () => {
    expect((await visit(signs.url, '127.0.0.1')).statusCode).toBe(404)
    expect(usSiteId).not.toBe(siteId)
  })
})

describe('Category (grid)', () => {
  it('has breadcrumbs from the tree, sanitised names and descriptions', async () => {
    const { props } = await page(signs.url)
    expect(props.breadcrumbs).toEqual([
      { name: 'Home', url: '/' },
      { name: 'Safety <em>Range</em>', url: range.url },
      { name: 'Exit Signs', url: signs.url },
    ])
    const grid = (await page(range.url)).props
    expect(grid.category.name).toBe('Safety Range')
    expect(grid.category.longDescription).toBe('<p>Our range.</p><img src="x" />')
    expect(grid.category.above).toBe('<p>Above text</p>')
    expect(grid.category.below).toBe('<p>Below text</p>')
  })

  it('lists published child categories and products in position order', async () => {
    const { props } = await page(range.url)
    expect(props.subcategories.map((c: ProductTileData) => [c.kind, c.name, c.url])).toEqual([
      ['category', 'Exit Signs', signs.url],
    ])
    expect(props.subcategories[0].media).toEqual([{ file_location: '/media/test/exit-signs.png' }])
    expect(names(props.products)).toEqual(['Override Name', null, 'Hi-vis Vest'])
  })

  it('sends the category overrides, flash label, checked swatches and min price on tiles', async () => {
    const [overridden, nameless, vest] = (await page(range.url)).props.products as ProductTileData[]
    expect(overridden).toMatchObject({
      kind: 'product',
      name: 'Plain Name',
      short_description: 'Plain description',
      cat_name_override: 'Override Name',
      cat_description_override: 'Override description',
      cat_image_override: { filename: '/media/test/override.png' },
      prices: { min_price: 1250 },
    })
    expect(nameless).toMatchObject({
      name: null,
      media: [],
      prices: { min_price: 0 },
    })
    // What a tile does not have is left out, not sent as null or empty.
    for (const key of [
      'cat_name_override',
      'cat_description_override',
      'cat_image_override',
      'attributes',
      'color_swatches',
    ])
      expect(nameless, key).not.toHaveProperty(key)
    expect(vest!.attributes).toEqual({ features: { flash: 'Summer Sale' } })
    expect(vest!.color_swatches).toEqual({
      Yellow: { Hex: '#ffff00', TextColour: '#000000' },
      'Orange/Navy': { Hex: '#ff8800', Hex2: '#000080' },
    })
  })

  it('sets the canonical link and the meta description (attribute, else short description)', async () => {
    const grid = (await page(range.url)).props
    expect(grid.canonical).toBe(`http://localhost${range.url}`)
    expect(grid.metaDescription).toBe('Everything for a safe site & more.')
    const paginated = (await page(signs.url)).props
    expect(paginated.canonical).toBe(`http://localhost${signs.url}`)
    expect(paginated.metaDescription).toBe('Exit signs for every door')
    expect((await page(`${signs.url}?page=2`)).props.canonical).toBe(`http://localhost${signs.url}?page=2`)
  })
})

describe('CategoryPaginated', () => {
  it('shows 10 per page by default with counts for each page', async () => {
    const first = (await page(signs.url)).props.listing
    expect(first.sort).toBe('')
    expect(first.pagination).toEqual({
      page: 1,
      total_pages: 3,
      total_results: 23,
      limit: 10,
      from: 1,
      to: 10,
    })
    expect(names(first.results)).toEqual(
      Array.from({ length: 10 }, (_, i) => `Exit Sign ${String(i + 1).padStart(2, '0')}`),
    )
    const last = (await page(`${signs.url}?page=3`)).props.listing
    expect(last.pagination).toMatchObject({ page: 3, from: 21, to: 23 })
    expect(names(last.results)).toEqual(['Exit Sign 21', 'Exit Sign 22', 'Exit Sign 23'])
  })

  it('takes a page size from limit, clamped to 1..100', async () => {
    expect((await page(`${signs.url}?limit=5&page=2`)).props.listing.pagination).toMatchObject({
      page: 2,
      total_pages: 5,
      limit: 5,
      from: 6,
      to: 10,
    })
    expect((await page(`${signs.url}?limit=0`)).props.listing.pagination).toMatchObject({
      limit: 1,
      total_pages: 23,
    })
    expect((await page(`${signs.url}?limit=1000`)).props.listing.pagination).toMatchObject({
      limit: 100,
      total_pages: 1,
    })
  })

  it.each([
    ['?page=abc', 1, ''],
    ['?page=-4', 1, ''],
    ['?page=0', 1, ''],
    ['?page=2.5', 1, ''],
    ['?page=99', 3, ''],
    ['?page=99999999999999999999999', 3, ''],
    ['?page[]=2&page[]=3', 2, ''],
    ['?page[a]=2', 1, ''],
    ['?sort=cheapest', 1, ''],
    ['?sort[]=new', 1, 'new'],
    ['?sort[$ne]=1&limit=abc', 1, ''],
    ['?page=%3Cscript%3E&sort=%3Cscript%3E', 1, ''],
  ])('falls back to sane values for %s', async (query, shownPage, sort) => {
    const res = await visit(`${signs.url}${query}`)
    expect(res.statusCode).toBe(200)
    const { listing } = res.json().props
    expect(listing.pagination.page).toBe(shownPage)
    expect(listing.pagination.limit).toBe(10)
    expect(listing.sort).toBe(sort)
  })

  it('refuses a control character in the query with a clear 400, never a 500', async () => {
    const res = await visit(`${signs.url}?page=%00&sort=%3Cscript%3E`)
    expect(res.statusCode).toBe(400)
  })

  it('shows page 1 of 1 for an empty category', async () => {
    const { listing } = (await page(empty.url)).props
    expect(listing.results).toEqual([])
    expect(listing.pagination).toEqual({
      page: 1,
      total_pages: 1,
      total_results: 0,
      limit: 10,
      from: 0,
      to: 0,
    })
  })

  it('flags a trade category', async () => {
    expect((await page(trade.url)).props.category.referrerRequired).toBe(true)
    expect((await page(signs.url)).props.category.referrerRequired).toBe(false)
  })
})

describe('sort orders', () => {
  const order = async (sort: string) =>
    names((await page(`${sorting.url}?sort=${sort}`)).props.listing.results)

  it('Most Relevant follows the position in the category', async () => {
    expect(names((await page(sorting.url)).props.listing.results)).toEqual([
      'Apple',
      'Date',
      'banana',
      'Elder',
      'cherry',
    ])
  })

  it('Name (A-Z) and Name (Z-A) ignore letter case', async () => {
    expect(await order('name-asc')).toEqual(['Apple', 'banana', 'cherry', 'Date', 'Elder'])
    expect(await order('name-desc')).toEqual(['Elder', 'Date', 'cherry', 'banana', 'Apple'])
  })

  it('price-high_low is labelled Price (Low to High) and sorts cheapest first, unpriced last', async () => {
    expect(await order('price-high_low')).toEqual(['Elder', 'cherry', 'banana', 'Date', 'Apple'])
  })

  it('price-low_high is labelled Price (High to Low) and sorts dearest first, unpriced last', async () => {
    expect(await order('price-low_high')).toEqual(['Date', 'banana', 'cherry', 'Elder', 'Apple'])
  })

  it('Newest First sorts by creation time', async () => {
    expect(await order('new')).toEqual(['Apple', 'Elder', 'banana', 'Date', 'cherry'])
  })

  it('sorts across pages in the database, not per page', async () => {
    const p1 = names((await page(`${sorting.url}?sort=price-high_low&limit=2`)).props.listing.results)
    const p2 = names((await page(`${sorting.url}?sort=price-high_low&limit=2&page=2`)).props.listing.results)
    expect([...p1, ...p2]).toEqual(['Elder', 'cherry', 'banana', 'Date'])
  })
})

describe('caching', () => {
  it('serves presented pages from the cache until the catalogue changes', async () => {
    const [first] = (await page(sorting.url)).props.listing.results as ProductTileData[]
    await t.app.db.update(productGroups).set({ name: 'Apricot' }).where(eq(productGroups.id, first!.id))
    expect(names((await page(sorting.url)).props.listing.results)[0]).toBe('Apple')
    t.app.catalog.invalidate()
    expect(names((await page(sorting.url)).props.listing.results)[0]).toBe('Apricot')
    await t.app.db.update(productGroups).set({ name: 'Apple' }).where(eq(productGroups.id, first!.id))
    t.app.catalog.invalidate()
  })
})

describe('server-rendered head', () => {
  const components: Record<string, ComponentType<never>> = {
    Category: CategoryPage as ComponentType<never>,
    CategoryPaginated: CategoryPaginatedPage as ComponentType<never>,
  }
  async function ssr(url: string) {
    const inertiaPage = await page(url)
    return (await createInertiaApp({
      page: inertiaPage as never,
      render: renderToString,
      resolve: (name: string) => components[name] as never,
      title: (title: string) => title,
      setup: ({ App, props }) => createElement(App, props),
    })) as unknown as { head: string[]; body: string }
  }

  it('has the title, canonical link, meta description and escaped JSON-LD', async () => {
    await t.app.db
      .update(productGroups)
      .set({ name: 'Sign &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;' })
      .where(eq(productGroups.name, 'Hi-vis Vest'))
    t.app.catalog.invalidate()
    const { head, body } = await ssr(range.url)
    const html = head.join('\n')
    expect(html).toContain('<title data-inertia="">Safety Range | Harbour Safety Supplies</title>')
    expect(html).toContain(
      `<link rel="canonical" href="http://localhost${range.url}" data-inertia="canonical">`,
    )
    expect(html).toContain('<meta name="description" content="Everything for a safe site &amp; more."')
    expect(html).not.toContain('<script>alert(1)')
    expect(html).toContain('Sign \\u003c/script\\u003e\\u003cscript\\u003ealert(1)')
    const scripts = [...html.matchAll(/<script type="application\/ld\+json"[^>]*>(.*?)<\/script>/g)].map(
      (m) => JSON.parse(m[1]!),
    )
    expect(scripts.map((s) => s['@type']).sort()).toEqual(['BreadcrumbList', 'CollectionPage'])
    const collection = scripts.find((s) => s['@type'] === 'CollectionPage')
    expect(collection.url).toBe(`http://localhost${range.url}`)
    expect(collection.mainEntity.itemListElement.map((i: { name: string }) => i.name)).toEqual([
      'Override Name',
      'Name Not Found',
      'Sign </script><script>alert(1)</script>',
    ])
    expect(body).toContain('<h1')
    await t.app.db
      .update(productGroups)
      .set({ name: 'Hi-vis Vest' })
      .where(eq(productGroups.name, 'Sign &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;'))
    t.app.catalog.invalidate()
  })

  it('renders the tiles: overrides, Name Not Found, placeholder, flash, swatches and As Low As', async () => {
    const { body } = await ssr(range.url)
    expect(body).toContain('Override Name')
    expect(body).toContain('/img/media/test/override.png?w=300&amp;h=300&amp;q=50&amp;fit=contain')
    expect(body).toContain('Name Not Found')
    expect(body).toContain('src="/placeholder.svg"')
    expect(body).toContain('Summer Sale')
    expect(body).toContain('linear-gradient(135deg, #ff8800 50%, #000080 50%)')
    expect(body).toContain('background:#ffff00;box-shadow:inset 0 0 0 1px #000000')
    expect(body).not.toContain('url(//x)')
    expect(body).toMatch(/As Low As <span[^>]*>£12\.50<\/span>/)
    expect(body.replace(/<!-- -->/g, '')).toContain('Prices exclude VAT at 20%')
  })

  it('renders the sort select with the six labels, the pagination texts and the page title', async () => {
    const { head, body } = await ssr(`${signs.url}?page=2&sort=name-asc`)
    expect(head.join('')).toContain(
      '<title data-inertia="">Exit Signs - Page 2 | Harbour Safety Supplies</title>',
    )
    expect(body).toContain('Sort by')
    for (const label of [
      'Most Relevant',
      'Name (A-Z)',
      'Name (Z-A)',
      'Price (Low to High)',
      'Price (High to Low)',
      'Newest First',
    ]) {
      expect(body).toContain(`>${label}</option>`)
    }
    expect(body).toContain('Showing <!-- -->11<!-- --> to <!-- -->20<!-- --> of <!-- -->23<!-- --> results')
    expect(body).toContain('Page <!-- -->2<!-- --> of <!-- -->3')
    expect(body).toContain(`href="${signs.url}?page=3&amp;sort=name-asc"`)
    expect(body).toContain(`href="${signs.url}?sort=name-asc"`)
  })

  it('shows the trade style for a ReferrerRequired category', async () => {
    const { body } = await ssr(trade.url)
    expect(body).toContain('data-trade="true"')
    expect(body).toMatch(/data-testid="trade-badge"[^>]*>Trade</)
  })
})

it('keeps unpublished products out of listings', async () => {
  const { listing } = (await page(`${signs.url}?limit=100`)).props
  expect(names(listing.results)).not.toContain('Unpublished Sign')
  expect(listing.pagination.total_results).toBe(23)
  // membership alone does not publish a product in another category
  const draft = await createListedProduct(t.app.db, {
    siteId,
    categoryId: sorting.id,
    name: 'Draft 2',
    published: false,
  })
  await addToCategory(t.app.db, signs.id, draft.id, { position: 99 })
  t.app.catalog.invalidate()
  expect((await page(`${signs.url}?limit=100`)).props.listing.pagination.total_results).toBe(23)
})
