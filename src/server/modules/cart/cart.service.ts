/**
 * The basket: every read and write of carts. Each write is one transaction that locks the cart
 * row (`SELECT … FOR UPDATE`) and reads its lines in the same round trip, changes lines or codes,
 * recomputes every total from the catalogue with the pricing engine and stores the header summary
 * on the row together with the changed quantities (ADR 0111). Nothing here knows HTTP.
 */
import { randomBytes } from 'node:crypto'
import { and, asc, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm'
import { LRUCache } from 'lru-cache'
import type { Db, Executor, Tx } from '../../db/client.ts'
import type { BuilderConfig, CatalogMedia } from '../../../shared/catalog.ts'
import {
  CART_TEXT,
  MAX_BASKET_TOTAL_MINOR,
  MAX_QUANTITY,
  normalisePromotionCode,
  promotionCodesInForce,
  tooManyPromotionCodes,
  type Cart,
  type CartItem,
  type PromoError,
} from '../../../shared/cart.ts'
import { imageUrl } from '../../../shared/images.ts'
import { imagesOf } from '../catalog/category.presenter.ts'
import type { CartSummary } from '../../../shared/page-props.ts'
import { normaliseBrackets } from '../../../shared/pricing.ts'
import { vatOn } from '../../../shared/vat.ts'
import {
  VAT_RELIEF_TEXT,
  vatReliefProblem,
  type VatReliefDeclarationInput,
  type VatReliefKind,
} from '../../../shared/vat-relief.ts'
import { categories, productGroups, products } from '../catalog/catalog.tables.ts'
import type { Site } from '../sites/sites.service.ts'
import { CartNotFoundError, CartValidationError, invalid } from './cart.errors.ts'
import { recordCache } from '../../lib/cache-stats.ts'
import { BASKET_READ_TTL_MS, BasketReadCache } from './cart.read-cache.ts'
import { copyWorkwearSessions } from '../builders/workwear.service.ts'
import { priceCart, promotionDiscount, type PricedCart } from './cart.pricing.ts'
import { holdPromotion, holdsPromotion, releasePromotion } from './promotion-holds.ts'
import {
  cartItems,
  carts,
  deliveryRates,
  promotions,
  promotionUses,
  type CartItemRow,
  type CartRow,
  type DeliveryRateRow,
  type PrintableSign,
  type PromotionRow,
  type WorkWearSession,
} from './cart.tables.ts'

/** Where a request comes from: its site, the cart id its session holds, and the site's address. */
export interface CartContext {
  site: Site
  cartId: string | null
  baseUrl: string
  customerId?: number | null
  /**
   * Who is asking, as far as the browser can tell before it holds a basket (a hash of its
   * session or CSRF cookie): simultaneous first adds with the same key share one basket.
   */
  ownerKey?: string | null
}

export interface AddLine {
  listing_id: number
  quantity: number
  category_id?: number | null
  customisation?: { options: number[] }
  sequence_id?: string
  printable_sign?: PrintableSign
}

/** A basket locked for placing an order, re-priced. */
export interface CheckoutBasket {
  row: CartRow
  lines: LineRow[]
  priced: PricedCart
  rates: DeliveryRateRow[]
  promoErrors: PromoError[]
  cart: Cart
}

/** A line a builder adds (products and quantities are checked again in the transaction). */
export interface BuilderLine {
  productId: number
  categoryId: number
  quantity: number
  sequenceId?: string | null
  printableSign?: PrintableSign | null
  workWearSession?: WorkWearSession | null
}

/** A saved basket as the account's Baskets page lists it (spec §3 Saved cart). */
export interface SavedBasketSummary {
  id: string
  basketName: string
  created: string
  items: { product: { id: number; sku: string; name: string }; quantity: number; line_total: number }[]
  itemCount: number
  total: number
  totalIncTax: number
}

export interface CartResult {
  cartId: string | null
  cart: Cart
}

interface MutateOptions {
  create: boolean
  promotionCodes?: string[]
}

/**
 * What `mutate()` does to a basket, inside its transaction: returns true when lines were added
 * or removed (they are read again). Quantities it sets on existing lines go in `quantities` (line
 * id → quantity), patched on the loaded lines too: they are written with the summary, in the
 * transaction's last statement.
 */
type BasketChange = (
  tx: Tx,
  cart: CartRow,
  lines: LineRow[],
  quantities: Map<number, number>,
) => Promise<boolean | void>

/** A basket line with what pricing and placing an order need from the catalogue. */
export interface LineRow {
  item: CartItemRow
  sku: string
  productCode: string
  productName: string
  description: string
  priceList: CartItemRowPriceList
  minimumOrder: number
  published: boolean
  groupPublished: boolean
  groupName: string
  groupUrl: string
  groupMedia: CatalogMedia[]
  /** The group's own category (a line added without one gets it) */
  groupCategoryId: number | null
  vatReliefEligible: boolean
  vatReliefKind: VatReliefKind | null
  categoryName: string | null
  categoryUrl: string | null
  categoryBuilder: BuilderConfig | null
}
type CartItemRowPriceList = (typeof products.$inferSelect)['priceList']

/** The catalogue columns of a basket line (LineRow without the line itself). */
const lineColumns = {
  sku: products.sku,
  productCode: products.productCode,
  productName: products.name,
  description: products.description,
  priceList: products.priceList,
  minimumOrder: products.minimumOrder,
  published: products.published,
  groupPublished: productGroups.published,
  groupName: productGroups.name,
  groupUrl: productGroups.url,
  groupMedia: productGroups.media,
  groupCategoryId: productGroups.categoryId,
  vatReliefEligible: productGroups.vatReliefEligible,
  vatReliefKind: productGroups.vatReliefKind,
  categoryName: categories.name,
  categoryUrl: categories.url,
  categoryBuilder: categories.builder,
}

/** What adding a line needs of a published product of the site (checks, and the new line's details). */
const catalogColumns = {
  id: products.id,
  sku: products.sku,
  productCode: products.productCode,
  name: products.name,
  description: products.description,
  priceList: products.priceList,
  minimumOrder: products.minimumOrder,
  categoryId: productGroups.categoryId,
  groupName: productGroups.name,
  groupUrl: productGroups.url,
  groupMedia: productGroups.media,
  vatReliefEligible: productGroups.vatReliefEligible,
  vatReliefKind: productGroups.vatReliefKind,
}
type CatalogLine = {
  id: number
  sku: string
  productCode: string
  name: string
  description: string
  priceList: CartItemRowPriceList
  minimumOrder: number
  categoryId: number | null
  groupName: string
  groupUrl: string
  groupMedia: CatalogMedia[]
  vatReliefEligible: boolean
  vatReliefKind: VatReliefKind | null
}
interface CatalogCategory {
  id: number
  name: string | null
  url: string | null
  builder: BuilderConfig | null
}

/** The catalogue side of a basket line (read with the line, in the same transaction). */
function catalogLineOf(l: LineRow): CatalogLine {
  return {
    id: l.item.productId,
    sku: l.sku,
    productCode: l.productCode,
    name: l.productName,
    description: l.description,
    priceList: l.priceList,
    minimumOrder: l.minimumOrder,
    categoryId: l.groupCategoryId,
    groupName: l.groupName,
    groupUrl: l.groupUrl,
    groupMedia: l.groupMedia,
    vatReliefEligible: l.vatReliefEligible,
    vatReliefKind: l.vatReliefKind,
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export function isCartId(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value)
}

export const normaliseCode = normalisePromotionCode

export function summaryOf(cart: Pick<Cart, 'cart_total_items' | 'cart_total_price_inc_tax'>): CartSummary {
  return { count: cart.cart_total_items, total: cart.cart_total_price_inc_tax }
}

/** Whether a promotion can be used now on a basket whose goods come to `goodsTotal`. */
export function promotionApplies(promo: PromotionRow, goodsTotal: number, now = new Date()): boolean {
  if (!promo.active) return false
  if (promo.startsAt && promo.startsAt.getTime() > now.getTime()) return false
  if (promo.endsAt && promo.endsAt.getTime() < now.getTime()) return false
  return goodsTotal >= promo.minimumSpend
}

/** The basket's code in force that can be used now (null: none), and the errors of one that cannot. */
interface CodeInForce {
  promo: PromotionRow | null
  errors: PromoError[]
}

/** A cached thing a basket write made stale (for other instances' caches). */
export type CartCacheChange = { kind: 'summary'; siteId: number; cartId: string } | { kind: 'rates' }

export class CartService {
  /**
   * Header summaries by cart id; every write in this process refreshes its entry. 10k baskets
   * active within the 10 s lifetime is plenty, and lru-cache allocates its arrays for `max` up front.
   */
  private readonly summaries = new LRUCache<string, CartSummary>({ max: 10_000, ttl: 10_000 })
  private readonly ratesBySite = new LRUCache<number, DeliveryRateRow[]>({ max: 1000, ttl: 60_000 })
  /** The Cart page's reads by cart id (cart.read-cache.ts says how it learns of changes). */
  private readonly shown = new BasketReadCache<{ row: CartRow; lines: LineRow[] }>({
    max: 10_000,
    ttlMs: BASKET_READ_TTL_MS,
  })

  /** Told of every write to a basket's header summary or to delivery rates (other instances). */
  private readonly changeListeners = new Set<(change: CartCacheChange) => void>()

  /** The Cart page's read, built and named once (PostgreSQL plans it once per connection). */
  private cartPageRead?: ReturnType<typeof cartWithLinesRead>

  constructor(readonly db: Db) {}

  /** Calls `listener` after this process changed a basket or delivery rates; returns unsubscribe. */
  onChange(listener: (change: CartCacheChange) => void): () => void {
    this.changeListeners.add(listener)
    return () => this.changeListeners.delete(listener)
  }

  private changed(change: CartCacheChange): void {
    for (const listener of this.changeListeners) listener(change)
  }

  /** Drops what is cached of a basket: its header summary and its Cart page read (another instance changed it). */
  forgetCart(siteId: number, cartId: string): void {
    this.summaries.delete(`${siteId}:${cartId}`)
    this.shown.forget(cartId)
  }

  /** A basket changed outside this service (an order was placed from it): forgotten here and announced. */
  basketChanged(siteId: number, cartId: string): void {
    this.forgetCart(siteId, cartId)
    this.changed({ kind: 'summary', siteId, cartId })
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

  // --- Reads ------------------------------------------------------------------------------

  /** The header summary; null when the cart does not exist. One primary-key read at most per 10 s. */
  async summary(siteId: number, cartId: string): Promise<CartSummary | null> {
    if (!isCartId(cartId)) return null
    const key = `${siteId}:${cartId}`
    const cached = this.summaries.get(key)
    recordCache('basket-summary', cached !== undefined)
    if (cached) return cached
    const [row] = await this.db
      .select({ count: carts.summaryCount, total: carts.summaryTotal })
      .from(carts)
      .where(and(eq(carts.id, cartId), eq(carts.siteId, siteId), eq(carts.kind, 'session')))
      .limit(1)
    if (!row) return null
    this.summaries.set(key, row)
    return row
  }

  /** The visitor's cart, or the empty cart when there is none: read afresh (the checkout's view). */
  async get(ctx: CartContext): Promise<Cart> {
    const found = ctx.cartId ? await this.findCartWithLines(ctx.site.id, ctx.cartId) : null
    return this.priced(ctx, found)
  }

  /**
   * The visitor's cart as the Cart page shows it: the same as `get`, but a basket read a moment
   * ago by this instance and not changed since is not read again (cart.read-cache.ts). Priced now,
   * so a promotion's dates and the delivery rates are as fresh as `get`'s.
   */
  async show(ctx: CartContext): Promise<Cart> {
    const cartId = ctx.cartId
    if (!cartId || !isCartId(cartId)) return this.empty(ctx)
    let found: { row: CartRow; lines: LineRow[] } | null | undefined = this.shown.get(cartId)
    recordCache('basket-read', found !== undefined)
    // Keyed by id alone: a basket of another site is never shown.
    if (found && found.row.siteId !== ctx.site.id) found = null
    if (found === undefined) {
      const token = this.shown.begin()
      found = await this.findCartWithLines(ctx.site.id, cartId)
      if (found) found = this.shown.keep(cartId, token, found)
    }
    return this.priced(ctx, found)
  }

  private async priced(ctx: CartContext, found: { row: CartRow; lines: LineRow[] } | null): Promise<Cart> {
    if (!found) return this.empty(ctx)
    const { row, lines } = found
    const { priced, promoErrors, rates } = await this.price(this.db, ctx.site, row, lines, 'read')
    return this.present(ctx, row, lines, priced, rates, promoErrors)
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

  /** Forget cached delivery rates (after an edit). */
  invalidateRates(): void {
    this.ratesBySite.clear()
    this.changed({ kind: 'rates' })
  }

  /** Forget cached delivery rates because another instance changed them. */
  forgetRates(): void {
    this.ratesBySite.clear()
  }

  // --- Writes -----------------------------------------------------------------------------

  async add(ctx: CartContext, items: AddLine[], promotionCodes?: string[]): Promise<CartResult> {
    return this.mutate(
      ctx,
      { create: items.length > 0, promotionCodes },
      async (tx, cart, lines, quantities) => {
        if (items.length === 0) return false
        // What the basket's own lines (read in this transaction, after the lock) already say about
        // a product or category is as fresh as a query for it: only the others are looked up.
        const byId = new Map<number, CatalogLine>()
        const catById = new Map<number, CatalogCategory>()
        for (const l of lines) {
          if (l.published && l.groupPublished && !byId.has(l.item.productId)) {
            byId.set(l.item.productId, catalogLineOf(l))
          }
          if (l.item.categoryId !== null && l.categoryUrl !== null && !catById.has(l.item.categoryId)) {
            catById.set(l.item.categoryId, {
              id: l.item.categoryId,
              name: l.categoryName,
              url: l.categoryUrl,
              builder: l.categoryBuilder,
            })
          }
        }
        const ids = [...new Set(items.map((i) => i.listing_id))].filter((id) => !byId.has(id))
        if (ids.length) {
          const found = await tx
            .select(catalogColumns)
            .from(products)
            .innerJoin(productGroups, eq(productGroups.id, products.groupId))
            .where(
              and(
                inArray(products.id, ids),
                eq(products.siteId, ctx.site.id),
                eq(products.published, true),
                eq(productGroups.published, true),
              ),
            )
          for (const p of found) byId.set(p.id, p)
        }
        // The categories named, and the default category of each product that will get a new line.
        const categoryIds = new Set<number>()
        for (const i of items) {
          const wanted = i.category_id || byId.get(i.listing_id)?.categoryId
          if (wanted && !catById.has(wanted)) categoryIds.add(wanted)
        }
        if (categoryIds.size) {
          const cats = await tx
            .select({
              id: categories.id,
              siteId: categories.siteId,
              name: categories.name,
              url: categories.url,
              builder: categories.builder,
            })
            .from(categories)
            .where(inArray(categories.id, [...categoryIds]))
          for (const c of cats) if (c.siteId === ctx.site.id) catById.set(c.id, c)
        }
        const existing = lines.map((l) => l.item)
        const added: { line: AddLine; product: CatalogLine; categoryId: number | null; options: number[] }[] =
          []

        for (const [index, line] of items.entries()) {
          const product = byId.get(line.listing_id)
          if (!product) throw invalid(`items.${index}.listing_id`, 'This product is not available.')
          const categoryId = line.category_id ?? product.categoryId
          if (line.category_id && !catById.has(line.category_id)) {
            throw invalid(`items.${index}.category_id`, 'This category does not exist.')
          }
          if (line.quantity < product.minimumOrder) {
            throw invalid(
              `items.${index}.quantity`,
              `The minimum order quantity for ${product.name} is ${product.minimumOrder}.`,
            )
          }
          const options = line.customisation?.options ?? []
          if (options.length > 0) {
            const builder = line.category_id ? catById.get(line.category_id)?.builder : null
            checkOptions(builder ?? null, options, index, product.id)
          }
          const plain = options.length === 0 && !line.sequence_id && !line.printable_sign
          const same = plain
            ? existing.find(
                (e) =>
                  e.productId === product.id &&
                  e.categoryId === categoryId &&
                  !e.isFreeGift &&
                  e.parentId === null &&
                  e.options.length === 0 &&
                  !e.sequenceId &&
                  !e.printableSign &&
                  !e.workWearSession,
              )
            : undefined
          if (same) {
            const quantity = same.quantity + line.quantity
            if (quantity > MAX_QUANTITY) {
              throw invalid(
                `items.${index}.quantity`,
                `The quantity may not be greater than ${MAX_QUANTITY}.`,
              )
            }
            // Written with the basket's summary at the end; the loaded line is patched in place:
            // it is what pricing reads next.
            quantities.set(same.id, quantity)
            same.quantity = quantity
          } else {
            const pending = plain
              ? added.find(
                  (a) =>
                    a.product.id === product.id &&
                    a.categoryId === categoryId &&
                    a.options.length === 0 &&
                    !a.line.sequence_id &&
                    !a.line.printable_sign,
                )
              : undefined
            if (pending) {
              // The same product twice in one add: one new line with both quantities.
              const quantity = pending.line.quantity + line.quantity
              if (quantity > MAX_QUANTITY) {
                throw invalid(
                  `items.${index}.quantity`,
                  `The quantity may not be greater than ${MAX_QUANTITY}.`,
                )
              }
              pending.line = { ...pending.line, quantity }
            } else {
              added.push({ line, product, categoryId, options })
            }
          }
        }
        if (added.length === 0) return false
        // Every new line in one statement; their catalogue details are known already.
        const rows = await tx
          .insert(cartItems)
          .values(
            added.map(({ line, product, categoryId, options }) => ({
              cartId: cart.id,
              productId: product.id,
              categoryId,
              quantity: line.quantity,
              options,
              sequenceId: line.sequence_id ?? null,
              printableSign: line.printable_sign ?? null,
            })),
          )
          .returning()
        rows.forEach((item, i) => {
          const { product, categoryId } = added[i]!
          const category = categoryId !== null ? catById.get(categoryId) : undefined
          lines.push({
            item,
            sku: product.sku,
            productCode: product.productCode,
            productName: product.name,
            description: product.description,
            priceList: product.priceList,
            minimumOrder: product.minimumOrder,
            published: true,
            groupPublished: true,
            groupName: product.groupName,
            groupUrl: product.groupUrl,
            groupMedia: product.groupMedia,
            groupCategoryId: product.categoryId,
            vatReliefEligible: product.vatReliefEligible,
            vatReliefKind: product.vatReliefKind,
            categoryName: category?.name ?? null,
            categoryUrl: category?.url ?? null,
            categoryBuilder: category?.builder ?? null,
          })
        })
        // The lines in id order, as a fresh read gives them: nothing to read again.
        lines.sort((a, b) => a.item.id - b.item.id)
        return false
      },
    )
  }

  /** Sets line quantities; 0 removes the line. */
  async updateItems(ctx: CartContext, items: { id: number; quantity: number }[]): Promise<CartResult> {
    return this.mutate(ctx, { create: false }, (tx, cart, lines, quantities) =>
      this.setQuantities(tx, cart, lines, items, quantities),
    )
  }

  /** The whole-cart update: quantities, promotional codes, despatch type, zone, VAT relief. */
  async updateCart(
    ctx: CartContext,
    payload: {
      items?: { id: number; quantity: number }[]
      promotionCodes?: string[]
      despatch_type?: string
      /** A rate of the basket's zone (§7 shippingRateId): its despatch type is chosen */
      shippingRateId?: number
      shippingZone?: string
      ApplyVATRelief?: boolean
      /** The declaration (claim relief) or false (withdraw it) */
      vatRelief?: VatReliefDeclarationInput | false
    },
  ): Promise<CartResult> {
    const onlyCodes =
      !payload.items?.length &&
      payload.despatch_type === undefined &&
      payload.shippingRateId === undefined &&
      payload.shippingZone === undefined &&
      payload.ApplyVATRelief === undefined &&
      payload.vatRelief === undefined
    return this.mutate(
      ctx,
      {
        create: !onlyCodes || (payload.promotionCodes ?? []).some((c) => c.trim()),
        promotionCodes: payload.promotionCodes,
      },
      async (tx, cart, lines, quantities) => {
        const removed = payload.items?.length
          ? await this.setQuantities(tx, cart, lines, payload.items, quantities)
          : false
        const set: Partial<CartRow> = {}
        if (payload.shippingRateId !== undefined) {
          // The rate must be one of the zone the basket is priced for: its despatch type is chosen.
          const rates = await this.rates(tx, ctx.site.id)
          const zone = payload.shippingZone ?? cart.shippingZone ?? rates[0]?.zone
          const rate = rates.find((r) => r.id === payload.shippingRateId && r.zone === zone)
          if (!rate) throw invalid('shippingRateId', 'This delivery option is not available.')
          payload = { ...payload, despatch_type: rate.despatchType }
        }
        if (payload.shippingZone !== undefined || payload.despatch_type !== undefined) {
          const rates = await this.rates(tx, ctx.site.id)
          const zone = payload.shippingZone ?? cart.shippingZone ?? rates[0]?.zone
          if (payload.shippingZone !== undefined && !rates.some((r) => r.zone === payload.shippingZone)) {
            throw invalid('shippingZone', 'We do not deliver to this zone.')
          }
          if (
            payload.despatch_type !== undefined &&
            !rates.some((r) => r.zone === zone && r.despatchType === payload.despatch_type)
          ) {
            throw invalid('despatch_type', 'This delivery option is not available.')
          }
          if (payload.shippingZone !== undefined) {
            set.shippingZone = payload.shippingZone
            if (payload.despatch_type === undefined) set.despatchType = null
          }
          if (payload.despatch_type !== undefined) set.despatchType = payload.despatch_type
        }
        if (payload.vatRelief !== undefined || payload.ApplyVATRelief !== undefined) {
          // Relief is claimed only with a valid declaration, for goods that qualify, within limits.
          const claim =
            payload.vatRelief === undefined ? payload.ApplyVATRelief! : payload.vatRelief !== false
          if (!claim) {
            set.applyVatRelief = false
            set.vatReliefDeclaration = null
          } else {
            const given = payload.vatRelief || null
            const declaration = given
              ? { name: given.name, condition: given.condition, declaredAt: new Date().toISOString() }
              : cart.vatReliefDeclaration
            if (!declaration) throw invalid('vatRelief', VAT_RELIEF_TEXT.declarationRequired)
            const problem = vatReliefProblem(ctx.site.settings.tax.rate, reliefLines(lines))
            if (problem) throw invalid(problem.field, problem.message)
            set.applyVatRelief = true
            set.vatReliefDeclaration = declaration
          }
        }
        if (Object.keys(set).length) {
          await tx.update(carts).set(set).where(eq(carts.id, cart.id))
          Object.assign(cart, set)
        }
        return removed
      },
    )
  }

  async removeItem(ctx: CartContext, itemId: number): Promise<CartResult> {
    return this.mutate(ctx, { create: false }, async (tx, cart, lines) => {
      if (!lines.some((l) => l.item.id === itemId)) throw new CartNotFoundError()
      await this.deleteLines(tx, cart.id, [itemId])
      return true
    })
  }

  async removeSignSequence(ctx: CartContext, sequenceId: string): Promise<CartResult> {
    return this.mutate(ctx, { create: false }, async (tx, cart, lines) => {
      const ids = lines.filter((l) => l.item.sequenceId === sequenceId).map((l) => l.item.id)
      if (ids.length === 0) throw new CartNotFoundError()
      await this.deleteLines(tx, cart.id, ids)
      return true
    })
  }

  /**
   * The builders' write ('Design A Sign', sign sets, custom workwear): in one locked change,
   * removes the lines `replaces` picks (an edited sign, a whole sign set, a workwear order's
   * lines) and adds the lines `build` makes inside the same transaction (the workwear builder
   * stores its session there). With `mustReplace`, a request that picks no line is not found:
   * another visitor's line, or one already gone, changes nothing.
   */
  async replaceBuilderLines(
    ctx: CartContext,
    opts: {
      replaces: ((item: CartItemRow) => boolean) | null
      mustReplace: boolean
      build: (tx: Tx, cartId: string) => Promise<BuilderLine[]>
    },
  ): Promise<CartResult> {
    return this.mutate(ctx, { create: !opts.mustReplace }, async (tx, cart, lines) => {
      const replaced = opts.replaces ? lines.filter((l) => opts.replaces!(l.item)).map((l) => l.item.id) : []
      if (opts.mustReplace && replaced.length === 0) throw new CartNotFoundError()
      const fresh = await opts.build(tx, cart.id)
      const ids = [...new Set(fresh.map((l) => l.productId))]
      const found = ids.length
        ? await tx
            .select({ id: products.id, minimumOrder: products.minimumOrder, name: products.name })
            .from(products)
            .innerJoin(productGroups, eq(productGroups.id, products.groupId))
            .where(
              and(
                inArray(products.id, ids),
                eq(products.siteId, ctx.site.id),
                eq(products.published, true),
                eq(productGroups.published, true),
              ),
            )
        : []
      const byId = new Map(found.map((p) => [p.id, p]))
      for (const [index, line] of fresh.entries()) {
        const product = byId.get(line.productId)
        if (!product) throw invalid(`items.${index}.listing_id`, 'This product is not available.')
        if (line.quantity < Math.max(1, product.minimumOrder) || line.quantity > MAX_QUANTITY) {
          throw invalid(
            `items.${index}.quantity`,
            `The quantity of ${product.name} must be from ${Math.max(1, product.minimumOrder)} to ${MAX_QUANTITY}.`,
          )
        }
      }
      if (replaced.length) await this.deleteLines(tx, cart.id, replaced)
      if (fresh.length) {
        await tx.insert(cartItems).values(
          fresh.map((l) => ({
            cartId: cart.id,
            productId: l.productId,
            categoryId: l.categoryId,
            quantity: l.quantity,
            sequenceId: l.sequenceId ?? null,
            printableSign: l.printableSign ?? null,
            workWearSession: l.workWearSession ?? null,
          })),
        )
      }
      return true
    })
  }

  /** Lines of the visitor's cart that `pick` selects (for the builders' previews and proofs). */
  async findLines(ctx: CartContext, pick: (item: CartItemRow) => boolean): Promise<CartItemRow[]> {
    if (!ctx.cartId) return []
    const cart = await this.findSessionCart(this.db, ctx.site.id, ctx.cartId)
    if (!cart) return []
    const rows = await this.db
      .select()
      .from(cartItems)
      .where(eq(cartItems.cartId, cart.id))
      .orderBy(asc(cartItems.id))
    return rows.filter(pick)
  }

  async clear(ctx: CartContext): Promise<CartResult> {
    if (!ctx.cartId) return { cartId: null, cart: this.empty(ctx) }
    return this.mutate(ctx, { create: false, promotionCodes: [] }, async (tx, cart) => {
      await tx.delete(cartItems).where(eq(cartItems.cartId, cart.id))
      return true
    })
  }

  /**
   * A frozen copy of the visitor's cart behind a secret link (128 bits). Returns the token; the
   * copy carries no customer and no codes, only the lines.
   */
  async share(ctx: CartContext): Promise<string> {
    if (!ctx.cartId) throw new CartNotFoundError()
    return this.db.transaction(async (tx) => {
      const cart = await this.findSessionCart(tx, ctx.site.id, ctx.cartId!)
      if (!cart) throw new CartNotFoundError()
      const lines = await tx
        .select()
        .from(cartItems)
        .where(eq(cartItems.cartId, cart.id))
        .orderBy(asc(cartItems.id))
      if (lines.filter((l) => !l.isFreeGift).length === 0)
        throw invalid('cart_id', 'There is nothing in the basket to share.')
      const token = randomBytes(16).toString('base64url')
      const [copy] = await tx
        .insert(carts)
        .values({
          siteId: ctx.site.id,
          kind: 'shared',
          shareToken: token,
          shippingZone: cart.shippingZone,
          despatchType: cart.despatchType,
        })
        .returning()
      await copyLines(
        tx,
        lines.filter((l) => !l.isFreeGift),
        copy!.id,
      )
      return token
    })
  }

  /**
   * Loads a shared basket: the visitor gets a new session cart holding a copy of its lines,
   * marked shared. Null for an unknown token (or one of another site).
   */
  /** A share link's basket, read only: its number of items, or null for an unknown token. */
  async peekShared(site: Site, token: string): Promise<{ count: number } | null> {
    if (!/^[A-Za-z0-9_-]{16,64}$/.test(token)) return null
    const [source] = await this.db
      .select({ id: carts.id })
      .from(carts)
      .where(and(eq(carts.shareToken, token), eq(carts.siteId, site.id), eq(carts.kind, 'shared')))
    if (!source) return null
    const lines = await this.db
      .select({ quantity: cartItems.quantity })
      .from(cartItems)
      .where(eq(cartItems.cartId, source.id))
    return { count: lines.reduce((n, l) => n + l.quantity, 0) }
  }

  async openShared(site: Site, token: string): Promise<string | null> {
    if (!/^[A-Za-z0-9_-]{16,64}$/.test(token)) return null
    return this.db.transaction(async (tx) => {
      const [source] = await tx
        .select()
        .from(carts)
        .where(and(eq(carts.shareToken, token), eq(carts.siteId, site.id), eq(carts.kind, 'shared')))
      if (!source) return null
      const lines = await tx
        .select()
        .from(cartItems)
        .where(eq(cartItems.cartId, source.id))
        .orderBy(asc(cartItems.id))
      const [copy] = await tx
        .insert(carts)
        .values({
          siteId: site.id,
          kind: 'session',
          shared: true,
          shippingZone: source.shippingZone,
          despatchType: source.despatchType,
        })
        .returning()
      await copyLines(tx, lines, copy!.id)
      const fresh = await this.loadLines(tx, copy!.id)
      const { priced } = await this.price(tx, site, copy!, fresh, 'frozen')
      await tx
        .update(carts)
        .set({ summaryCount: priced.totalItems, summaryTotal: priced.totalPriceIncTax })
        .where(eq(carts.id, copy!.id))
      return copy!.id
    })
  }

  /** Saves a named copy of the visitor's cart for a logged-in customer. */
  async save(
    ctx: CartContext,
    customerId: number,
    basketName: string,
  ): Promise<{ id: string; basketName: string }> {
    if (!ctx.cartId) throw new CartNotFoundError()
    // Taking the session basket for the customer changes nothing the Cart page shows.
    return this.db.transaction(async (tx) => {
      const cart = await this.findSessionCart(tx, ctx.site.id, ctx.cartId!)
      if (!cart) throw new CartNotFoundError()
      const lines = await tx
        .select()
        .from(cartItems)
        .where(eq(cartItems.cartId, cart.id))
        .orderBy(asc(cartItems.id))
      const goods = lines.filter((l) => !l.isFreeGift)
      if (goods.length === 0) throw invalid('basketName', 'There is nothing in the basket to save.')
      const [copy] = await tx
        .insert(carts)
        .values({
          siteId: ctx.site.id,
          kind: 'saved',
          customerId,
          basketName,
          shippingZone: cart.shippingZone,
          despatchType: cart.despatchType,
        })
        .returning()
      await copyLines(tx, goods, copy!.id)
      if (cart.customerId === null) await tx.update(carts).set({ customerId }).where(eq(carts.id, cart.id))
      return { id: copy!.id, basketName }
    })
  }

  // --- Saved baskets (the account's Baskets page) ----------------------------------------------

  /** The customer's saved baskets, newest first, each priced from today's catalogue. */
  async savedBaskets(site: Site, customerId: number): Promise<SavedBasketSummary[]> {
    const rows = await this.db
      .select()
      .from(carts)
      .where(and(eq(carts.siteId, site.id), eq(carts.customerId, customerId), eq(carts.kind, 'saved')))
      .orderBy(sql`${carts.createdAt} desc`, asc(carts.id))
      .limit(100)
    const out: SavedBasketSummary[] = []
    for (const row of rows) {
      const lines = await this.loadLines(this.db, row.id)
      const { priced } = await this.price(this.db, site, row, lines, 'frozen')
      out.push({
        id: row.id,
        basketName: row.basketName ?? '',
        created: row.createdAt.toISOString(),
        items: lines.map((l, i) => ({
          product: { id: l.item.productId, sku: l.sku, name: l.productName || l.groupName },
          quantity: l.item.quantity,
          line_total: priced.lines[i]?.net ?? 0,
        })),
        itemCount: priced.totalItems,
        total: priced.itemsTotal,
        totalIncTax: priced.itemsTotal + priced.lines.reduce((n, l) => n + l.vat, 0),
      })
    }
    return out
  }

  /** Renames a saved basket of the customer; NotFound for any other id. */
  async renameSaved(site: Site, customerId: number, id: string, basketName: string): Promise<void> {
    if (!isCartId(id)) throw new CartNotFoundError()
    const rows = await this.db
      .update(carts)
      .set({ basketName, updatedAt: sql`now()` })
      .where(savedBasketOf(site.id, customerId, id))
      .returning({ id: carts.id })
    if (rows.length === 0) throw new CartNotFoundError()
  }

  /** Deletes a saved basket of the customer; NotFound for any other id. */
  async deleteSaved(site: Site, customerId: number, id: string): Promise<void> {
    if (!isCartId(id)) throw new CartNotFoundError()
    const rows = await this.db
      .delete(carts)
      .where(savedBasketOf(site.id, customerId, id))
      .returning({ id: carts.id })
    if (rows.length === 0) throw new CartNotFoundError()
  }

  /**
   * Loads a saved basket: a new session basket of the customer holding a copy of its lines (the
   * saved basket stays as it is). Returns it priced; the caller makes it the session's basket.
   */
  async loadSaved(ctx: CartContext, customerId: number, id: string): Promise<CartResult> {
    if (!isCartId(id)) throw new CartNotFoundError()
    const result = await this.db.transaction(async (tx) => {
      const [source] = await tx
        .select()
        .from(carts)
        .where(savedBasketOf(ctx.site.id, customerId, id))
      if (!source) throw new CartNotFoundError()
      const lines = await tx
        .select()
        .from(cartItems)
        .where(eq(cartItems.cartId, source.id))
        .orderBy(asc(cartItems.id))
      const [copy] = await tx
        .insert(carts)
        .values({
          siteId: ctx.site.id,
          kind: 'session',
          customerId,
          shippingZone: source.shippingZone,
          despatchType: source.despatchType,
        })
        .returning()
      await copyLines(tx, lines, copy!.id)
      const fresh = await this.loadLines(tx, copy!.id)
      const { priced, promoErrors, rates } = await this.price(tx, ctx.site, copy!, fresh, 'frozen')
      await tx
        .update(carts)
        .set({ summaryCount: priced.totalItems, summaryTotal: priced.totalPriceIncTax })
        .where(eq(carts.id, copy!.id))
      return {
        cartId: copy!.id,
        cart: this.present({ ...ctx, cartId: copy!.id }, copy!, fresh, priced, rates, promoErrors),
      }
    })
    this.summaries.set(`${ctx.site.id}:${result.cartId}`, summaryOf(result.cart))
    return result
  }

  /**
   * At login: the session's basket becomes the customer's (the auth work calls this after
   * rotating the session id). A basket that already belongs to another customer is left alone.
   */
  async attachToCustomer(siteId: number, cartId: string, customerId: number): Promise<boolean> {
    if (!isCartId(cartId)) return false
    this.shown.forget(cartId)
    const rows = await this.db
      .update(carts)
      .set({ customerId, ownerKey: null })
      .where(
        and(
          eq(carts.id, cartId),
          eq(carts.siteId, siteId),
          eq(carts.kind, 'session'),
          or(isNull(carts.customerId), eq(carts.customerId, customerId)),
        ),
      )
      .returning({ id: carts.id })
    this.shown.forget(cartId)
    return rows.length > 0
  }

  /**
   * At a logout that keeps the basket (ADR 0136): the session's basket stops being the customer's
   * and stays with the browser as a visitor's basket. What was the customer's own in it goes: a
   * VAT relief declaration (a person's name and illness) is dropped. A basket of another customer
   * is left alone (false): the caller then does not keep it.
   */
  async releaseFromCustomer(ctx: CartContext, customerId: number | null): Promise<boolean> {
    if (!ctx.cartId || !isCartId(ctx.cartId)) return false
    try {
      // A change like any other: locked, re-priced (relief gone) and the header summary rewritten.
      await this.mutate({ ...ctx, customerId: null }, { create: false }, async (tx, cart) => {
        if (cart.customerId !== null && cart.customerId !== customerId) throw new CartNotFoundError()
        const set: Partial<CartRow> =
          customerId === null
            ? { ownerKey: null }
            : { customerId: null, ownerKey: null, applyVatRelief: false, vatReliefDeclaration: null }
        await tx.update(carts).set(set).where(eq(carts.id, cart.id))
        Object.assign(cart, set)
      })
      return true
    } catch (err) {
      if (err instanceof CartNotFoundError) return false
      throw err
    }
  }

  /**
   * Deletes baskets nobody can reach any more: session baskets without a customer whose last
   * change is older than `maxAgeSeconds` (their session has expired), and share-link copies of
   * that age. The promotional code uses they held are given back. Saved baskets stay.
   */
  async sweep(maxAgeSeconds: number): Promise<number> {
    const cutoff = new Date(Date.now() - maxAgeSeconds * 1000)
    const ids = await this.db.transaction(async (tx) => {
      const stale = await tx
        .select({ id: carts.id })
        .from(carts)
        .where(
          and(
            lt(carts.updatedAt, cutoff),
            or(and(eq(carts.kind, 'session'), isNull(carts.customerId)), eq(carts.kind, 'shared')),
          ),
        )
        .limit(5000)
        // Another instance sweeping at the same moment takes other rows; a basket being changed
        // right now (locked by mutate) is left for the next sweep.
        .for('update', { skipLocked: true })
      if (stale.length === 0) return []
      const ids = stale.map((c) => c.id)
      const released = await tx
        .delete(promotionUses)
        .where(inArray(promotionUses.cartId, ids))
        .returning({ promotionId: promotionUses.promotionId })
      const counts = new Map<number, number>()
      for (const r of released) counts.set(r.promotionId, (counts.get(r.promotionId) ?? 0) + 1)
      // In promotion id order, as every basket change takes them (promotion-holds.ts).
      for (const [promotionId, n] of [...counts].sort((a, b) => a[0] - b[0])) {
        await tx
          .update(promotions)
          .set({ timesUsed: sql`greatest(0, ${promotions.timesUsed} - ${n})` })
          .where(eq(promotions.id, promotionId))
      }
      // Forgotten before the delete and again after its commit, as in mutate(): a Cart page read
      // in between is not kept.
      for (const id of ids) this.shown.forget(id)
      await tx.delete(carts).where(inArray(carts.id, ids))
      return ids
    })
    for (const id of ids) {
      this.shown.forget(id)
      // Announced once the delete is committed, so another instance does not read it back.
      for (const key of this.summaries.keys())
        if (key.endsWith(`:${id}`)) {
          this.summaries.delete(key)
          this.changed({ kind: 'summary', siteId: Number(key.split(':')[0]), cartId: id })
        }
    }
    return ids.length
  }

  // --- Placing an order (the checkout module) ------------------------------------------------

  /**
   * Locks the basket row in the caller's transaction, as `mutate()` does, and re-prices it from
   * the catalogue. A basket already ordered is locked and returned too (its order is the answer
   * to a replay). Null when the id is not a session or ordered basket of this site.
   */
  async lockForOrder(
    tx: Tx,
    ctx: CartContext,
    cartId: string,
    /** Price delivery for this zone (the order's shipping address), whatever the basket last had */
    opts: { shippingZone?: string } = {},
  ): Promise<CheckoutBasket | null> {
    if (!isCartId(cartId)) return null
    const [row] = await tx
      .select()
      .from(carts)
      .where(
        and(eq(carts.id, cartId), eq(carts.siteId, ctx.site.id), inArray(carts.kind, ['session', 'ordered'])),
      )
      .for('update')
    if (!row) return null
    const lines = await this.loadLines(tx, row.id)
    // The order records and redeems the basket's codes: never more than the one in force.
    if (row.kind === 'session') await this.dropCodesOverLimit(tx, ctx.site, row, lines)
    // A limited code's hold is extended for the order (or taken again if it expired and a use is
    // left); without one the code is reported and the checkout refuses the changed total.
    // (An ordered basket is only read: its order is the answer.)
    const standing = await this.codeInForce(
      tx,
      ctx.site,
      row,
      lines,
      row.kind === 'session' ? 'order' : 'frozen',
    )
    const priceAs = opts.shippingZone ? { ...row, shippingZone: opts.shippingZone } : row
    const { priced, promoErrors, rates } = await this.price(tx, ctx.site, priceAs, lines, standing)
    const cart = this.present({ ...ctx, cartId: row.id }, priceAs, lines, priced, rates, promoErrors)
    return { row, lines, priced, rates, promoErrors, cart }
  }

  /** The promotions behind a basket's codes. */
  promotionsFor(executor: Executor, siteId: number, codes: string[]): Promise<PromotionRow[]> {
    return this.findPromotions(executor, siteId, codes)
  }

  /** Freezes an ordered basket: no basket call finds it any more; the sweep leaves it alone. */
  async markOrdered(tx: Tx, cartId: string): Promise<void> {
    // The caller calls basketChanged() after its commit; forgetting now stops reads kept meanwhile.
    this.shown.forget(cartId)
    await tx
      .update(carts)
      .set({ kind: 'ordered', orderedAt: sql`now()`, updatedAt: sql`now()` })
      .where(eq(carts.id, cartId))
  }

  // --- Internals --------------------------------------------------------------------------

  private async findSessionCart(executor: Executor, siteId: number, cartId: string): Promise<CartRow | null> {
    if (!isCartId(cartId)) return null
    const [row] = await executor
      .select()
      .from(carts)
      .where(and(eq(carts.id, cartId), eq(carts.siteId, siteId), eq(carts.kind, 'session')))
    return row ?? null
  }

  /** Locks a session basket of the site for the rest of the transaction (a named statement). */
  private async lockSessionCart(tx: Tx, siteId: number, cartId: string): Promise<CartRow | null> {
    const [row] = await tx
      .select()
      .from(carts)
      .where(and(eq(carts.id, cartId), eq(carts.siteId, siteId), eq(carts.kind, 'session')))
      .for('update')
      .prepare('cart_lock')
      .execute()
    return row ?? null
  }

  /**
   * The last statement of a basket change: stores the quantities `change` set (none is fine)
   * and the recomputed header summary, in one statement (a named one: its text never varies).
   */
  private async storeChanges(
    tx: Tx,
    cartId: string,
    quantities: Map<number, number>,
    priced: PricedCart,
  ): Promise<void> {
    const written = tx.$with('written', { id: cartItems.id }).as(
      sql`update ${cartItems} set quantity = v.quantity
        from unnest(${sql.param([...quantities.keys()])}::integer[], ${sql.param([...quantities.values()])}::integer[]) as v(id, quantity)
        where ${cartItems.id} = v.id and ${cartItems.cartId} = ${cartId}
        returning ${cartItems.id}`,
    )
    await tx
      .with(written)
      .update(carts)
      .set({ summaryCount: priced.totalItems, summaryTotal: priced.totalPriceIncTax, updatedAt: sql`now()` })
      .where(eq(carts.id, cartId))
      .prepare('cart_store')
      .execute()
  }

  /**
   * A session basket and its lines in one statement (a read: no lock; one snapshot for both).
   * Null when there is no such basket.
   */
  private async findCartWithLines(
    siteId: number,
    cartId: string,
  ): Promise<{ row: CartRow; lines: LineRow[] } | null> {
    if (!isCartId(cartId)) return null
    this.cartPageRead ??= cartWithLinesRead(this.db)
    const rows = await this.cartPageRead.execute({ cartId, siteId })
    const first = rows[0]
    if (!first) return null
    const lines: LineRow[] = []
    for (const { cart: _cart, item, ...rest } of rows) {
      // As loadLines' inner joins: a line counts only with its product and group.
      if (item && rest.sku !== null && rest.groupName !== null) lines.push({ item, ...rest } as LineRow)
    }
    return { row: first.cart, lines }
  }

  /**
   * The first basket of a browser. With an owner key, concurrent first adds meet on one row: the
   * insert that loses the race waits for the winner's transaction and then locks its basket.
   */
  private async createSessionCart(tx: Tx, ctx: CartContext): Promise<{ row: CartRow; fresh: boolean }> {
    const customerId = ctx.customerId ?? null
    const ownerKey = ctx.ownerKey ?? null
    if (ownerKey) {
      const [created] = await tx
        .insert(carts)
        .values({ siteId: ctx.site.id, customerId, ownerKey })
        .onConflictDoNothing({ target: [carts.siteId, carts.ownerKey] })
        .returning()
      if (created) return { row: created, fresh: true }
      const [existing] = await tx
        .select()
        .from(carts)
        .where(and(eq(carts.siteId, ctx.site.id), eq(carts.ownerKey, ownerKey), eq(carts.kind, 'session')))
        .for('update')
      // Only a basket that is still this visitor's (no other customer has taken it over).
      if (existing && existing.customerId === customerId) return { row: existing, fresh: false }
    }
    const [created] = await tx.insert(carts).values({ siteId: ctx.site.id, customerId }).returning()
    return { row: created!, fresh: true }
  }

  /**
   * One locked change of the visitor's basket. Its round trips: the row lock and the lines read
   * (sent together: on PostgreSQL the pool pipelines them, and the read runs once the lock is
   * granted, so it sees the lines as the previous holder left them); whatever `change` must write
   * itself (new lines, deletions, codes); and one statement that stores the changed quantities
   * and the recomputed summary. An add of one more of a line is three statements.
   */
  private async mutate(ctx: CartContext, opts: MutateOptions, change: BasketChange): Promise<CartResult> {
    // The basket's kept Cart page read is forgotten before the change and again after it, so a
    // read that overlapped the change is not kept (cart.read-cache.ts).
    // More codes than a basket may hold: refused before anything is read or written.
    if (opts.promotionCodes && tooManyPromotionCodes(opts.promotionCodes)) {
      throw invalid('promotionCodes', CART_TEXT.promoOnlyOne)
    }
    const known = ctx.cartId && isCartId(ctx.cartId) ? ctx.cartId : null
    if (known) this.shown.forget(known)
    let result: CartResult
    try {
      result = await this.transactionOf(ctx, opts, change)
    } finally {
      if (known) this.shown.forget(known)
    }
    if (result.cartId) {
      // A basket this change made, or found by the browser's owner key: forgotten as well.
      if (result.cartId !== known) this.shown.forget(result.cartId)
      this.summaries.set(`${ctx.site.id}:${result.cartId}`, summaryOf(result.cart))
      this.changed({ kind: 'summary', siteId: ctx.site.id, cartId: result.cartId })
    }
    return result
  }

  private async transactionOf(
    ctx: CartContext,
    opts: MutateOptions,
    change: BasketChange,
  ): Promise<CartResult> {
    return this.db.transaction(async (tx) => {
      let cart: CartRow | null = null
      let lines: LineRow[] = []
      if (ctx.cartId && isCartId(ctx.cartId)) {
        const [row, read] = await Promise.all([
          this.lockSessionCart(tx, ctx.site.id, ctx.cartId),
          this.loadLines(tx, ctx.cartId),
        ])
        // Lines of an id that is not this site's session basket are never used.
        if (row) [cart, lines] = [row, read]
      }
      if (!cart) {
        if (!opts.create) {
          if (ctx.cartId && !isCartId(ctx.cartId)) throw new CartNotFoundError()
          if (opts.promotionCodes !== undefined && !ctx.cartId) {
            // Codes without a basket: nothing to apply them to.
            const errors: PromoError[] = opts.promotionCodes
              .filter((c) => c.trim())
              .map((code) => ({ message: CART_TEXT.promoInvalid, code }))
            return { cartId: null, cart: { ...this.empty(ctx), errors: { promotionCodes: errors } } }
          }
          throw new CartNotFoundError()
        }
        const created = await this.createSessionCart(tx, ctx)
        cart = created.row
        // A basket another request of this browser made a moment ago may hold lines already.
        if (!created.fresh) lines = await this.loadLines(tx, cart.id)
      }
      const id = cart.id
      const quantities = new Map<number, number>()
      // A read again sees the quantities not written yet as they will be.
      const reread = async () => {
        const fresh = await this.loadLines(tx, id)
        for (const l of fresh) l.item.quantity = quantities.get(l.item.id) ?? l.item.quantity
        return fresh
      }
      if (await change(tx, cart, lines, quantities)) lines = await reread()
      const promoErrors: PromoError[] = []
      if (opts.promotionCodes !== undefined) {
        promoErrors.push(...(await this.applyCodes(tx, ctx.site, cart, lines, opts.promotionCodes)))
      } else await this.dropCodesOverLimit(tx, ctx.site, cart, lines)
      const standing = await this.codeInForce(tx, ctx.site, cart, lines, 'write')
      if (await this.syncGifts(tx, cart, lines, standing.promo)) lines = await reread()
      const { priced, promoErrors: evalErrors, rates } = await this.price(tx, ctx.site, cart, lines, standing)
      for (const e of evalErrors) if (!promoErrors.some((p) => p.code === e.code)) promoErrors.push(e)
      // Totals are whole minor units in 32-bit columns (basket summary, order, lines): a basket
      // beyond the online limit is refused with a message, never stored (and never a 500).
      if (priced.totalPriceIncTax > MAX_BASKET_TOTAL_MINOR) throw invalid('items', CART_TEXT.basketTooLarge)
      await this.storeChanges(tx, id, quantities, priced)
      return { cartId: cart.id, cart: this.present(ctx, cart, lines, priced, rates, promoErrors) }
    })
  }

  /**
   * Sets quantities on the loaded lines (patched in place, and noted in `quantities` for the
   * summary's statement to write); true when some were removed.
   */
  private async setQuantities(
    tx: Tx,
    cart: CartRow,
    lines: LineRow[],
    items: { id: number; quantity: number }[],
    quantities: Map<number, number>,
  ): Promise<boolean> {
    const byId = new Map(lines.map((l) => [l.item.id, l]))
    const remove: number[] = []
    for (const [index, change] of items.entries()) {
      const row = byId.get(change.id)
      // Another visitor's line, or one already gone: the same answer as a missing one.
      if (!row) throw new CartNotFoundError()
      const line = row.item
      if (line.isFreeGift)
        throw invalid(`items.${index}.quantity`, 'The quantity of a free gift cannot be changed.')
      if (line.parentId !== null && !line.isIsolatedFromParent) {
        throw invalid(`items.${index}.quantity`, 'This item follows the quantity of the item it belongs to.')
      }
      if (change.quantity === 0) {
        remove.push(line.id)
        continue
      }
      if (change.quantity < row.minimumOrder) {
        throw invalid(
          `items.${index}.quantity`,
          `The minimum order quantity for ${row.productName || row.groupName} is ${row.minimumOrder}.`,
        )
      }
      quantities.set(line.id, change.quantity)
      line.quantity = change.quantity
      // Children that are not isolated follow their parent.
      for (const c of lines) {
        if (c.item.parentId === line.id && !c.item.isIsolatedFromParent) {
          quantities.set(c.item.id, change.quantity)
          c.item.quantity = change.quantity
        }
      }
    }
    if (remove.length) await this.deleteLines(tx, cart.id, remove)
    return remove.length > 0
  }

  /** Deletes lines and their children. */
  private async deleteLines(tx: Tx, cartId: string, ids: number[]): Promise<void> {
    await tx
      .delete(cartItems)
      .where(
        and(eq(cartItems.cartId, cartId), or(inArray(cartItems.id, ids), inArray(cartItems.parentId, ids))),
      )
  }

  /** A basket's lines with their catalogue columns, in id order (a named statement). */
  private async loadLines(executor: Executor, cartId: string): Promise<LineRow[]> {
    return executor
      .select({ item: cartItems, ...lineColumns })
      .from(cartItems)
      .innerJoin(products, eq(products.id, cartItems.productId))
      .innerJoin(productGroups, eq(productGroups.id, products.groupId))
      .leftJoin(categories, eq(categories.id, cartItems.categoryId))
      .where(eq(cartItems.cartId, cartId))
      .orderBy(asc(cartItems.id))
      .prepare('cart_lines')
      .execute()
  }

  private async findPromotions(executor: Executor, siteId: number, codes: string[]): Promise<PromotionRow[]> {
    if (codes.length === 0) return []
    return executor
      .select()
      .from(promotions)
      .where(and(eq(promotions.siteId, siteId), inArray(promotions.code, codes)))
  }

  /**
   * Makes `requested` the cart's codes. A code dropped gives back its use; a new code must exist
   * on this site, be in date, reach its minimum spend and (when limited) win one of the uses left
   * (promotion-holds.ts: one statement decides, so a limit holds however many baskets try at
   * once, and holds that expired count as free). Promotion rows are touched in id order.
   */
  private async applyCodes(
    tx: Tx,
    site: Site,
    cart: CartRow,
    lines: LineRow[],
    requested: string[],
  ): Promise<PromoError[]> {
    // One code per basket (ADR 0120): enforced here too, whatever called with whatever list.
    if (tooManyPromotionCodes(requested)) throw invalid('promotionCodes', CART_TEXT.promoOnlyOne)
    const wanted: { code: string; entered: string }[] = []
    for (const entered of requested) {
      const code = normaliseCode(entered)
      if (code && !wanted.some((w) => w.code === code)) wanted.push({ code, entered: entered.trim() })
    }
    const current = cart.promotionCodes ?? []
    const removed = current.filter((c) => !wanted.some((w) => w.code === c))
    const added = wanted.filter((w) => !current.includes(w.code))
    const rows = await this.findPromotions(tx, site.id, [...removed, ...added.map((a) => a.code)])
    const byCode = new Map(rows.map((r) => [r.code, r]))

    const goods = this.goodsTotal(lines)
    const errors: PromoError[] = []
    const keep = current.filter((c) => !removed.includes(c))
    // Releases and takes, ordered by promotion id: two baskets swapping codes never deadlock.
    const steps: { promotionId: number; run: () => Promise<void> }[] = []
    for (const code of removed) {
      const promo = byCode.get(code)
      if (promo) steps.push({ promotionId: promo.id, run: () => releasePromotion(tx, promo.id, cart.id) })
    }
    const outcomes = new Map<string, PromoError | null>()
    for (const { code, entered } of added) {
      const promo = byCode.get(code)
      if (!promo || !promotionApplies(promo, goods)) {
        outcomes.set(code, { message: CART_TEXT.promoInvalid, code: entered })
        continue
      }
      steps.push({
        promotionId: promo.id,
        run: async () => {
          const held = await holdPromotion(tx, promo, cart.id, { extend: false })
          outcomes.set(code, held ? null : { message: CART_TEXT.promoUsedUp, code: entered })
        },
      })
    }
    steps.sort((a, b) => a.promotionId - b.promotionId)
    for (const step of steps) await step.run()
    for (const { code } of added) {
      const error = outcomes.get(code)
      if (error) errors.push(error)
      else keep.push(code)
    }
    await tx.update(carts).set({ promotionCodes: keep }).where(eq(carts.id, cart.id))
    cart.promotionCodes = keep
    return errors
  }

  /**
   * A basket row stored before the one-code limit may hold several codes: all but the one in
   * force are dropped, and their uses given back (inside the caller's locked change).
   */
  private async dropCodesOverLimit(tx: Tx, site: Site, cart: CartRow, lines: LineRow[]): Promise<void> {
    const inForce = promotionCodesInForce(cart.promotionCodes)
    if ((cart.promotionCodes ?? []).length > inForce.length)
      await this.applyCodes(tx, site, cart, lines, inForce)
  }

  private goodsTotal(lines: LineRow[]): number {
    return priceCart(this.pricingLines(lines.filter((l) => !l.item.isFreeGift)), {
      vatRate: 0,
      applyVatRelief: false,
      rates: [],
      despatchType: '',
      minimumOrderValue: 0,
      discount: { percentage: 0, fixed: 0, freeDelivery: false },
    }).itemsTotal
  }

  /**
   * Adds the gift line of the code in force when it is a free gift that applies, and drops gifts
   * no longer earned (`promo` is the code in force that can be used: codeInForce()).
   */
  private async syncGifts(
    tx: Tx,
    cart: CartRow,
    lines: LineRow[],
    promo: PromotionRow | null,
  ): Promise<boolean> {
    const goods = this.goodsTotal(lines)
    const wanted = new Set(
      promo &&
        promo.kind === 'free_gift' &&
        promo.giftProductId !== null &&
        promotionApplies(promo, goods) &&
        goods > 0
        ? [promo.giftProductId]
        : [],
    )
    const gifts = lines.filter((l) => l.item.isFreeGift)
    const stale = gifts.filter((g) => !wanted.has(g.item.productId)).map((g) => g.item.id)
    const missing = [...wanted].filter((id) => !gifts.some((g) => g.item.productId === id))
    if (stale.length) await tx.delete(cartItems).where(inArray(cartItems.id, stale))
    for (const productId of missing) {
      await tx.insert(cartItems).values({ cartId: cart.id, productId, quantity: 1, isFreeGift: true })
    }
    return stale.length > 0 || missing.length > 0
  }

  private pricingLine(l: LineRow, bracketQuantity?: number) {
    const { base, options } = resolveOptions(l.categoryBuilder, l.item.options)
    const customisation = l.item.workWearSession?.builder_json.customisation ?? []
    return {
      id: l.item.id,
      quantity: l.item.quantity,
      brackets: normaliseBrackets(l.priceList),
      basePrice: base ? base.cost : null,
      optionCosts: [...options.map((o) => o.cost), ...customisation.map((c) => c.cost)],
      vatReliefEligible: l.vatReliefEligible,
      isFreeGift: l.item.isFreeGift,
      bracketQuantity,
    }
  }

  /**
   * Pricing inputs of the lines. The lines of a numbered sign set (one sequence_id) and of one
   * workwear order (one session) are priced by the bracket of their total quantity.
   */
  private pricingLines(lines: LineRow[]) {
    const groupOf = (l: LineRow) =>
      l.item.sequenceId
        ? `s:${l.item.sequenceId}`
        : l.item.workWearSession
          ? `w:${l.item.workWearSession.id}`
          : null
    const totals = new Map<string, number>()
    for (const l of lines) {
      const key = groupOf(l)
      if (key && !l.item.isFreeGift) totals.set(key, (totals.get(key) ?? 0) + l.item.quantity)
    }
    return lines.map((l) => {
      const key = groupOf(l)
      return this.pricingLine(l, key ? totals.get(key) : undefined)
    })
  }

  /**
   * The basket's code in force (never more than one, even from a row stored before the limit:
   * ADR 0120) and whether it can be used now: it exists, is in date, the goods reach its minimum
   * spend, and a limited code's use is held (ADR 0122). A hold that expired is taken again when a
   * use is left: by the caller's locked change (`write`; `order` also extends the hold for the
   * order being placed), or on a read in a short locked change of its own (`read`). Otherwise the
   * code stays on the basket, unpriced, with the spec's 'not valid or applicable' message.
   */
  private async codeInForce(
    executor: Executor,
    site: Site,
    cart: CartRow,
    lines: LineRow[],
    mode: 'read' | 'write' | 'order' | 'frozen',
  ): Promise<CodeInForce> {
    const [code] = promotionCodesInForce(cart.promotionCodes)
    if (code === undefined) return { promo: null, errors: [] }
    const [found] = await this.findPromotions(executor, site.id, [code])
    const refused = { promo: null, errors: [{ message: CART_TEXT.promoInvalid, code }] }
    if (!found || !promotionApplies(found, this.goodsTotal(lines))) return refused
    let held: boolean
    if (mode === 'frozen') held = true
    else if (mode === 'read') {
      held = (await holdsPromotion(executor, found, cart.id)) || (await this.holdAgain(site, cart.id, found))
    } else {
      held = await holdPromotion(executor as Tx, found, cart.id, { extend: mode === 'order' })
    }
    return held ? { promo: found, errors: [] } : refused
  }

  /** A read found the basket's hold expired: takes a use again, under the basket's lock, if one is left. */
  private async holdAgain(site: Site, cartId: string, promo: PromotionRow): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const row = await this.lockSessionCart(tx, site.id, cartId)
      if (!row || promotionCodesInForce(row.promotionCodes)[0] !== promo.code) return false
      return holdPromotion(tx, promo, cartId, { extend: false })
    })
  }

  private async price(
    executor: Executor,
    site: Site,
    cart: CartRow,
    lines: LineRow[],
    /** The code in force as the caller found it, or how to find it: 'read' (this.db only) or 'frozen' (no hold) */
    standing: CodeInForce | 'read' | 'frozen',
  ): Promise<{ priced: PricedCart; promoErrors: PromoError[]; rates: DeliveryRateRow[] }> {
    const allRates = await this.rates(executor, site.id)
    const zone = cart.shippingZone ?? allRates[0]?.zone ?? null
    const rates = allRates.filter((r) => r.zone === zone)
    const { promo, errors } =
      typeof standing === 'string' ? await this.codeInForce(executor, site, cart, lines, standing) : standing
    const promoErrors = [...errors]
    const discount = promotionDiscount(promo)
    const priced = priceCart(this.pricingLines(lines), {
      vatRate: site.settings.tax.rate,
      applyVatRelief: reliefApplies(site, cart, lines),
      rates: rates.map((r) => ({
        id: r.id,
        despatchType: r.despatchType,
        price: r.price,
        freeOver: r.freeOver,
      })),
      despatchType: cart.despatchType ?? rates[0]?.despatchType ?? '',
      minimumOrderValue: site.settings.minimumOrderValue,
      discount,
    })
    return { priced, promoErrors, rates }
  }

  private empty(ctx: CartContext): Cart {
    return {
      id: null,
      items: [],
      promotionCodes: [],
      errors: { promotionCodes: [] },
      despatch_types: [],
      despatch_type: '',
      cart_total_price: 0,
      cart_total_price_inc_tax: 0,
      cart_total_tax: 0,
      cart_total_shipping: 0,
      cart_total_shipping_inc_tax: 0,
      cart_total_discount: 0,
      cart_total_discount_inc_tax: 0,
      cart_total_items: 0,
      customer_id: ctx.customerId ?? null,
      shippingZone: '',
      shippingRates: [],
      shortForFreeShipping: null,
      short_for_minimum_order_value: 0,
      minimum_order_value: ctx.site.settings.minimumOrderValue,
      items_total: 0,
      items_count: 0,
      vat_items: [],
      customisation_total: 0,
      ApplyVATRelief: false,
      shared: false,
    }
  }

  private present(
    ctx: CartContext,
    cart: CartRow,
    lines: LineRow[],
    priced: PricedCart,
    rates: DeliveryRateRow[],
    promoErrors: PromoError[],
  ): Cart {
    const items: CartItem[] = lines.map((l, i) => {
      const p = priced.lines[i]!
      const { options } = resolveOptions(l.categoryBuilder, l.item.options)
      const unit = p.unitPrice + p.optionsUnitCost
      const image = imagesOf(l.groupMedia)[0]
      const url = l.groupUrl
      const signPage = l.item.printableSign ? signPageOf(l) : null
      return {
        id: l.item.id,
        quantity: l.item.quantity,
        minimumOrder: l.minimumOrder,
        parent: l.item.parentId,
        is_isolated_from_parent: l.item.isIsolatedFromParent,
        IsFreeGift: l.item.isFreeGift,
        sequence_id: l.item.sequenceId,
        printable_sign:
          l.item.printableSign && signPage !== null
            ? { url: signPage, signReads: l.item.printableSign.signReads ?? '' }
            : null,
        unit_price: unit,
        unit_price_inc_tax: unit + vatOn(unit, p.vatRate),
        line_total: p.net,
        line_total_inc_tax: p.net + p.vat,
        line_tax: p.vat,
        line_total_ex_discount_ex_tax: p.gross,
        vat_rate: p.vatRate,
        options: {
          price_ex_tax: p.optionsUnitCost,
          items: options.map((o) => ({ id: o.id, title: o.title, name: o.name, cost: o.cost })),
        },
        product: {
          id: l.item.productId,
          sku: l.sku,
          product_code: l.productCode || l.sku,
          name: l.productName || l.groupName,
          url,
          price: p.unitPrice,
          details: l.description,
          media: image ? imageUrl(image.file_location, { w: 120, h: 120, fit: 'contain' }) : null,
          category:
            l.item.categoryId && l.categoryUrl
              ? { id: l.item.categoryId, name: l.categoryName ?? '', url: l.categoryUrl }
              : null,
        },
        FullURL: `${ctx.baseUrl}${url}`,
        category: l.categoryUrl ? { url: l.categoryUrl } : null,
        work_wear_session: l.item.workWearSession,
        edit_url: signPage !== null ? withQuery(signPage, 'item_id', String(l.item.id)) : null,
        work_wear_url: l.item.workWearSession
          ? withQuery(
              `/custom-workwear/${l.item.workWearSession.builder_json.cat_id}`,
              'session_id',
              l.item.workWearSession.id,
            )
          : null,
        ...builderExtras(l.item),
      }
    })
    const despatchType = rates.find((r) => r.id === priced.selectedRateId)?.despatchType ?? ''
    return {
      id: cart.id,
      items,
      promotionCodes: promotionCodesInForce(cart.promotionCodes),
      errors: { promotionCodes: promoErrors },
      despatch_types: [...new Set(rates.map((r) => r.despatchType))],
      despatch_type: despatchType,
      cart_total_price: priced.totalPrice,
      cart_total_price_inc_tax: priced.totalPriceIncTax,
      cart_total_tax: priced.tax,
      cart_total_shipping: priced.shipping,
      cart_total_shipping_inc_tax: priced.shipping + priced.shippingVat,
      cart_total_discount: priced.discount,
      cart_total_discount_inc_tax: priced.discountIncTax,
      cart_total_items: priced.totalItems,
      customer_id: cart.customerId,
      shippingZone: rates[0]?.zone ?? cart.shippingZone ?? '',
      shippingRates: rates.map((r) => ({
        id: r.id,
        name: r.name,
        price: r.id === priced.selectedRateId ? priced.shipping : r.price,
        selected: r.id === priced.selectedRateId,
        despatch_type: r.despatchType,
      })),
      shortForFreeShipping: priced.lines.length ? priced.shortForFreeShipping : null,
      short_for_minimum_order_value: priced.shortForMinimumOrderValue,
      minimum_order_value: ctx.site.settings.minimumOrderValue,
      items_total: priced.itemsTotal,
      items_count: priced.itemsCount,
      vat_items: priced.vatItems,
      customisation_total: priced.customisationTotal,
      ApplyVATRelief: reliefApplies(ctx.site, cart, lines),
      show_vat_relief:
        ctx.site.settings.tax.rate > 0 && lines.some((l) => l.vatReliefEligible && !l.item.isFreeGift),
      vat_relief_declaration: cart.vatReliefDeclaration
        ? { name: cart.vatReliefDeclaration.name, condition: cart.vatReliefDeclaration.condition }
        : null,
      shared: cart.shared,
    }
  }
}

/**
 * What the builders add to a presented line: a sign's preview, PDF proof and number; a workwear
 * line's garment, colour, size, customisation and preview.
 */
function builderExtras(item: CartItemRow): Partial<CartItem> {
  const extras: Partial<CartItem> = {}
  if (item.printableSign?.design) {
    extras.sign_preview_url = `/design-a-sign/preview/${item.id}.svg`
    extras.sign_proof_url = `/design-a-sign/proof/${item.id}.pdf`
    extras.sequence_label = item.printableSign.design.numberLabel ?? null
    extras.sign_details = `${item.printableSign.design.sizeLabel}, ${item.printableSign.design.material}`
  }
  const ww = item.workWearSession
  if (ww) {
    extras.work_wear = {
      garment: ww.builder_json.garment ?? '',
      colour: ww.builder_json.colour ?? '',
      size: ww.builder_json.size ?? '',
      customisation: ww.builder_json.customisation ?? [],
      preview_url: `/custom-workwear/preview/${ww.id}.svg`,
    }
  }
  return extras
}

/**
 * The page a sign line is edited on, from the shop's own routes (ADR 0121): a designed sign's
 * designer for the line's category, otherwise the product's page (spec §2: "the item url"). An
 * address stored on the line (older lines kept the one the browser sent) is never used.
 */
function signPageOf(l: LineRow): string {
  if (l.item.printableSign?.design && l.item.categoryId !== null) return `/design-a-sign/${l.item.categoryId}`
  return l.groupUrl
}

/** A sign as a copy keeps it: without an address (never read; older lines hold a browser's). */
function copiedSign(sign: PrintableSign | null): PrintableSign | null {
  if (!sign) return null
  const { url: _url, ...kept } = sign
  return kept
}

function withQuery(url: string, key: string, value: string): string {
  return `${url}${url.includes('?') ? '&' : '?'}${key}=${encodeURIComponent(value)}`
}

/** A session basket and its lines, as one named statement (`cartId` and `siteId` are given). */
function cartWithLinesRead(db: Db) {
  return db
    .select({ cart: carts, item: cartItems, ...lineColumns })
    .from(carts)
    .leftJoin(cartItems, eq(cartItems.cartId, carts.id))
    .leftJoin(products, eq(products.id, cartItems.productId))
    .leftJoin(productGroups, eq(productGroups.id, products.groupId))
    .leftJoin(categories, eq(categories.id, cartItems.categoryId))
    .where(
      and(
        eq(carts.id, sql.placeholder('cartId')),
        eq(carts.siteId, sql.placeholder('siteId')),
        eq(carts.kind, 'session'),
      ),
    )
    .orderBy(asc(cartItems.id))
    .prepare('cart_page')
}

/** A saved basket of this customer on this site: the only kind the account area may touch. */
function savedBasketOf(siteId: number, customerId: number, id: string) {
  return and(
    eq(carts.id, id),
    eq(carts.siteId, siteId),
    eq(carts.customerId, customerId),
    eq(carts.kind, 'saved'),
  )
}

async function copyLines(tx: Tx, lines: CartItemRow[], cartId: string): Promise<void> {
  const idMap = new Map<number, number>()
  // A workwear line's design lives in its basket's session: the copy gets sessions of its own.
  const sessions = await copyWorkwearSessions(tx, lines, cartId)
  // Parents first, so children can point at the copies.
  const ordered = [...lines].sort(
    (a, b) => Number(a.parentId !== null) - Number(b.parentId !== null) || a.id - b.id,
  )
  for (const line of ordered) {
    const [row] = await tx
      .insert(cartItems)
      .values({
        cartId,
        productId: line.productId,
        categoryId: line.categoryId,
        quantity: line.quantity,
        parentId: line.parentId !== null ? (idMap.get(line.parentId) ?? null) : null,
        isIsolatedFromParent: line.isIsolatedFromParent,
        isFreeGift: line.isFreeGift,
        sequenceId: line.sequenceId,
        printableSign: copiedSign(line.printableSign),
        options: line.options,
        workWearSession: line.workWearSession && {
          ...line.workWearSession,
          id: sessions.get(line.workWearSession.id) ?? line.workWearSession.id,
        },
      })
      .returning({ id: cartItems.id })
    idMap.set(line.id, row!.id)
  }
}

interface ResolvedOption {
  id: number
  title: string
  name: string
  cost: number
}

/**
 * A builder line's chosen items, from the category's builder as it is now: the first selector's
 * item is the base price, every other chosen item an option with its cost.
 */
export function resolveOptions(
  builder: BuilderConfig | null,
  ids: readonly number[],
): { base: ResolvedOption | null; options: ResolvedOption[] } {
  if (!builder || ids.length === 0) return { base: null, options: [] }
  let base: ResolvedOption | null = null
  const options: ResolvedOption[] = []
  const groups = [
    ...builder.selectors.map((g, i) => ({ g, first: i === 0 })),
    ...(builder.options ?? []).map((g) => ({ g, first: false })),
  ]
  for (const id of ids) {
    for (const { g, first } of groups) {
      const item = g.items.find((it) => it.id === id)
      if (!item) continue
      const resolved = {
        id: item.id,
        title: g.name,
        name: item.name,
        cost: Math.max(0, Math.round(item.cost)),
      }
      if (first && !base) base = resolved
      else options.push(resolved)
      break
    }
  }
  return { base, options }
}

/**
 * A builder add must name one item of the first selector (of the line's own SKU when the item
 * names one) and at most one item per group.
 */
function checkOptions(builder: BuilderConfig | null, ids: number[], index: number, listingId: number): void {
  const field = `items.${index}.customisation.options`
  if (!builder) throw invalid(field, 'This category has no product builder.')
  const groups = [...builder.selectors, ...(builder.options ?? [])]
  const used = new Set<number>()
  for (const id of ids) {
    const g = groups.findIndex((group) => group.items.some((it) => it.id === id))
    if (g < 0) throw invalid(field, 'One of the chosen options does not exist.')
    if (used.has(g)) throw invalid(field, 'Choose one item per option.')
    used.add(g)
  }
  if (!used.has(0)) throw invalid(field, `Choose a ${builder.selectors[0]?.name ?? 'size'}.`)
  const first = builder.selectors[0]!.items.find((it) => ids.includes(it.id))!
  if (!(first.cost > 0)) throw invalid(field, 'This option cannot be ordered.')
  // A size that names its SKU is that SKU: the line is the product the shopper built, never another.
  if (typeof first.product_id === 'number' && first.product_id !== listingId) {
    throw invalid(field, `This ${builder.selectors[0]!.name.toLowerCase()} belongs to another product.`)
  }
}

export { CartNotFoundError, CartValidationError }

function reliefLines(lines: LineRow[]) {
  return lines.map((l) => ({
    eligible: l.vatReliefEligible,
    kind: l.vatReliefKind,
    quantity: l.item.quantity,
    isFreeGift: l.item.isFreeGift,
  }))
}

/**
 * Whether eligible lines are zero-rated: the buyer claimed relief with a declaration, and the
 * basket as it is now still qualifies (a later change past a limit ends the relief).
 */
function reliefApplies(site: Site, cart: CartRow, lines: LineRow[]): boolean {
  return (
    cart.applyVatRelief &&
    cart.vatReliefDeclaration !== null &&
    vatReliefProblem(site.settings.tax.rate, reliefLines(lines)) === null
  )
}
