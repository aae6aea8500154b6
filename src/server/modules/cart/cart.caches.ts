/**
 * The basket's in-process caches and who is told when they go stale. One instance of the shop
 * holds one `BasketCaches`; another instance learns of this one's writes only through the change
 * listeners (ops/cache-signals.ts puts them on the change bus) and forgets its own entries when
 * told (ADR 0081, ADR 0115, cart.read-cache.ts):
 *
 * - header summaries by site and cart id, 10 s at most; every write of this instance refreshes
 *   its entry and announces `summary`;
 * - delivery rates by site, 60 s at most; an edit clears them and announces `rates`;
 * - the Cart page's kept reads by cart id (`BasketReadCache`), 10 s at most, forgotten before and
 *   after every write and by any catalogue change.
 */
import { asc, eq } from 'drizzle-orm'
import { LRUCache } from 'lru-cache'
import type { CartSummary } from '../../../shared/page-props.ts'
import type { Executor } from '../../db/client.ts'
import { BASKET_READ_TTL_MS, BasketReadCache } from './cart.read-cache.ts'
import { deliveryRates, type DeliveryRateRow } from './cart.tables.ts'
import type { BasketRead, CartCacheChange } from './cart.types.ts'

export class BasketCaches {
  /**
   * Header summaries by `siteId:cartId`; every write in this process refreshes its entry. 10k
   * baskets active within the 10 s lifetime is plenty, and lru-cache allocates its arrays for
   * `max` up front.
   */
  private readonly summaries = new LRUCache<string, CartSummary>({ max: 10_000, ttl: 10_000 })
  private readonly ratesBySite = new LRUCache<number, DeliveryRateRow[]>({ max: 1000, ttl: 60_000 })
  /** The Cart page's reads by cart id (cart.read-cache.ts says how it learns of changes). */
  readonly shown = new BasketReadCache<BasketRead>({ max: 10_000, ttlMs: BASKET_READ_TTL_MS })

  /** Told of every write to a basket's header summary or to delivery rates (other instances). */
  private readonly changeListeners = new Set<(change: CartCacheChange) => void>()

  /** Calls `listener` after this process changed a basket or delivery rates; returns unsubscribe. */
  onChange(listener: (change: CartCacheChange) => void): () => void {
    this.changeListeners.add(listener)
    return () => this.changeListeners.delete(listener)
  }

  private changed(change: CartCacheChange): void {
    for (const listener of this.changeListeners) listener(change)
  }

  /** A kept header summary (undefined: not kept). */
  summary(siteId: number, cartId: string): CartSummary | undefined {
    return this.summaries.get(`${siteId}:${cartId}`)
  }

  /** Keeps a summary this process read (nothing changed: nobody is told). */
  keepSummary(siteId: number, cartId: string, summary: CartSummary): void {
    this.summaries.set(`${siteId}:${cartId}`, summary)
  }

  /** This process wrote a basket's summary: kept here and announced to the other instances. */
  wroteSummary(siteId: number, cartId: string, summary: CartSummary): void {
    this.keepSummary(siteId, cartId, summary)
    this.changed({ kind: 'summary', siteId, cartId })
  }

  /** Drops what is cached of a basket: its header summary and its Cart page read (another instance changed it). */
  forgetCart(siteId: number, cartId: string): void {
    this.summaries.delete(`${siteId}:${cartId}`)
    this.shown.forget(cartId)
  }

  /** A basket changed outside the basket's own writes (an order was placed from it): forgotten here and announced. */
  basketChanged(siteId: number, cartId: string): void {
    this.forgetCart(siteId, cartId)
    this.changed({ kind: 'summary', siteId, cartId })
  }

  /**
   * Baskets deleted (the sweep, after its commit): their kept reads forgotten, and each summary
   * this process kept dropped and announced, so another instance does not read it back.
   */
  basketsDeleted(cartIds: readonly string[]): void {
    for (const id of cartIds) {
      this.shown.forget(id)
      for (const key of this.summaries.keys())
        if (key.endsWith(`:${id}`)) {
          this.summaries.delete(key)
          this.changed({ kind: 'summary', siteId: Number(key.split(':')[0]), cartId: id })
        }
    }
  }

  /** The catalogue changed: every kept Cart page read may show old prices or names. */
  forgetShownBaskets(): void {
    this.shown.forgetAll()
  }

  /** Drops every cached summary, rate and Cart page read (notifications may have been missed). */
  forgetAll(): void {
    this.summaries.clear()
    this.ratesBySite.clear()
    this.shown.forgetAll()
  }

  /** Delivery rates of a site, zones and despatch types in their set order. */
  async rates(executor: Executor, siteId: number): Promise<DeliveryRateRow[]> {
    const cached = this.ratesBySite.get(siteId)
    if (cached) return cached
    const rows = await executor
      .select()
      .from(deliveryRates)
      .where(eq(deliveryRates.siteId, siteId))
      .orderBy(asc(deliveryRates.position), asc(deliveryRates.id))
    this.ratesBySite.set(siteId, rows)
    return rows
  }

  /** Forget cached delivery rates (after an edit) and tell the other instances. */
  invalidateRates(): void {
    this.ratesBySite.clear()
    this.changed({ kind: 'rates' })
  }

  /** Forget cached delivery rates because another instance changed them. */
  forgetRates(): void {
    this.ratesBySite.clear()
  }
}
