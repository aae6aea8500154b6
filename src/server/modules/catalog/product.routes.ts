/**
 * The Product page. The storefront dispatcher resolves a path to a product group and calls
 * renderProductPage. The presented product (identical for every visitor) is kept in a bounded LRU
 * per app, keyed by site, base URL, path and `app.catalog.version`, so a catalogue write
 * (`app.catalog.invalidate()`) makes every cached entry stale at once. Per-visit data (?sku=)
 * is added after the cache.
 */
import { siteBaseUrl } from '../sites/site-url.ts'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { LRUCache } from 'lru-cache'
import { serializeJsonLd } from '../../../shared/breadcrumbs.ts'
import type { ProductPageProps } from '../../../shared/product.ts'
import { presentProduct, productSettings, type PresentedProduct } from './product.presenter.ts'
import { loadProductRecord } from './product.queries.ts'

const MISSING = Symbol('missing')
type Entry = PresentedProduct | typeof MISSING

const caches = new WeakMap<FastifyInstance, LRUCache<string, Entry>>()

function cacheOf(app: FastifyInstance): LRUCache<string, Entry> {
  let cache = caches.get(app)
  if (!cache) {
    cache = new LRUCache<string, Entry>({ max: 2000, ttl: 5 * 60_000 })
    caches.set(app, cache)
  }
  return cache
}

/** Drops every cached product of an app (tests; writes should call app.catalog.invalidate()). */
export function clearProductCache(app: FastifyInstance): void {
  caches.get(app)?.clear()
}

function requestPath(request: FastifyRequest): string {
  const path = request.url.split('?', 1)[0] ?? '/'
  return path.replace(/\/+$/, '') || '/'
}

/** The ?sku= of a visit, when it names a SKU in one of the product's grids. */
function selectedSku(request: FastifyRequest, product: PresentedProduct): string | null {
  const raw = (request.query as Record<string, unknown> | undefined)?.sku
  if (typeof raw !== 'string' || !raw.trim() || raw.length > 100) return null
  const wanted = raw.trim().toLowerCase()
  for (const grid of product.product.grids)
    for (const row of grid.rows)
      for (const option of row.options) if (option.sku.toLowerCase() === wanted) return option.sku
  return null
}

export async function renderProductPage(request: FastifyRequest, reply: FastifyReply, groupId: number) {
  const site = request.site
  if (!site) return reply.callNotFound()
  const app = request.server
  const baseUrl = siteBaseUrl(request)
  const key = `${site.id}\n${baseUrl}\n${requestPath(request)}\n${app.catalog.version}`
  const cache = cacheOf(app)
  let entry = cache.get(key)
  if (entry === undefined) {
    const settings = productSettings(site.settings)
    const record = await loadProductRecord(app.db, site.id, groupId, settings.alternativesLimit)
    entry = record
      ? presentProduct(record, {
          site: { name: site.name, currency: site.currency, logo: site.logo },
          baseUrl,
          settings,
        })
      : MISSING
    if (entry !== MISSING && entry.product.gallery === null) {
      request.log.warn({ groupId }, 'product media is not a list')
    }
    cache.set(key, entry)
  }
  if (entry === MISSING) return reply.callNotFound()
  const { jsonLd, ...presented } = entry
  const props: ProductPageProps = {
    ...presented,
    selectedSku: selectedSku(request, entry),
    // The Shelters layout's customer reviews widget loads the site's reviews script (spec §2).
    reviews:
      entry.product.layout === 'SheltersLayout' ? await app.content.reviewsWidgetConfig(site.id) : null,
  }
  // The Product structured data goes only into the first load's head, once (ADR 0104): as a page
  // prop it was sent twice in the HTML (the page object and the head) and with every visit.
  return reply.inertia.render('Product', props as unknown as Record<string, unknown>, {
    head: [`<script type="application/ld+json" data-product-json-ld>${serializeJsonLd(jsonLd)}</script>`],
  })
}
