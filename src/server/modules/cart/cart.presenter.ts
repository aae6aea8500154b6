/** Props of the `Cart` page. */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { LRUCache } from 'lru-cache'
import type { Cart, CartPageProps } from '../../../shared/cart.ts'
import type { ProductTileData } from '../../../shared/listing.ts'
import { findProductTiles } from '../catalog/listing.ts'
import { presentProductTile } from '../catalog/category.presenter.ts'
import type { CartContext } from './cart.service.ts'

const SUGGESTIONS = 4
const suggestionCache = new LRUCache<string, ProductTileData[]>({ max: 100, ttl: 5 * 60_000 })

async function suggestionsFor(app: FastifyInstance, siteId: number): Promise<ProductTileData[]> {
  const key = `${siteId}:${app.catalog.version}`
  const cached = suggestionCache.get(key)
  if (cached) return cached
  const rows = await findProductTiles(app.db, { siteId, firstPriced: SUGGESTIONS })
  const tiles = rows.map(presentProductTile)
  suggestionCache.set(key, tiles)
  return tiles
}

export async function presentCartPage(
  app: FastifyInstance,
  _request: FastifyRequest,
  basket: Cart,
  ctx: CartContext,
): Promise<CartPageProps> {
  const siteId = ctx.site.id
  const [afterSummary, afterNavigation, suggestions] = await Promise.all([
    app.content.optionalBlocks(siteId, 'basket/after-summary'),
    app.content.optionalBlocks(siteId, 'basket/after-navigation'),
    basket.items.length === 0 ? suggestionsFor(app, siteId) : Promise.resolve([]),
  ])
  return {
    basket,
    canSave: ctx.customerId !== null && ctx.customerId !== undefined,
    suggestions,
    content: {
      afterSummary,
      afterNavigation,
    },
  }
}
