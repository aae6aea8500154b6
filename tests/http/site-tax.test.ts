/**
 * Tax is a site setting: Harbour (GBP) charges UK VAT at 20%, Northgate (a USD export site)
 * charges none, and the basket follows each site's own setting.
 */
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Cart } from '../../src/shared/cart.ts'
import { productGroups, products, sites } from '../../src/server/db/schema.ts'
import { buildTestApp, type TestApp } from '../helpers/app.ts'
import { Visitor } from '../helpers/visitor.ts'

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp()
}, 240_000)
afterAll(() => t?.close())

async function anySku(host: string): Promise<number> {
  const [row] = await t.app.db
    .select({ id: products.id })
    .from(products)
    .innerJoin(productGroups, eq(productGroups.id, products.groupId))
    .innerJoin(sites, eq(sites.id, products.siteId))
    .where(
      and(
        eq(sites.host, host),
        eq(products.published, true),
        eq(productGroups.published, true),
        eq(products.minimumOrder, 1),
      ),
    )
    .limit(1)
  return row!.id
}

async function basketWithOne(host: string): Promise<Cart> {
  const v = await new Visitor(t.app, host).start()
  const res = await v.post('/cart/add', { items: [{ listing_id: await anySku(host), quantity: 2 }] })
  expect(res.statusCode).toBe(200)
  return res.json() as Cart
}

describe('tax per site', () => {
  it('shares each site’s tax setting with the page', async () => {
    const harbour = await new Visitor(t.app, 'localhost').start()
    expect((await harbour.visit('/')).json().props.site.tax).toEqual({
      name: 'VAT',
      rate: 20,
      pricesIncludeTax: false,
    })
    const northgate = await new Visitor(t.app, '127.0.0.1').start()
    const site = (await northgate.visit('/')).json().props.site
    expect(site.tax.rate).toBe(0)
    expect(site.tax.name).not.toBe('VAT')
    expect(site.calendar).toBe('us-federal')
  })

  it('charges UK VAT at 20% on the Harbour basket', async () => {
    const cart = await basketWithOne('localhost')
    expect(cart.items[0]!.vat_rate).toBe(20)
    expect(cart.cart_total_tax).toBeGreaterThan(0)
    expect(cart.cart_total_price_inc_tax).toBe(cart.cart_total_price + cart.cart_total_tax)
  })

  it('charges no VAT on the Northgate basket: totals with and without tax are the same', async () => {
    const cart = await basketWithOne('127.0.0.1')
    expect(cart.items[0]!.vat_rate).toBe(0)
    expect(cart.items[0]!.unit_price_inc_tax).toBe(cart.items[0]!.unit_price)
    expect(cart.cart_total_tax).toBe(0)
    expect(cart.vat_items.every((v) => v.rate === 0 && v.tax === 0)).toBe(true)
    expect(cart.cart_total_price_inc_tax).toBe(cart.cart_total_price)
  })
})

describe('demo site settings', () => {
  it('are valid as seeded, so no setting silently falls back to its default', async () => {
    const { siteSettingsSchema } = await import('../../src/server/modules/sites/sites.settings.ts')
    const { demoSites } = await import('../../src/server/db/seed/sites.ts')
    for (const site of demoSites)
      expect(siteSettingsSchema.safeParse(site.settings).error, site.code).toBeUndefined()
  })

  it('show the company details in each site’s props', async () => {
    const v = await new Visitor(t.app, 'localhost').start()
    const company = (await v.visit('/')).json().props.site.company
    expect(company).toMatchObject({ name: 'Harbour Safety Supplies Ltd', vatNumber: 'GB 123 4567 89' })
  })
})
