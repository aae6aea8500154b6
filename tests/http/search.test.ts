/**
 * The search endpoints and the Search page through the real app: the index is built from the
 * database at start and follows catalogue writes; hostile input gets a 200 or a 400, never a 500.
 * Rows come from the factories with names made of rare words, so the demo catalogue never matches.
 *
 * The same contract runs twice: on the embedded engine, and on the Algolia adapter (the official
 * client) against a local stand-in that speaks Algolia's REST paths.
 */
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { productGroups, searchClicks, searchQueries } from '../../src/server/db/schema.ts'
import type { CategoryRow, ProductGroupRow } from '../../src/server/modules/catalog/catalog.tables.ts'
import type { SearchResult, SearchHit } from '../../src/shared/search.ts'
import { loadConfig, type Config } from '../../src/server/config.ts'
import { AlgoliaSearchEngine } from '../../src/server/modules/search/algolia.engine.ts'
import { buildTestApp, cookieHeader, cookiesFrom, inertiaHeaders, type TestApp } from '../helpers/app.ts'
import { AlgoliaStandIn } from '../support/algolia-standin.ts'
import { createCategory, createListedProduct, siteIdFor } from '../factories/catalog.ts'

/** The search contract, run against the app `configure` returns the config overrides of. */
function searchContract(
  label: string,
  configure: () => Promise<Partial<Config>>,
  after: () => Promise<void> = async () => {},
) {
  describe(label, () => {
    let t: TestApp
    let siteId: number
    let usSiteId: number
    let category: CategoryRow
    let zebra: ProductGroupRow
    let headers: Record<string, string>

    async function csrfHeaders(host = 'localhost'): Promise<Record<string, string>> {
      const first = await t.app.inject({ url: '/', headers: { host, accept: 'text/html' } })
      const cookies = cookiesFrom(first)
      return {
        host,
        cookie: cookieHeader(cookies),
        'x-xsrf-token': decodeURIComponent(cookies['XSRF-TOKEN']!),
        accept: 'application/json',
        'content-type': 'application/json',
      }
    }

    const multi = (requests: unknown[], extra: Record<string, string> = {}) =>
      t.app.inject({
        method: 'POST',
        url: '/search/1/indexes/*/queries',
        headers: { ...headers, ...extra },
        payload: JSON.stringify({ requests }),
      })

    async function search(query: string, filters = 'type:product AND status:published', more: object = {}) {
      const res = await multi([{ indexName: 'products', query, filters, ...more }])
      expect(res.statusCode, res.body).toBe(200)
      return (res.json() as { results: SearchResult<SearchHit>[] }).results[0]!
    }

    const names = (r: SearchResult<SearchHit>) => r.hits.map((h) => h.name)

    async function visit(url: string) {
      const res = await t.app.inject({ url, headers: { host: 'localhost', ...inertiaHeaders() } })
      return res
    }

    beforeAll(async () => {
      t = await buildTestApp(await configure())
      const db = t.app.db
      siteId = await siteIdFor(db)
      usSiteId = await siteIdFor(db, '127.0.0.1')
      category = await createCategory(db, { siteId, name: 'Quokka Signage', display: 'paginated' })
      zebra = await createListedProduct(db, {
        siteId,
        categoryId: category.id,
        name: 'Quokka Zebra Crossing Sign',
        shortDescription: 'Reflective <b>aluminium</b>',
        minPrice: 1000,
      })
      await createListedProduct(db, {
        siteId,
        categoryId: category.id,
        name: 'Quokka Zebra Draft',
        published: false,
      })
      for (let i = 1; i <= 12; i++) {
        await createListedProduct(db, {
          siteId,
          categoryId: category.id,
          name: `Quokka Wombat Panel ${String(i).padStart(2, '0')}`,
          minPrice: i * 100,
        })
      }
      await createCategory(db, { siteId: usSiteId, name: 'Quokka Overseas' })
      t.app.catalog.invalidate()
      await t.app.searchService.idle()
      headers = await csrfHeaders()
      // The whole-catalogue change rebuilds each site's shared index through a queued job: the
      // tests start once both sites' rebuilds have run.
      await vi.waitFor(
        async () => {
          expect(names(await search('quokka', 'type:category'))).toEqual(['Quokka Signage'])
          const us = await multi([{ indexName: 'products', query: 'quokka' }], await csrfHeaders('127.0.0.1'))
          const hits = (us.json() as { results: SearchResult<SearchHit>[] }).results[0]!.hits
          expect(hits.map((h) => h.name)).toEqual(['Quokka Overseas'])
        },
        { timeout: 15_000, interval: 100 },
      )
    })

    afterAll(async () => {
      await t.close()
      await after()
    })

    describe('the search endpoint', () => {
      it('answers a multi-query in Algolia shape with hits, counts and a queryID', async () => {
        const res = await multi([
          {
            indexName: 'products',
            query: 'quokka',
            filters: 'type:category AND status:published',
            hitsPerPage: 4,
          },
          {
            indexName: 'products',
            query: 'quokka zebra',
            filters: 'type:product_group OR type:product AND status:published',
            hitsPerPage: 3,
            clickAnalytics: true,
          },
        ])
        expect(res.statusCode).toBe(200)
        const [categories, products] = (res.json() as { results: SearchResult<SearchHit>[] }).results
        expect(names(categories!)).toEqual(['Quokka Signage'])
        expect(categories!.hits[0]).toMatchObject({
          type: 'category',
          url: category.url,
          status: 'published',
        })
        expect(categories!.queryID).toBeUndefined()
        expect(products!.nbHits).toBe(1)
        expect(products!.hits[0]).toMatchObject({
          objectID: `product-${zebra.id}`,
          name: 'Quokka Zebra Crossing Sign',
          short_description: 'Reflective aluminium',
          url: zebra.url,
          price_ex_tax: 1000,
          price_inc_tax: 1200,
          type: 'product',
          category_name: 'Quokka Signage',
          // Spec §3 'Search hit': the hit carries 'Category Name' too.
          'Category Name': 'Quokka Signage',
        })
        expect(products!.hits[0]!.image).toMatch(/^\/img\/media\/test\/.+w=98&h=98/)
        expect(products!.hits[0]!._highlightResult?.name?.value).toBe(
          '<em>Quokka</em> <em>Zebra</em> Crossing Sign',
        )
        expect(products!.queryID).toMatch(/^[0-9a-f]{32}$/)
        expect(products).toMatchObject({ page: 0, nbPages: 1, hitsPerPage: 3, index: 'products' })
      })

      it('finds records with a typo and by prefix, and only the site of the Host header', async () => {
        expect(names(await search('qoukka zebr'))).toEqual(['Quokka Zebra Crossing Sign'])
        expect(names(await search('quokka', 'type:category'))).toEqual(['Quokka Signage'])
        const us = await multi([{ indexName: 'products', query: 'quokka' }], await csrfHeaders('127.0.0.1'))
        expect(
          (us.json() as { results: SearchResult<SearchHit>[] }).results[0]!.hits.map((h) => h.name),
        ).toEqual(['Quokka Overseas'])
      })

      it('follows catalogue writes without a restart', async () => {
        await t.app.db
          .update(productGroups)
          .set({ name: 'Quokka Pelican Crossing Sign' })
          .where(eq(productGroups.id, zebra.id))
        t.app.catalog.invalidate({ siteId, groupIds: [zebra.id] })
        await t.app.searchService.idle()
        expect(names(await search('pelican'))).toEqual(['Quokka Pelican Crossing Sign'])
        expect(names(await search('zebra crossing'))).toEqual([])

        await t.app.db.update(productGroups).set({ published: false }).where(eq(productGroups.id, zebra.id))
        t.app.catalog.invalidate({ siteId, groupIds: [zebra.id] })
        await t.app.searchService.idle()
        expect(names(await search('pelican'))).toEqual([])

        await t.app.db
          .update(productGroups)
          .set({ published: true, name: 'Quokka Zebra Crossing Sign' })
          .where(eq(productGroups.id, zebra.id))
        // A whole-catalogue change rebuilds the shared index through the queued `search-reindex`
        // job, which any instance's worker runs a moment later.
        t.app.catalog.invalidate()
        await t.app.searchService.idle()
        await expect
          .poll(async () => names(await search('zebra crossing')), { timeout: 15_000, interval: 200 })
          .toEqual(['Quokka Zebra Crossing Sign'])
      })

      it('returns the redirect url of a matching rule', async () => {
        await t.app.searchService.setRedirect(siteId, '  Quokka HELP ', '/delivery-information')
        const result = await search('quokka help')
        expect(result.renderingContent?.redirect?.url).toBe('/delivery-information')
        expect((await search('quokka')).renderingContent).toBeUndefined()
        const page = await visit('/search?q=Quokka+Help')
        expect(page.statusCode).toBe(409)
        expect(page.headers['x-inertia-location']).toBe('/delivery-information')
        await t.app.searchService.removeRedirect(siteId, 'quokka help')
      })

      it('serves one index through the single-query path', async () => {
        const res = await t.app.inject({
          method: 'POST',
          url: '/search/1/indexes/products/query',
          headers,
          payload: JSON.stringify({ query: 'wombat panel', filters: 'type:product', hitsPerPage: 5 }),
        })
        expect(res.statusCode).toBe(200)
        expect(res.json()).toMatchObject({ nbHits: 12, nbPages: 3, hitsPerPage: 5 })
      })

      it('refuses a POST without the CSRF token', async () => {
        const res = await t.app.inject({
          method: 'POST',
          url: '/search/1/indexes/*/queries',
          headers: { host: 'localhost', accept: 'application/json', 'content-type': 'application/json' },
          payload: JSON.stringify({ requests: [{ indexName: 'products', query: 'x' }] }),
        })
        expect(res.statusCode).toBe(419)
      })
    })

    describe('hostile input to the search endpoint', () => {
      const queries: [string, string][] = [
        ['a 4 KB query', 'quokka '.repeat(600)],
        ['control characters', 'quo\u0000kka\u0007\u001b[31m zebra\r\n'],
        ['emoji', '🦘 quokka 👩‍👩‍👧 zebra'],
        ['filter syntax', 'type:category OR status:unpublished'],
        ['SQL fragments', "quokka'; DROP TABLE product_groups; --"],
        ['a lone surrogate', 'quokka \ud800 zebra'],
        ['only punctuation', '"()<>!:*'],
      ]
      for (const [label, query] of queries) {
        it(`answers ${label} with 200 and sane results`, async () => {
          const result = await search(query)
          expect(result.hits.every((h) => h.status === 'published' && h.type === 'product')).toBe(true)
        })
      }

      it('never lets filter syntax in the query reach unpublished records', async () => {
        const result = await search('quokka zebra draft status:unpublished')
        expect(names(result)).toEqual([])
      })

      const bad: [string, unknown][] = [
        ['no requests', {}],
        ['too many queries', { requests: Array.from({ length: 6 }, () => ({ indexName: 'products' })) }],
        ['an unknown index', { requests: [{ indexName: 'customers', query: 'x' }] }],
        ['a bad filter', { requests: [{ indexName: 'products', filters: 'type:a OR (b:c AND d:e)' }] }],
        ['an unknown filter attribute', { requests: [{ indexName: 'products', filters: 'password:x' }] }],
        ['a huge page size', { requests: [{ indexName: 'products', hitsPerPage: 100000 }] }],
        ['a negative page', { requests: [{ indexName: 'products', page: -1 }] }],
        ['a non-string query', { requests: [{ indexName: 'products', query: { $ne: 1 } }] }],
      ]
      for (const [label, payload] of bad) {
        it(`answers ${label} with 400 and a message`, async () => {
          const res = await t.app.inject({
            method: 'POST',
            url: '/search/1/indexes/*/queries',
            headers,
            payload: JSON.stringify(payload),
          })
          expect(res.statusCode).toBe(400)
          expect(res.json()).toMatchObject({ status: 400, message: expect.any(String) })
        })
      }

      it('answers a body that is not JSON with 400', async () => {
        const res = await t.app.inject({
          method: 'POST',
          url: '/search/1/indexes/*/queries',
          headers,
          payload: '{"requests": [',
        })
        expect(res.statusCode).toBe(400)
      })
    })

    describe('click analytics and suggestions', () => {
      it('stores clicks against a logged query and ignores unknown query ids', async () => {
        const result = await search('quokka zebra', 'type:product', { clickAnalytics: true })
        const event = {
          eventType: 'click',
          eventName: 'Search result clicked',
          index: 'products',
          queryID: result.queryID,
          objectIDs: [result.hits[0]!.objectID],
          positions: [1],
          userToken: 'anonymous-abc',
        }
        const post = (events: unknown[]) =>
          t.app.inject({
            method: 'POST',
            url: '/search/insights/1/events',
            headers,
            payload: JSON.stringify({ events }),
          })
        const res = await post([event, { ...event, queryID: 'f'.repeat(32) }])
        expect(res.statusCode).toBe(200)
        const rows = await t.app.db.select().from(searchClicks).where(eq(searchClicks.siteId, siteId))
        expect(rows.map((r) => [r.queryId, r.objectId, r.position])).toEqual([
          [result.queryID, `product-${zebra.id}`, 1],
        ])

        expect((await post([{ ...event, positions: [1, 2] }])).statusCode).toBe(400)
        expect((await post([{ ...event, queryID: 'not-hex' }])).statusCode).toBe(400)
        expect((await post([{ ...event, positions: [0] }])).statusCode).toBe(400)
      })

      it('suggests past submitted searches that had results, and not those without', async () => {
        expect((await visit('/search?q=Quokka+Wombat')).statusCode).toBe(200)
        expect((await visit('/search?q=quokka+wombat')).statusCode).toBe(200)
        expect((await visit('/search?q=quokka+nothingmatches')).statusCode).toBe(200)
        await t.app.searchService.flush()
        await t.app.searchService.idle()
        const logged = await t.app.db.select().from(searchQueries).where(eq(searchQueries.submitted, true))
        expect(logged.map((q) => q.query)).toContain('quokka wombat')
        const res = await multi([{ indexName: 'products_query_suggestions', query: 'quok', hitsPerPage: 5 }])
        const hits = (res.json() as { results: SearchResult<{ query: string; popularity: number }>[] })
          .results[0]!.hits
        expect(hits.map((h) => [h.query, h.popularity])).toEqual([['quokka wombat', 2]])
      })

      it('records nothing for an internal address', async () => {
        t.app.config.search.internalIps.push('127.0.0.1')
        try {
          const result = await search('quokka', 'type:product', { clickAnalytics: true })
          expect(result.queryID).toBeUndefined()
          const page = await visit('/search?q=quokka')
          expect(page.json().props.search.clickAnalytics).toBe(false)
        } finally {
          t.app.config.search.internalIps.length = 0
        }
      })
    })

    describe('the Search page', () => {
      it("lists matching published products with the listing's sort and pagination", async () => {
        const res = await visit('/search?q=wombat+panel&sort=price-low_high&page=2')
        expect(res.statusCode).toBe(200)
        const page = res.json()
        expect(page.component).toBe('Search')
        expect(page.props.query).toBe('wombat panel')
        expect(page.props.listing.pagination).toMatchObject({
          page: 2,
          total_pages: 2,
          total_results: 12,
          from: 11,
          to: 12,
        })
        expect(page.props.listing.results.map((r: { name: string }) => r.name)).toEqual([
          'Quokka Wombat Panel 02',
          'Quokka Wombat Panel 01',
        ])
        expect(page.props.listing.sort).toBe('price-low_high')
        expect(page.props.queryID).toMatch(/^[0-9a-f]{32}$/)
        expect(page.props.bestSellers).toBeNull()
        // Content areas come from the content store: the demo shop has an after-results story only,
        // and the no-results area is only looked up when nothing matched.
        expect(page.props.content.beforeResults).toBeNull()
        expect(page.props.content.afterResults[0].component).toBe('text')
        expect(page.props.content.noResults).toBeNull()
      })

      it('shows the last page for a page beyond it, and sorts by name', async () => {
        const page = (await visit('/search?q=wombat&page=99&sort=name-desc')).json()
        expect(page.props.listing.pagination.page).toBe(2)
        expect(page.props.listing.results.map((r: { name: string }) => r.name)).toEqual([
          'Quokka Wombat Panel 02',
          'Quokka Wombat Panel 01',
        ])
      })

      it('shows best sellers when nothing matches', async () => {
        const page = (await visit('/search?q=xylophonequartz')).json()
        expect(page.props.listing.results).toEqual([])
        expect(page.props.listing.pagination.total_results).toBe(0)
        expect(page.props.bestSellers.length).toBe(8)
        expect(page.props.content.noResults[0].component).toBe('text')
        // The clicked product is the best seller.
        expect(page.props.bestSellers[0].name).toBe('Quokka Zebra Crossing Sign')
      })

      it('renders a first load with no queryID in its page object and gives the queryID in the head for clicks', async () => {
        const load = async () => {
          const res = await t.app.inject({ url: '/search?q=quokka+zebra', headers: { host: 'localhost' } })
          expect(res.statusCode).toBe(200)
          const page = JSON.parse(
            /<script data-page="app" type="application\/json">(.*?)<\/script>/s.exec(res.body)![1]!,
          )
          const block = /<script type="application\/json" data-search-query-id>(.*?)<\/script>/s.exec(
            res.body,
          )
          return { page, head: JSON.parse(block![1]!) as { url: string; queryID: string } }
        }
        const first = await load()
        const second = await load()
        // The same page object for every visitor: the memoised server render is reused.
        expect(first.page.props.queryID).toBeNull()
        expect(second.page).toEqual(first.page)
        expect(first.head.url).toBe(first.page.url)
        expect(first.head.queryID).toMatch(/^[0-9a-f]{32}$/)
        expect(second.head.queryID).not.toBe(first.head.queryID)

        // A click sent with the head's queryID is stored against the logged search.
        const res = await t.app.inject({
          method: 'POST',
          url: '/search/insights/1/events',
          headers,
          payload: JSON.stringify({
            events: [
              {
                eventType: 'click',
                eventName: 'Search result clicked',
                index: 'products',
                queryID: first.head.queryID,
                objectIDs: [`product-${zebra.id}`],
                positions: [1],
              },
            ],
          }),
        })
        expect(res.statusCode).toBe(200)
        const rows = await t.app.db
          .select()
          .from(searchClicks)
          .where(eq(searchClicks.queryId, first.head.queryID))
        expect(rows.map((r) => r.objectId)).toEqual([`product-${zebra.id}`])

        // An Inertia visit still carries the queryID in its props.
        expect((await visit('/search?q=quokka+zebra')).json().props.queryID).toMatch(/^[0-9a-f]{32}$/)
      })

      it('gives no queryID in the head when analytics are off', async () => {
        t.app.config.search.internalIps.push('127.0.0.1')
        try {
          const res = await t.app.inject({ url: '/search?q=quokka+zebra', headers: { host: 'localhost' } })
          expect(res.statusCode).toBe(200)
          expect(res.body).not.toContain('data-search-query-id')
        } finally {
          t.app.config.search.internalIps.length = 0
        }
      })

      it("shows a changed product's tile after a catalogue change, made here or announced by another instance", async () => {
        const numbat = await createListedProduct(t.app.db, {
          siteId,
          categoryId: category.id,
          name: 'Quokka Numbat Tile',
          minPrice: 500,
        })
        t.app.catalog.invalidate({ siteId, groupIds: [numbat.id] })
        await t.app.searchService.idle()
        const tileNames = async () =>
          (await visit('/search?q=numbat')).json().props.listing.results.map((r: { name: string }) => r.name)
        expect(await tileNames()).toEqual(['Quokka Numbat Tile'])

        // Written without telling the catalogue: the tile is served from the cache.
        const rename = (name: string) =>
          t.app.db.update(productGroups).set({ name }).where(eq(productGroups.id, numbat.id))
        await rename('Quokka Numbat Tile Renamed')
        expect(await tileNames()).toEqual(['Quokka Numbat Tile'])

        // A write on this instance invalidates the catalogue: the tile is read again.
        t.app.catalog.invalidate({ siteId, groupIds: [numbat.id] })
        await t.app.searchService.idle()
        expect(await tileNames()).toEqual(['Quokka Numbat Tile Renamed'])

        // A write on another instance arrives on the change bus's catalog topic.
        await rename('Quokka Numbat Tile Again')
        expect(await tileNames()).toEqual(['Quokka Numbat Tile Renamed'])
        const bus = t.app.changes as unknown as { receive(text: string): Promise<void> }
        await bus.receive(
          JSON.stringify({ o: 'another-instance', t: 'catalog', p: { siteId, groupIds: [numbat.id] } }),
        )
        await t.app.searchService.idle()
        expect(await tileNames()).toEqual(['Quokka Numbat Tile Again'])

        // Unpublished on another instance: the hit and its tile are gone.
        await t.app.db.update(productGroups).set({ published: false }).where(eq(productGroups.id, numbat.id))
        await bus.receive(
          JSON.stringify({ o: 'another-instance', t: 'catalog', p: { siteId, groupIds: [numbat.id] } }),
        )
        await t.app.searchService.idle()
        expect(await tileNames()).toEqual([])
      })

      it('renders for an empty or junk query without searching', async () => {
        for (const url of ['/search', '/search?q=', '/search?q[]=a&q[]=b', '/search?q=%20%20']) {
          const res = await visit(url)
          expect(res.statusCode, url).toBe(200)
        }
        // Control characters are refused before any search runs (the input guard): a 400, not a 500.
        expect((await visit('/search?q=%00%01')).statusCode).toBe(400)
      })
    })
  })
}

