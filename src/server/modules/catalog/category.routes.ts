/**
 * Category pages. storefront.routes.ts resolves a path to a published category and calls
 * renderCategoryPage, which picks the page by the category's display: 'grid' renders `Category`
 * (child categories and products in one grid), 'paginated' renders `CategoryPaginated` (sortable,
 * paged listing).
 *
 * Presented props are cached per app in a bounded LRU keyed by site, category, sort, page, limit
 * and the catalogue version (bumped by every catalogue write), so a write makes old entries
 * unreachable at once. Only catalogue data goes in: the canonical URL (per request host) and
 * everything per visitor (customer, basket, VAT choice) stay outside.
 */
import { siteBaseUrl } from '../sites/site-url.ts'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { LRUCache } from 'lru-cache'
import type {
  CategoryHeader,
  CategoryPageProps,
  CategoryPaginatedPageProps,
  ProductTileData,
} from '../../../shared/listing.ts'
import type { Breadcrumb } from '../../../shared/page-props.ts'
import { clampPage, pageOffset, paginationMeta } from '../../../shared/pagination.ts'
import type { Db } from '../../db/client.ts'
import type { CatalogService } from './catalog.service.ts'
import { findCategoryAncestors, findCategoryById, findChildCategories } from './catalog.queries.ts'
import type { CategoryRow } from './catalog.tables.ts'
import {
  metaDescriptionOf,
  presentBreadcrumbs,
  presentCategoryHeader,
  presentCategoryTile,
  presentProductTile,
} from './category.presenter.ts'
import { countCategoryProducts, findCategoryProducts, parseListingQuery } from './listing.ts'

/** The Category (grid) page shows at most this many products; larger ranges should be paginated. */
export const GRID_PRODUCT_LIMIT = 200

interface CategoryCore {
  display: CategoryRow['display']
  header: CategoryHeader
  breadcrumbs: Breadcrumb[]
  metaDescription: string
}

type CacheValue = CategoryCore | null | number | ProductTileData[] | { subcategories: ProductTileData[] }

const caches = new WeakMap<CatalogService, LRUCache<string, { value: CacheValue }>>()

function cacheOf(catalog: CatalogService) {
  let cache = caches.get(catalog)
  if (!cache) {
    cache = new LRUCache({ max: 5000, ttl: 10 * 60_000 })
    caches.set(catalog, cache)
  }
  return cache
}

async function cached<T extends CacheValue>(
  catalog: CatalogService,
  key: string,
  load: () => Promise<T>,
): Promise<T> {
  const cache = cacheOf(catalog)
  const fullKey = `${catalog.version}:${key}`
  const hit = cache.get(fullKey)
  if (hit) return hit.value as T
  const value = await load()
  cache.set(fullKey, { value })
  return value
}

async function loadCore(db: Db, siteId: number, id: number): Promise<CategoryCore | null> {
  const category = await findCategoryById(db, siteId, id)
  if (!category || !category.published) return null
  return {
    display: category.display,
    header: presentCategoryHeader(category),
    breadcrumbs: presentBreadcrumbs(category, await findCategoryAncestors(db, category)),
    metaDescription: metaDescriptionOf(category),
  }
}

/** Renders `Category` or `CategoryPaginated` for a category id (Not Found when unpublished). */
export async function renderCategoryPage(request: FastifyRequest, reply: FastifyReply, categoryId: number) {
  const site = request.site
  if (!site) return reply.callNotFound()
  const { catalog, db } = request.server
  const core = await cached(catalog, `${site.id}:${categoryId}:core`, () => loadCore(db, site.id, categoryId))
  if (!core) return reply.callNotFound()

  const canonicalBase = `${siteBaseUrl(request)}${core.header.url}`
  const base = {
    category: core.header,
    breadcrumbs: core.breadcrumbs,
    metaDescription: core.metaDescription,
  }

  if (core.display === 'grid') {
    const [{ subcategories }, products] = await Promise.all([
      cached(catalog, `${site.id}:${categoryId}:children`, async () => ({
        subcategories: (await findChildCategories(db, site.id, categoryId)).map(presentCategoryTile),
      })),
      cached(catalog, `${site.id}:${categoryId}:grid`, async () =>
        (
          await findCategoryProducts(db, {
            siteId: site.id,
            categoryId,
            sort: '',
            limit: GRID_PRODUCT_LIMIT,
            offset: 0,
          })
        ).map(presentProductTile),
      ),
    ])
    const props: CategoryPageProps = { ...base, canonical: canonicalBase, subcategories, products }
    return reply.inertia.render('Category', { ...props })
  }

  const query = parseListingQuery(request.query)
  const total = await cached(catalog, `${site.id}:${categoryId}:count`, () =>
    countCategoryProducts(db, site.id, categoryId),
  )
  // Junk and out-of-range pages collapse onto real pages before they reach the cache key.
  const page = clampPage(query.page, total, query.limit)
  const results = await cached(
    catalog,
    `${site.id}:${categoryId}:list:${query.sort}:${page}:${query.limit}`,
    async () =>
      (
        await findCategoryProducts(db, {
          siteId: site.id,
          categoryId,
          sort: query.sort,
          limit: query.limit,
          offset: pageOffset(page, query.limit),
        })
      ).map(presentProductTile),
  )
  const props: CategoryPaginatedPageProps = {
    ...base,
    canonical: page > 1 ? `${canonicalBase}?page=${page}` : canonicalBase,
    listing: { results, pagination: paginationMeta(page, total, query.limit), sort: query.sort },
  }
  return reply.inertia.render('CategoryPaginated', { ...props })
}
