/**
 * Connects every in-process cache to the change bus (ADR 0081): what one instance writes, the
 * others hear about and drop or refresh.
 *
 * | cache | topic | on another instance |
 * |---|---|---|
 * | catalogue paths, top-level categories, product/category pages and tiles (`catalog.version`) | `catalog` | `catalog.invalidate(change)` |
 * | search result tiles (SearchService.tiles, per `catalog.version`, ADR 0112) | `catalog` (same change) | dropped with the version |
 * | search index | `catalog` (same change) | re-indexes the changed rows (SearchService listens to the catalogue) |
 * | search redirect rules | `search-redirects` | re-reads the site's rules |
 * | content stories, site settings, header message (SiteRegistry follows content) | `content` | Storyblok: refresh the cache version; then drop |
 * | header basket summary and Cart page read (ADR 0115) | `cart-summary` | drops that basket's entries |
 * | Cart page reads (ADR 0115) | `catalog` (any change) | drops them all (also on this instance) |
 * | delivery rates | `delivery-rates` | drops the rates |
 * | database sessions (wired in plugins/session.ts, ADR 0106) | `session` | drops that session |
 * | customer facts (wired in modules/auth/auth.plugin.ts, ADR 0106) | `customer` | drops them and every cached session |
 *
 * When the listening connection was lost, notifications may have been missed: every cache is
 * dropped on reconnection (`onReset`).
 */
import type { FastifyBaseLogger } from 'fastify'
import type { CatalogChange, CatalogService } from '../modules/catalog/catalog.service.ts'
import type { CartService } from '../modules/cart/cart.service.ts'
import type { ContentService } from '../modules/content/content.service.ts'
import type { SearchService } from '../modules/search/search.service.ts'
import type { SiteRegistry } from '../modules/sites/sites.service.ts'
import type { ChangeBus } from './change-bus.ts'

export interface Caches {
  catalog: CatalogService
  content: ContentService
  carts: CartService
  searchService: SearchService
  sites: SiteRegistry
  /** Storyblok: re-reads every site's cache version (the webhook did this on the first instance). */
  refreshContentVersion?: () => Promise<void>
}

function ids(value: unknown): number[] | undefined {
  return Array.isArray(value) ? value.filter((v): v is number => Number.isInteger(v)) : undefined
}

export function connectCaches(bus: ChangeBus, caches: Caches, log?: FastifyBaseLogger): void {
  const { catalog, content, carts, searchService, sites } = caches
  // A change applied because another instance announced it is not announced again.
  let remote = false
  // Synchronous on purpose: a local write between setting and clearing the flag is impossible.
  const applying = (fn: () => void) => {
    remote = true
    try {
      fn()
    } finally {
      remote = false
    }
  }

  catalog.onChange((change) => {
    if (!remote) bus.publish('catalog', { ...change })
  })
  bus.on('catalog', (p) => {
    const change: CatalogChange = p.truncated
      ? {}
      : {
          ...(typeof p.siteId === 'number' ? { siteId: p.siteId } : {}),
          ...(ids(p.groupIds) ? { groupIds: ids(p.groupIds) } : {}),
          ...(ids(p.categoryIds) ? { categoryIds: ids(p.categoryIds) } : {}),
        }
    return applying(() => catalog.invalidate(change))
  })

  content.onInvalidate(() => {
    if (!remote) bus.publish('content')
  })
  bus.on('content', async () => {
    if (caches.refreshContentVersion) {
      await caches
        .refreshContentVersion()
        .catch((err: unknown) => log?.error({ err }, 'content refresh failed'))
    }
    applying(() => content.invalidate())
  })

  searchService.onRedirectsChange((siteId) => bus.publish('search-redirects', { siteId }))
  bus.on('search-redirects', (p) =>
    typeof p.siteId === 'number' ? searchService.refreshRedirects(p.siteId) : undefined,
  )

  carts.onChange((change) => {
    if (change.kind === 'summary')
      bus.publish('cart-summary', { siteId: change.siteId, cartId: change.cartId })
    else bus.publish('delivery-rates')
  })
  bus.on('cart-summary', (p) => {
    if (typeof p.siteId === 'number' && typeof p.cartId === 'string') carts.forgetCart(p.siteId, p.cartId)
  })
  bus.on('delivery-rates', () => carts.forgetRates())
  // A kept Cart page read holds the catalogue's prices and names: any catalogue change, made here
  // or announced by another instance (both call catalog.invalidate), drops them all.
  catalog.onChange(() => carts.forgetShownBaskets())

  // A full catalogue invalidation also rebuilds the search index and re-reads redirect rules.
  bus.onReset(() => {
    applying(() => {
      catalog.invalidate()
      content.invalidate()
    })
    carts.forgetAll()
    sites.invalidate()
  })
}