searchContract('embedded engine', async () => ({}))

const standIn = new AlgoliaStandIn()
searchContract(
  'Algolia adapter against the stand-in',
  async () => {
    await standIn.start()
    const base = loadConfig({ NODE_ENV: 'test' })
    return {
      search: {
        ...base.search,
        engine: 'algolia',
        algolia: {
          appId: standIn.appId,
          apiKey: standIn.apiKey,
          indexPrefix: 'test_',
          // The first host refuses connections: the client marks it down and moves on.
          hosts: [
            { url: '127.0.0.1', port: 9, protocol: 'http' },
            { url: '127.0.0.1', port: Number(new URL(standIn.url).port), protocol: 'http' },
          ],
          insightsHost: null,
        },
      },
    }
  },
  () => standIn.stop(),
)

describe('the Algolia adapter', () => {
  it('sets the spec timeouts on the client: connect 1 s, read 2 s, write 30 s', () => {
    const engine = new AlgoliaSearchEngine({
      appId: 'APP',
      apiKey: 'key',
      indexPrefix: 'shop_',
      hosts: null,
      insightsHost: null,
    })
    expect(engine.client.transporter.timeouts).toEqual({ connect: 1000, read: 2000, write: 30000 })
    expect(engine.indexName(3, 'products', 'price_asc')).toBe('shop_site3_products_price_asc')
  })

  it('pushed settings, records and forwarded clicks to the stand-in under site index names', () => {
    const paths = standIn.requests.map((r) => `${r.method} ${r.path}`)
    expect(paths).toContain('PUT /1/indexes/test_site1_products/settings')
    expect(paths).toContain('PUT /1/indexes/test_site1_products_price_asc/settings')
    // A full rebuild fills a temporary copy and moves it over the live index, never clearing it.
    expect(paths).toContainEqual(
      expect.stringMatching(/^POST \/1\/indexes\/test_site1_products_tmp_\d+\/batch$/),
    )
    expect(paths).toContainEqual(
      expect.stringMatching(/^POST \/1\/indexes\/test_site1_products_tmp_\d+\/operation$/),
    )
    expect(paths).not.toContain('POST /1/indexes/test_site1_products/clear')
    expect(paths).toContain('POST /1/indexes/*/queries')
    expect(standIn.events).toContainEqual(
      expect.objectContaining({ eventType: 'click', index: 'test_site1_products', positions: [1] }),
    )
  })
})
