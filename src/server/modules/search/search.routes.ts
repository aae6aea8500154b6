/**
 * Search over HTTP, in Algolia's REST shapes so the same client code works with either engine:
 *   POST /search/1/indexes/{star}/queries  multi-query  {requests:[…]} → {results:[…]}
 *   POST /search/1/indexes/:index/query    one query    {query, …}    → result
 *   POST /search/insights/1/events         click events {events:[…]}  → {status, message}
 * and the `Search` page at GET /search?q=&sort=&page=.
 *
 * The site comes from the Host header; index names are logical ('products', its sort replicas,
 * 'products_query_suggestions'). Bad input is a 400 `{message, status}`, as Algolia answers.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { ListingProps, ProductTileData, SearchPageProps } from '../../../shared/listing.ts'
import { clampPage, paginationMeta } from '../../../shared/pagination.ts'
import { serializeJsonLd } from '../../../shared/breadcrumbs.ts'
import {
  cleanQuery,
  FIRST_LOAD_QUERY_ID_ATTRIBUTE,
  PRODUCTS_INDEX,
  SEARCH_PAGE_FILTER,
  type SearchHit,
} from '../../../shared/search.ts'
import type { SortKey } from '../../../shared/sorting.ts'
import { parseListingQuery } from '../catalog/listing.ts'
import { parseObjectId } from './documents.ts'
import { PAGINATION_LIMIT } from './engine.ts'
import type { ProductReplica } from './search.engine.ts'
import { SearchRequestError, SearchUnavailableError } from './search.service.ts'
import { FilterError } from './filters.ts'

/** Spec: 'Best selling products' grid size when nothing matches. */
export const BEST_SELLERS_COUNT = 8

const REPLICA_OF_SORT: Record<SortKey, ProductReplica | null> = {
  '': null,
  'name-asc': 'name_asc',
  'name-desc': 'name_desc',
  // Labelled 'Price (Low to High)': cheapest first (see shared/sorting.ts).
  'price-high_low': 'price_asc',
  'price-low_high': 'price_desc',
  new: 'newest',
}

function indexFor(sort: SortKey): string {
  const replica = REPLICA_OF_SORT[sort]
  return replica ? `${PRODUCTS_INDEX}_${replica}` : PRODUCTS_INDEX
}

/** Whether this visitor's searches are recorded (spec: analytics on unless the address is internal). */
export function analyticsFor(request: FastifyRequest): boolean {
  return !request.server.config.search.internalIps.includes(request.ip)
}

function badRequest(reply: FastifyReply, message: string) {
  return reply.code(400).send({ message, status: 400 })
}

function tilesFor(request: FastifyRequest, siteId: number, ids: number[]): Promise<ProductTileData[]> {
  return request.server.searchService.tiles.get(siteId, ids)
}

