/**
 * The basket's statements on its rows and lines, shared by its parts: the lines read with their
 * catalogue columns, the session basket found or locked, lines deleted.
 * The named statements (`cart_lock`, `cart_lines`, `cart_page`) keep their names: PostgreSQL
 * plans each once per connection, and the query budget counts them (ADR 0111).
 */
import { and, asc, eq, inArray, or, sql } from 'drizzle-orm'
import type { BuilderConfig, CatalogMedia } from '../../../shared/catalog.ts'
import type { VatReliefKind } from '../../../shared/vat-relief.ts'
import type { Db, Executor, Tx } from '../../db/client.ts'
import { categories, productGroups, products } from '../catalog/catalog.tables.ts'
import { cartItems, carts, type CartItemRow, type CartRow } from './cart.tables.ts'
import { isCartId, type CartItemRowPriceList, type LineRow } from './cart.types.ts'

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
export const catalogColumns = {
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
export type CatalogLine = {
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
export interface CatalogCategory {
  id: number
  name: string | null
  url: string | null
  builder: BuilderConfig | null
}

/** The catalogue side of a basket line (read with the line, in the same transaction). */
export function catalogLineOf(l: LineRow): CatalogLine {
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

/** Products `ids` that the site sells now (the product and its group published). */
export function publishedOnSite(siteId: number, ids: number[]) {
  return and(
    inArray(products.id, ids),
    eq(products.siteId, siteId),
    eq(products.published, true),
    eq(productGroups.published, true),
  )
}

/** A basket's lines with their catalogue columns, in id order (a named statement). */
export async function loadLines(executor: Executor, cartId: string): Promise<LineRow[]> {
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

/** A basket's own lines (no catalogue columns), in id order. */
export async function itemsOf(executor: Executor, cartId: string): Promise<CartItemRow[]> {
  return executor.select().from(cartItems).where(eq(cartItems.cartId, cartId)).orderBy(asc(cartItems.id))
}

export async function findSessionCart(
  executor: Executor,
  siteId: number,
  cartId: string,
): Promise<CartRow | null> {
  if (!isCartId(cartId)) return null
  const [row] = await executor
    .select()
    .from(carts)
    .where(and(eq(carts.id, cartId), eq(carts.siteId, siteId), eq(carts.kind, 'session')))
  return row ?? null
}

/** Locks a session basket of the site for the rest of the transaction (a named statement). */
export async function lockSessionCart(tx: Tx, siteId: number, cartId: string): Promise<CartRow | null> {
  const [row] = await tx
    .select()
    .from(carts)
    .where(and(eq(carts.id, cartId), eq(carts.siteId, siteId), eq(carts.kind, 'session')))
    .for('update')
    .prepare('cart_lock')
    .execute()
  return row ?? null
}

/** Deletes lines and their children. */
export async function deleteLines(tx: Tx, cartId: string, ids: number[]): Promise<void> {
  await tx
    .delete(cartItems)
    .where(
      and(eq(cartItems.cartId, cartId), or(inArray(cartItems.id, ids), inArray(cartItems.parentId, ids))),
    )
}

/** A session basket and its lines, as one named statement (`cartId` and `siteId` are given). */
export function cartWithLinesRead(db: Db) {
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
