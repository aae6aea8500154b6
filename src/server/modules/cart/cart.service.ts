/**
 * The basket: every read and write of carts, as one object the app holds (`app.carts`). Each
 * write is one transaction that locks the cart row (`SELECT … FOR UPDATE`) and reads its lines in
 * the same round trip, changes lines or codes, recomputes every total from the catalogue with the
 * pricing engine and stores the header summary on the row together with the changed quantities
 * (ADR 0111). Nothing here knows HTTP.
 *
 * This class only composes the parts (docs/architecture/basket.md, ADR 0152): each method hands
 * the one `BasketStore` (database, caches, design copier) to the function that does the work.
 */
import type { Db, Executor, Tx } from '../../db/client.ts'
import type { Cart } from '../../../shared/cart.ts'
import type { CartSummary } from '../../../shared/page-props.ts'
import type { Site } from '../sites/sites.service.ts'
import { addLines } from './cart.add.ts'
import { BasketCaches } from './cart.caches.ts'
import * as changes from './cart.changes.ts'
import { findPromotions } from './cart.codes.ts'
import { lockForOrder, markOrdered } from './cart.order-lock.ts'
import * as reads from './cart.reads.ts'
import * as saved from './cart.saved.ts'
import * as sharing from './cart.sharing.ts'
import { BasketStore } from './cart.store.ts'
import { sweep } from './cart.sweep.ts'
import type { CartItemRow, DeliveryRateRow, PromotionRow } from './cart.tables.ts'
import type {
  AddLine,
  CartCacheChange,
  CartContext,
  CartResult,
  CheckoutBasket,
  DesignCopier,
  SavedBasketSummary,
} from './cart.types.ts'

export type {
  AddLine,
  BuilderLine,
  CartCacheChange,
  CartContext,
  CartResult,
  CheckoutBasket,
  DesignCopier,
  SavedBasketSummary,
} from './cart.types.ts'

export class CartService {
  private readonly store: BasketStore
  private readonly caches = new BasketCaches()

  /** `designs.copy`: how the builders copy a design a copied basket's lines point at (app.ts wires the workwear builder's). */
  constructor(
    readonly db: Db,
    designs: { copy: DesignCopier },
  ) {
    this.store = new BasketStore(db, this.caches, designs.copy)
  }

  // --- Caches (cart.caches.ts; ops/cache-signals.ts connects them to the other instances) -------

  /** Calls `listener` after this process changed a basket or delivery rates; returns unsubscribe. */
  onChange(listener: (change: CartCacheChange) => void): () => void {
    return this.caches.onChange(listener)
  }

  /** Drops what is cached of a basket: its header summary and its Cart page read (another instance changed it). */
  forgetCart(siteId: number, cartId: string): void {
    this.caches.forgetCart(siteId, cartId)
  }

  /** A basket changed outside this service (an order was placed from it): forgotten here and announced. */
  basketChanged(siteId: number, cartId: string): void {
    this.caches.basketChanged(siteId, cartId)
  }

  /** The catalogue changed: every kept Cart page read may show old prices or names. */
  forgetShownBaskets(): void {
    this.caches.forgetShownBaskets()
  }

  /** Drops every cached summary, rate and Cart page read (notifications may have been missed). */
  forgetAll(): void {
    this.caches.forgetAll()
  }

  /** Delivery rates of a site, zones and despatch types in their set order. */
  rates(executor: Executor, siteId: number): Promise<DeliveryRateRow[]> {
    return this.caches.rates(executor, siteId)
  }

  /** Forget cached delivery rates (after an edit). */
  invalidateRates(): void {
    this.caches.invalidateRates()
  }

  /** Forget cached delivery rates because another instance changed them. */
  forgetRates(): void {
    this.caches.forgetRates()
  }

  // --- Reads (cart.reads.ts) ------------------------------------------------------------------

  /** The header summary; null when the cart does not exist. One primary-key read at most per 10 s. */
  summary(siteId: number, cartId: string): Promise<CartSummary | null> {
    return reads.summary(this.store, siteId, cartId)
  }

  /** The visitor's cart, or the empty cart when there is none: read afresh (the checkout's view). */
  get(ctx: CartContext): Promise<Cart> {
    return reads.get(this.store, ctx)
  }

  /** The visitor's cart as the Cart page shows it: a read kept a moment ago is not read again (ADR 0115). */
  show(ctx: CartContext): Promise<Cart> {
    return reads.show(this.store, ctx)
  }

  /** Lines of the visitor's cart that `pick` selects (for the builders' previews and proofs). */
  findLines(ctx: CartContext, pick: (item: CartItemRow) => boolean): Promise<CartItemRow[]> {
    return reads.findLines(this.store, ctx, pick)
  }

  // --- Changes (cart.add.ts, cart.changes.ts) ------------------------------------------------

