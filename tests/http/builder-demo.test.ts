/**
 * Every builder product of the demo catalogue, on both sites, built and added the way the page
 * does it (the shared `builderBasketItems`): the basket line is exactly what was built, that
 * product, its size and options, at the builder's price.
 */
import { and, eq, inArray, isNotNull } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  builderBasketItems,
  builderUnitCost,
  initialSelection,
  selectedItems,
  type BuilderSelection,
} from '../../src/shared/builder.ts'
import type { Cart } from '../../src/shared/cart.ts'
import type { BuilderConfig } from '../../src/shared/catalog.ts'
import { categories, productGroups, products, sites } from '../../src/server/db/schema.ts'
import { buildTestApp, type TestApp } from '../helpers/app.ts'
import { Visitor } from '../helpers/visitor.ts'

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp()
}, 240_000)
afterAll(() => t?.close())

interface BuilderProduct {
  host: string
  url: string
  name: string
  skuIds: Set<number>
}

async function builderProducts(): Promise<BuilderProduct[]> {
  const db = t.app.db
  const rows = await db
    .select({
      host: sites.host,
      groupId: productGroups.id,
      url: productGroups.url,
      name: productGroups.name,
    })
    .from(productGroups)
    .innerJoin(categories, eq(categories.id, productGroups.categoryId))
    .innerJoin(sites, eq(sites.id, productGroups.siteId))
    .where(
      and(isNotNull(categories.builder), eq(productGroups.published, true), eq(categories.published, true)),
    )
  const published = rows.filter((r) => r.url)
  const skus = published.length
    ? await db
        .select({ id: products.id, groupId: products.groupId, published: products.published })
        .from(products)
        .where(
          inArray(
            products.groupId,
            published.map((r) => r.groupId),
          ),
        )
    : []
  return published.map((r) => ({
    host: r.host,
    url: r.url,
    name: r.name,
    skuIds: new Set(skus.filter((s) => s.groupId === r.groupId && s.published).map((s) => s.id)),
  }))
}

/** Chooses the last item of every selector and the first of every option group: all groups used. */
function fullSelection(builder: BuilderConfig): BuilderSelection {
  const start = initialSelection(builder)
  return {
    selectors: builder.selectors.map((g, i) => (i === 0 ? start.selectors[0]! : g.items.at(-1)!.id)),
    options: builder.options.map((g) => g.items[0]?.id ?? null),
  }
}

describe('the demo product builders', () => {
  it('add exactly the product, size, options and price the shopper built, on every builder product', async () => {
    const all = await builderProducts()
    expect(all.length).toBeGreaterThanOrEqual(20)
    expect(new Set(all.map((p) => p.host)).size).toBeGreaterThanOrEqual(1)
    for (const p of all) {
      const v = await new Visitor(t.app, p.host).start()
      const page = await v.visit(p.url)
      expect(page.statusCode, p.url).toBe(200)
      const props = page.json().props as {
        product: { builder: BuilderConfig | null }
        category: { id: number }
      }
      const builder = props.product.builder
      expect(builder, `${p.url} shows a builder`).not.toBeNull()
      // Every size the page offers is one of this product's own SKUs.
      for (const size of builder!.selectors[0]!.items)
        expect(p.skuIds.has(size.product_id!), p.url).toBe(true)
      // Each size in turn, with every other group chosen.
      for (const size of builder!.selectors[0]!.items) {
        const selection = {
          ...fullSelection(builder!),
          selectors: [size.id, ...fullSelection(builder!).selectors.slice(1)],
        }
        const items = builderBasketItems(builder!, selection, 3, props.category.id)
        expect(items, p.url).not.toBeNull()
        const res = await v.post('/cart/add', { items })
        expect(res.statusCode, `${p.url} ${size.name}: ${res.body}`).toBe(200)
        const cart = res.json() as Cart
        const line = cart.items.find((l) => l.options.items.length > 0 && l.product.id === size.product_id)
        expect(line, `${p.url} ${size.name}`).toBeDefined()
        expect(line!.product.name.startsWith(p.name), `${line!.product.name} is ${p.name}`).toBe(true)
        expect(line!.product.name).toContain(size.name)
        const chosen = selectedItems(builder!, selection).slice(1)
        expect(line!.options.items.map((o) => `${o.title}: ${o.name}`)).toEqual(
          chosen.map((c) => {
            const group = [...builder!.selectors, ...builder!.options].find((g) => g.items.includes(c))!
            return `${group.name}: ${c.name}`
          }),
        )
        expect(line!.quantity).toBe(3)
        expect(line!.unit_price).toBe(builderUnitCost(builder!, selection))
        expect(line!.line_total).toBe(builderUnitCost(builder!, selection) * 3)
      }
    }
  })

  it('refuses a size of another product of the same builder', async () => {
    const all = await builderProducts()
    const [a, b] = all.filter((p) => p.host === all[0]!.host)
    const v = await new Visitor(t.app, a!.host).start()
    const pageA = (await v.visit(a!.url)).json().props
    const pageB = (await v.visit(b!.url)).json().props
    const builderB = pageB.product.builder as BuilderConfig
    const sizeOfB = builderB.selectors[0]!.items[0]!
    // What a tampered page would send: this product's SKU with the other product's size.
    const res = await v.post('/cart/add', {
      items: [
        {
          listing_id: [...a!.skuIds][0],
          quantity: 1,
          category_id: pageA.category.id,
          customisation: { options: [sizeOfB.id] },
        },
      ],
    })
    expect(res.statusCode).toBe(422)
    expect(res.json().errors['items.0.customisation.options']).toEqual([
      'This size belongs to another product.',
    ])
  })
})