export async function searchRoutes(app: FastifyInstance) {
  const limit = { rateLimit: { max: app.config.search.rateLimitPerMinute, timeWindow: 60_000 } }

  const handle = async (request: FastifyRequest, reply: FastifyReply, run: () => Promise<unknown>) => {
    if (!request.site) return reply.code(404).send({ message: 'Unknown site', status: 404 })
    try {
      return await run()
    } catch (err) {
      if (err instanceof SearchRequestError || err instanceof FilterError)
        return badRequest(reply, err.message)
      if (err instanceof SearchUnavailableError) {
        request.log.error({ err: err.cause }, 'search engine unavailable')
        return reply.code(503).send({ message: err.message, status: 503 })
      }
      throw err
    }
  }

  // Fastify allows a wildcard only at the end of a path: the '*' is a parameter checked here.
  app.post('/search/1/indexes/:all/queries', { config: limit }, (request, reply) =>
    handle(request, reply, async () => {
      if ((request.params as { all: string }).all !== '*') return reply.callNotFound()
      const body = app.searchService.parseBody(request.body)
      const results = await app.searchService.search(request.site!.id, body, {
        analytics: analyticsFor(request),
      })
      return { results }
    }),
  )

  app.post('/search/1/indexes/:indexName/query', { config: limit }, (request, reply) =>
    handle(request, reply, async () => {
      const { indexName } = request.params as { indexName: string }
      const params = request.body && typeof request.body === 'object' ? request.body : {}
      const body = app.searchService.parseBody({ requests: [{ ...params, indexName }] })
      const [result] = await app.searchService.search(request.site!.id, body, {
        analytics: analyticsFor(request),
      })
      return result
    }),
  )

  app.post('/search/insights/1/events', { config: limit }, (request, reply) =>
    handle(request, reply, async () => {
      const events = app.searchService.parseEvents(request.body)
      if (!analyticsFor(request)) return { status: 200, message: 'OK' }
      await app.searchService.recordClicks(request.site!.id, events)
      return { status: 200, message: 'OK' }
    }),
  )

  app.get('/search', { config: limit }, async (request, reply) => {
    const site = request.site
    if (!site) return reply.callNotFound()
    const raw = (request.query as Record<string, unknown>).q
    const query = cleanQuery(Array.isArray(raw) ? raw[0] : raw)
    const listingQuery = parseListingQuery(request.query)
    const analytics = analyticsFor(request)

    // Redirect rules are loaded with the index: right after start, wait for its first build.
    if (query) await app.searchService.ready()
    const redirect = query ? app.searchService.redirectFor(site.id, query) : null
    if (redirect) return reply.inertia.location(redirect)

    const run = (page: number) =>
      app.searchService.search(
        site.id,
        {
          requests: [
            {
              indexName: indexFor(listingQuery.sort),
              query,
              filters: SEARCH_PAGE_FILTER,
              hitsPerPage: listingQuery.limit,
              page: page - 1,
              clickAnalytics: analytics,
            },
          ],
        },
        { analytics, submitted: true },
      )
    let result
    let page: number
    let total: number
    try {
      result = query ? (await run(listingQuery.page))[0]! : null
      total = result ? Math.min(result.nbHits, PAGINATION_LIMIT) : 0
      page = clampPage(listingQuery.page, total, listingQuery.limit)
      if (result && page !== listingQuery.page) result = (await run(page))[0]!
    } catch (err) {
      if (!(err instanceof SearchUnavailableError)) throw err
      request.log.error({ err: err.cause }, 'search engine unavailable')
      return reply.inertia.render('Error', { status: 503, message: err.message }, { status: 503 })
    }

    const ids = (result?.hits ?? []).flatMap((h) => {
      const parsed = parseObjectId((h as SearchHit).objectID)
      return parsed?.type === 'product' ? [parsed.id] : []
    })
    const results = await tilesFor(request, site.id, ids)
    const listing: ListingProps = {
      results,
      pagination: paginationMeta(page, total, listingQuery.limit),
      sort: listingQuery.sort,
    }
    const noResults = total === 0
    const bestSellers =
      noResults && app.config.search.bestSellers
        ? await tilesFor(request, site.id, await app.searchService.bestSellerIds(site.id, BEST_SELLERS_COUNT))
        : null
    const queryID = result?.queryID ?? null
    // A first load (HTML) renders with queryID null, so the page object, and with it the
    // memoised server render, is the same for every visitor of this search; the queryID goes in
    // a data block of the document's head, which the page reads when a result is clicked.
    const firstLoad = !request.headers['x-inertia']
    const props: SearchPageProps = {
      query,
      listing,
      queryID: firstLoad ? null : queryID,
      content: {
        beforeResults: await app.content.optionalBlocks(site.id, 'search/before-results'),
        afterResults: await app.content.optionalBlocks(site.id, 'search/after-results'),
        noResults: noResults ? await app.content.optionalBlocks(site.id, 'search/no-results') : null,
      },
      bestSellers,
    }
    const head =
      firstLoad && queryID
        ? [
            `<script type="application/json" ${FIRST_LOAD_QUERY_ID_ATTRIBUTE}>${serializeJsonLd({ url: request.url, queryID })}</script>`,
          ]
        : undefined
    return reply.inertia.render('Search', { ...props }, head ? { head } : {})
  })
}
