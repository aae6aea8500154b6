/**
 * The demo shop's catalogue as the seed generates it, for browser tests and scripts that need a
 * product a shopper can add on its own: published (with its group and category), the only SKU
 * of its row, minimum order 1.
 */
import { expect, type Page } from '@playwright/test'
import {
  generateSiteCatalog,
  type SeedGroup,
  type SeedSku,
} from '../../src/server/db/seed/catalog/generate.ts'
import { SITE_SPECS } from '../../src/server/db/seed/catalog/vocabulary.ts'

export type DemoSite = 'harbour' | 'northgate'

/** The first plain SKU of the site's demo catalogue that also passes `also`, and its product. */
export function plainProduct(
  code: DemoSite,
  also: (sku: SeedSku) => boolean = () => true,
): { sku: SeedSku; group: SeedGroup; url: string } {
  const catalog = generateSiteCatalog(SITE_SPECS.find((s) => s.code === code)!)
  const groups = new Map(catalog.groups.map((g) => [g.url, g]))
  const categories = new Map(catalog.categories.map((c) => [c.url, c]))
  const sku = catalog.skus.find((s) => {
    const g = groups.get(s.groupUrl)
    const ownRow =
      !s.rowKey || catalog.skus.filter((o) => o.rowKey === s.rowKey && o.groupUrl === s.groupUrl).length === 1
    return (
      s.published &&
      !!g?.published &&
      categories.get(g.categoryUrl)?.published !== false &&
      ownRow &&
      s.minimumOrder === 1 &&
      also(s)
    )
  })
  if (!sku) throw new Error(`no plain product in the ${code} demo catalogue`)
  const group = groups.get(sku.groupUrl)!
  return { sku, group, url: group.url }
}

/**
 * Adds 30 of a plain product to the basket from its product page and opens Secure Checkout,
 * waiting until the page has hydrated (a click on a step heading before that does nothing).
 */
export async function addThirtyAndCheckout(
  page: Page,
  base: string,
  item: { sku: SeedSku; url: string },
): Promise<void> {
  await page.goto(`${base}${item.url}`)
  const field = page.locator(`tr[data-sku="${item.sku.sku}"]`).getByRole('textbox')
  await field.fill('30')
  await field.blur()
  await page
    .getByTestId(`price-grid-${item.sku.grid}`)
    .getByRole('button', { name: /^Add to (Basket|Cart)$/ })
    .click()
  await expect(page).toHaveURL(/\/cart$/, { timeout: 15_000 })
  await page.getByTestId('checkout-button').first().click()
  await expect(page.getByRole('heading', { level: 1, name: 'Secure Checkout' })).toBeVisible()
  await expect(page.getByTestId('required-note')).toBeVisible()
  await page.waitForFunction(() => !!document.querySelector('[data-testid="continue"]'))
}
