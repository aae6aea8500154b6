/**
 * What the basket's callers and its parts share: the request's context, the shapes of lines and
 * results, and the one thing the basket asks of the builders (copying their designs). Nothing
 * here reads the database.
 */
import type { SavedBasket } from '../../../shared/account.ts'
import type { BuilderConfig, CatalogMedia } from '../../../shared/catalog.ts'
import type { Cart, PromoError } from '../../../shared/cart.ts'
import type { CartSummary } from '../../../shared/page-props.ts'
import type { VatReliefKind } from '../../../shared/vat-relief.ts'
import type { Tx } from '../../db/client.ts'
import type { products } from '../catalog/catalog.tables.ts'
import type { Site } from '../sites/sites.service.ts'
import type { PricedCart } from './cart.pricing.ts'
import type { CartItemRow, CartRow, DeliveryRateRow, PrintableSign, WorkWearSession } from './cart.tables.ts'

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

/** A saved basket as the account's Baskets page lists it (spec §3 Saved cart): the page's own type. */
export type SavedBasketSummary = SavedBasket

export interface CartResult {
  cartId: string | null
  cart: Cart
}

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
export type CartItemRowPriceList = (typeof products.$inferSelect)['priceList']

/** A basket row with its lines, as one read finds them. */
export interface BasketRead {
  row: CartRow
  lines: LineRow[]
}

/** A cached thing a basket write made stale (for other instances' caches). */
export type CartCacheChange = { kind: 'summary'; siteId: number; cartId: string } | { kind: 'rates' }

/**
 * What the basket asks of whoever keeps designs its lines point at (today the workwear builder's
 * sessions, `cart_items.work_wear_session.id`): when a basket is copied (share link, saved
 * basket), copy the designs of `lines` (all of one basket) for the basket `toCartId`, and return
 * each old design id with its copy's. An id left out keeps pointing at the original. The basket
 * declares this and `app.ts` hands it the builder's function, so the basket never imports a
 * builder (ADR 0151).
 */
export type DesignCopier = (
  tx: Tx,
  lines: readonly CartItemRow[],
  toCartId: string,
) => Promise<Map<string, string>>

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export function isCartId(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value)
}

export function summaryOf(cart: Pick<Cart, 'cart_total_items' | 'cart_total_price_inc_tax'>): CartSummary {
  return { count: cart.cart_total_items, total: cart.cart_total_price_inc_tax }
}
