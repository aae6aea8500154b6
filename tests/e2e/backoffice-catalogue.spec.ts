/**
 * The back office's catalogue and promotions in a browser (issue 34): the demo owner finds a SKU,
 * is told under the field when a price cannot be read, changes a price break and sees it in the
 * shop; then creates a promotion and retires it. The SKU is the last plain one the demo generator
 * makes (other specs pick the first that fits), and its new price is new on every run.
 */
import { expect, test } from '@playwright/test'
import { generateSiteCatalog } from '../../src/server/db/seed/catalog/generate.ts'
import { SITE_SPECS } from '../../src/server/db/seed/catalog/vocabulary.ts'
import { OWNER, seriousViolations, signIn } from './helpers/backoffice.ts'

const catalog = generateSiteCatalog(SITE_SPECS.find((s) => s.code === 'harbour')!)
const publishedCategories = new Set(
  catalog.categories.filter((c) => c.published && !c.builder).map((c) => c.url),
)
const plain = catalog.groups.filter((g) => {
  const skus = catalog.skus.filter((s) => s.groupUrl === g.url)
  return (
    g.published &&
    g.layout === 'Default' &&
    publishedCategories.has(g.categoryUrl) &&
    skus.length === 1 &&
    skus[0]!.published &&
    !skus[0]!.rowKey &&
    skus[0]!.grid === 1
  )
})
const group = plain.at(-1)!
const sku = catalog.skus.find((s) => s.groupUrl === group.url)!

test.describe('the back office catalogue', () => {
  // The sign-in needs a TOTP time step of its own (a code works once): up to 30 s of waiting.
  test.describe.configure({ timeout: 120_000 })

  test('the owner changes a price break and the shop shows it; then creates and retires a promotion', async ({
    page,
  }) => {
    const stamp = Date.now()
    // A price this run has not used (a retry finds the last run's price stored).
    const pence = 1001 + (stamp % 8000)
    const typed = (pence / 100).toFixed(2)
    await signIn(page, OWNER.email, OWNER.password, OWNER.secret)

    await page
      .getByRole('navigation', { name: 'Back office' })
      .getByRole('link', { name: 'Catalogue' })
      .click()
    await expect(page.getByRole('heading', { name: 'Catalogue', level: 1 })).toBeVisible()
    await page.getByLabel('Search', { exact: true }).fill(sku.sku)
    await page.getByRole('button', { name: 'Find' }).click()
    await page.getByRole('link', { name: sku.sku, exact: true }).click()
    await expect(page.getByRole('heading', { name: `${sku.sku}: ${sku.name}` })).toBeVisible()
    expect(await seriousViolations(page)).toEqual([])

    const price = page.getByLabel('Unit price, price break 1')
    await price.fill('twelve')
    await page.getByRole('button', { name: 'Save prices' }).click()
    await expect(page.getByText('Enter an amount like 12.50.')).toBeVisible()
    await expect(price).toBeFocused()
    await expect(price).toHaveAttribute('aria-invalid', 'true')

    await price.fill(typed)
    await page.getByRole('button', { name: 'Save prices' }).click()
    await expect(page.getByRole('status').filter({ hasText: 'The prices were saved.' })).toBeVisible()
    await expect(page.getByLabel('Unit price, price break 1')).toHaveValue(typed)

    const shop = await page.context().newPage()
    await shop.goto(group.url)
    await expect(shop.getByTestId('price-grid-1')).toContainText(`£${typed}`)
    await shop.close()

    const code = `E2E${stamp}`
    await page
      .getByRole('navigation', { name: 'Back office' })
      .getByRole('link', { name: 'Promotions' })
      .click()
    await expect(page.getByRole('heading', { name: 'Promotions', level: 1 })).toBeVisible()
    await page.getByLabel('Code').fill(code)
    await page.getByLabel('Description').fill('Browser test')
    await page.getByLabel('Percentage off (1 to 100)').fill('10')
    await page.getByRole('button', { name: 'Create promotion' }).click()
    await expect(page.getByRole('heading', { name: `Promotion ${code}` })).toBeVisible()
    await expect(page.getByRole('status').filter({ hasText: 'The promotion was created.' })).toBeVisible()
    expect(await seriousViolations(page)).toEqual([])

    page.once('dialog', (d) => void d.accept())
    await page.getByRole('button', { name: 'Retire promotion' }).click()
    await expect(page.getByRole('status').filter({ hasText: 'The promotion was retired' })).toBeVisible()
    await expect(page.getByRole('button', { name: 'Retire promotion' })).toHaveCount(0)
    await page.getByRole('link', { name: 'Promotions', exact: true }).first().click()
    await expect(page.getByRole('row').filter({ hasText: code })).toContainText('Retired')
  })
})
