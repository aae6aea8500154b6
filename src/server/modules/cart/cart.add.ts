/**
 * Adding products to the basket (the product pages, quick order, the builders with options):
 * each line checked against the catalogue of the site in the basket's locked change, a plain
 * line merged with the same product's line already there, and every new line inserted in one
 * statement (ADR 0111: one more of a line is three statements in all).
 */
import { eq, inArray } from 'drizzle-orm'
import type { BuilderConfig } from '../../../shared/catalog.ts'
import { MAX_QUANTITY } from '../../../shared/cart.ts'
import { categories, productGroups, products } from '../catalog/catalog.tables.ts'
import { invalid } from './cart.errors.ts'
import {
  catalogColumns,
  catalogLineOf,
  publishedOnSite,
  type CatalogCategory,
  type CatalogLine,
} from './cart.lines.ts'
import { mutate } from './cart.mutate.ts'
import type { BasketStore } from './cart.store.ts'
import { cartItems } from './cart.tables.ts'
import type { AddLine, CartContext, CartResult } from './cart.types.ts'

/** Adds `items` (and applies `promotionCodes` when given) in one locked change. */
export async function addLines(
  store: BasketStore,
  ctx: CartContext,
  items: AddLine[],
  promotionCodes?: string[],
): Promise<CartResult> {
  return mutate(
    store,
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
          .where(publishedOnSite(ctx.site.id, ids))
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
            throw invalid(`items.${index}.quantity`, `The quantity may not be greater than ${MAX_QUANTITY}.`)
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