  add(ctx: CartContext, items: AddLine[], promotionCodes?: string[]): Promise<CartResult> {
    return addLines(this.store, ctx, items, promotionCodes)
  }

  /** Sets line quantities; 0 removes the line. */
  updateItems(ctx: CartContext, items: { id: number; quantity: number }[]): Promise<CartResult> {
    return changes.updateItems(this.store, ctx, items)
  }

  /** The whole-cart update: quantities, promotional codes, despatch type, zone, VAT relief. */
  updateCart(ctx: CartContext, payload: changes.CartUpdate): Promise<CartResult> {
    return changes.updateCart(this.store, ctx, payload)
  }

  removeItem(ctx: CartContext, itemId: number): Promise<CartResult> {
    return changes.removeItem(this.store, ctx, itemId)
  }

  removeSignSequence(ctx: CartContext, sequenceId: string): Promise<CartResult> {
    return changes.removeSignSequence(this.store, ctx, sequenceId)
  }

  /** The builders' write: removes the lines `replaces` picks and adds those `build` makes, in one locked change. */
  replaceBuilderLines(ctx: CartContext, opts: changes.BuilderLinesChange): Promise<CartResult> {
    return changes.replaceBuilderLines(this.store, ctx, opts)
  }

  clear(ctx: CartContext): Promise<CartResult> {
    return changes.clear(this.store, ctx)
  }

  /** At login: the session's basket becomes the customer's (not one of another customer). */
  attachToCustomer(siteId: number, cartId: string, customerId: number): Promise<boolean> {
    return changes.attachToCustomer(this.store, siteId, cartId, customerId)
  }

  /** At a logout that keeps the basket (ADR 0136): it stops being the customer's. */
  releaseFromCustomer(ctx: CartContext, customerId: number | null): Promise<boolean> {
    return changes.releaseFromCustomer(this.store, ctx, customerId)
  }

  // --- Sharing (cart.sharing.ts) ----------------------------------------------------------------

  /** A frozen copy of the visitor's cart behind a secret link; returns the token. */
  share(ctx: CartContext): Promise<string> {
    return sharing.share(this.store, ctx)
  }

  /** A share link's basket, read only: its number of items, or null for an unknown token. */
  peekShared(site: Site, token: string): Promise<{ count: number } | null> {
    return sharing.peekShared(this.store, site, token)
  }

  /** Opens a share link into a new session basket of the visitor; null for an unknown token. */
  openShared(site: Site, token: string): Promise<string | null> {
    return sharing.openShared(this.store, site, token)
  }

  // --- Saved baskets (cart.saved.ts) ------------------------------------------------------------

  /** Saves a named copy of the visitor's cart for a logged-in customer. */
  save(
    ctx: CartContext,
    customerId: number,
    basketName: string,
  ): Promise<{ id: string; basketName: string }> {
    return saved.save(this.store, ctx, customerId, basketName)
  }

  /** The customer's saved baskets, newest first, each priced from today's catalogue. */
  savedBaskets(site: Site, customerId: number): Promise<SavedBasketSummary[]> {
    return saved.savedBaskets(this.store, site, customerId)
  }

  renameSaved(site: Site, customerId: number, id: string, basketName: string): Promise<void> {
    return saved.renameSaved(this.store, site, customerId, id, basketName)
  }

  deleteSaved(site: Site, customerId: number, id: string): Promise<void> {
    return saved.deleteSaved(this.store, site, customerId, id)
  }

  /** Loads a saved basket as a new session basket of the customer, priced. */
  async loadSaved(ctx: CartContext, customerId: number, id: string): Promise<CartResult> {
    return saved.loadSaved(this.store, ctx, customerId, id)
  }

  // --- The sweep (cart.sweep.ts) ----------------------------------------------------------------

  /** Deletes baskets nobody can reach any more; returns how many. */
  sweep(maxAgeSeconds: number): Promise<number> {
    return sweep(this.store, maxAgeSeconds)
  }

  // --- Placing an order (cart.order-lock.ts) ----------------------------------------------------

  /** Locks the basket in the caller's transaction and re-prices it; null when it is not one of this site. */
  lockForOrder(
    tx: Tx,
    ctx: CartContext,
    cartId: string,
    opts: { shippingZone?: string } = {},
  ): Promise<CheckoutBasket | null> {
    return lockForOrder(this.store, tx, ctx, cartId, opts)
  }

  /** The promotions behind a basket's codes. */
  promotionsFor(executor: Executor, siteId: number, codes: string[]): Promise<PromotionRow[]> {
    return findPromotions(executor, siteId, codes)
  }

  /** Freezes an ordered basket: no basket call finds it any more; the sweep leaves it alone. */
  markOrdered(tx: Tx, cartId: string): Promise<void> {
    return markOrdered(this.store, tx, cartId)
  }
}
